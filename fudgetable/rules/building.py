"""Building starting characters, and checking a build against the rules.

Seeds: Fudge Lite 3.1.0 "Character Creation" (trait distributions) and the optional rules
"Trading Traits", "Quick Character Creation (Over the Edge / Wushu)" and "Fudge On The Fly";
EZFudge Essentials "Making Characters" (roles, attributes, gifts, faults, trait swapping) and
"Point-Buy Characters"; Peupfudge 1.1 and appendix C example 2 (starting XP, properties).

A check never raises for a build that merely breaks the rules: it returns what is left to
spend and the broken rules in words, so a sheet can show both while the player works.
"""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from fudgetable.rules.abilities import Ability, Property
from fudgetable.rules.character import Attributes, Fault, Gift
from fudgetable.rules.data import is_int
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import FUDGE_LITE, Ladder
from fudgetable.rules.words import Words, gettext_noop

POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -1, 0, 1, 2, 3, 4


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


@dataclass(frozen=True)
class BuildCheck:
    left: tuple[str, ...]  # what is still to spend ("1 Great slot left", "28 / 30 build points")
    broken: tuple[str, ...]  # the rules the build breaks, as sentences

    @property
    def ok(self) -> bool:
        return not self.broken


# --- Fudge Lite trait distributions -----------------------------------------------------


@dataclass(frozen=True)
class Distribution:
    """How many traits the GM allows at each level. Levels without slots take no traits,
    except Poor, which holds every unplaced trait unless the GM counts Poor slots too."""

    slots: tuple[tuple[int, int], ...]  # (level, count), highest level first

    def __post_init__(self) -> None:
        levels = [level for level, _ in self.slots]
        if len(set(levels)) != len(levels):
            raise RulesError("distribution", gettext_noop("each level appears once"))
        if any(count < 0 for _, count in self.slots):
            raise RulesError("distribution", gettext_noop("slot counts cannot be negative"))
        if any(level < POOR for level in levels):
            raise RulesError("distribution", gettext_noop("there are no slots below Poor"))

    @classmethod
    def of(cls, counts: Mapping[int, int]) -> "Distribution":
        return cls(tuple(sorted(((lv, n) for lv, n in counts.items() if n), reverse=True)))

    @property
    def counts(self) -> dict[int, int]:
        return dict(self.slots)

    def at_least(self, level: int) -> int:
        """Slots at ``level`` or better ("10 traits Fair or better")."""
        return sum(n for lv, n in self.slots if lv >= level)

    def trade(self, level: int, *, ladder: Ladder = FUDGE_LITE) -> "Distribution":
        """Trading Traits: one slot at ``level`` becomes two slots one level lower."""
        counts = self.counts
        if counts.get(level, 0) < 1:
            raise RulesError(
                "level", gettext_noop("no %(name)s slot to trade"), name=ladder.name(level)
            )
        if level <= MEDIOCRE:
            raise RulesError("level", gettext_noop("trading down past Mediocre gains nothing"))
        counts[level] -= 1
        counts[level - 1] = counts.get(level - 1, 0) + 2
        return Distribution.of(counts)

    def to_dict(self) -> dict[str, Any]:
        return {"slots": [[level, count] for level, count in self.slots]}

    @classmethod
    def from_dict(cls, data: object) -> "Distribution":
        slots = data.get("slots") if isinstance(data, Mapping) else None
        if not isinstance(slots, list) or not all(
            isinstance(s, list) and len(s) == 2 and all(is_int(v) for v in s) for s in slots
        ):
            raise RulesError(
                "distribution.slots", gettext_noop("must be a list of [level, count] pairs")
            )
        return cls(tuple((lv, n) for lv, n in slots))


# The seed's four examples; its "etc." is read from the totals it gives for each.
DISTRIBUTIONS: dict[str, Distribution] = {
    "1 Superb, 2 Great, 3 Good, 4 Fair, 5 Mediocre": Distribution.of(
        {SUPERB: 1, GREAT: 2, GOOD: 3, FAIR: 4, MEDIOCRE: 5}
    ),
    "1 Superb, 2 Great, 2 Good, 2 Fair, 2 Mediocre": Distribution.of(
        {SUPERB: 1, GREAT: 2, GOOD: 2, FAIR: 2, MEDIOCRE: 2}
    ),
    "1 Great, 2 Good, 3 Fair, 4 Mediocre": Distribution.of(
        {GREAT: 1, GOOD: 2, FAIR: 3, MEDIOCRE: 4}
    ),
    "2 Great, 3 Good, 4 Fair, 5 Mediocre": Distribution.of(
        {GREAT: 2, GOOD: 3, FAIR: 4, MEDIOCRE: 5}
    ),
}

# The slot sheet the seed draws for Fudge On The Fly, Poor slots included.
ON_THE_FLY_SHEET = Distribution.of({SUPERB: 1, GREAT: 2, GOOD: 3, FAIR: 4, MEDIOCRE: 5, POOR: 9})


def trait_levels(traits: Mapping[str, int], trait_list: Iterable[str] = ()) -> dict[str, int]:
    """Every trait's level, with unplaced traits from the GM's list at Poor."""
    levels = {name: POOR for name in trait_list}
    levels.update(traits)
    return levels


def check_traits(
    distribution: Distribution,
    traits: Mapping[str, int],
    trait_list: Sequence[str] = (),
    *,
    ladder: Ladder = FUDGE_LITE,
) -> BuildCheck:
    """Check placed traits against the slots; an empty ``trait_list`` allows any name.
    ``ladder`` names the levels in the messages (Fate's +4 is Great, Fudge Lite's Superb)."""
    broken: list[str] = [
        Words(gettext_noop("%(name)s is not on the trait list"), name=name)
        for name in traits
        if trait_list and name not in trait_list
    ]
    used: dict[int, int] = {}
    for level in trait_levels(traits, trait_list).values():
        used[level] = used.get(level, 0) + 1
    counts = distribution.counts
    for level in sorted(used, reverse=True):
        if level == POOR and POOR not in counts:
            continue
        if used[level] > counts.get(level, 0):
            broken.append(
                f"{_plural(used[level], ladder.name(level) + ' trait')}"
                f" but only {_plural(counts.get(level, 0), 'slot')}"
            )
    left = [
        f"{_plural(n - used.get(lv, 0), ladder.name(lv) + ' slot')} left"
        for lv, n in distribution.slots
        if n > used.get(lv, 0)
    ]
    return BuildCheck(tuple(left), tuple(broken))


@dataclass(frozen=True)
class OnTheFly:
    """Fudge On The Fly: traits take a slot the first time they are checked."""

    sheet: Distribution = ON_THE_FLY_SHEET
    placed: tuple[tuple[str, int], ...] = ()

    def level_of(self, trait: str) -> int | None:
        """The trait's level, or None while it waits for its first check."""
        return dict(self.placed).get(trait)

    def open_slots(self, level: int) -> int:
        used = sum(1 for _, lv in self.placed if lv == level)
        return self.sheet.counts.get(level, 0) - used

    def place(self, trait: str, level: int, *, ladder: Ladder = FUDGE_LITE) -> "OnTheFly":
        if not trait.strip():
            raise RulesError("trait", gettext_noop("name the trait"))
        placed_at = self.level_of(trait)
        if placed_at is not None:
            raise RulesError(
                "trait",
                gettext_noop("%(trait)s already sits at %(name)s"),
                trait=trait,
                name=ladder.name(placed_at),
            )
        if self.open_slots(level) < 1:
            raise RulesError(
                "level", gettext_noop("no open %(name)s slot"), name=ladder.name(level)
            )
        return OnTheFly(self.sheet, (*self.placed, (trait, level)))

    def to_dict(self) -> dict[str, Any]:
        return {"sheet": self.sheet.to_dict(), "placed": [[t, lv] for t, lv in self.placed]}

    @classmethod
    def from_dict(cls, data: object) -> "OnTheFly":
        if not isinstance(data, Mapping) or not isinstance(data.get("placed"), list):
            raise RulesError(
                "on_the_fly.placed", gettext_noop("must be a list of [trait, level] pairs")
            )
        sheet = Distribution.from_dict(data.get("sheet"))
        fly = cls(sheet)
        for pair in data["placed"]:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise RulesError(
                    "on_the_fly.placed", gettext_noop("must be a list of [trait, level] pairs")
                )
            if not is_int(pair[1]):
                raise RulesError("on_the_fly.placed", gettext_noop("levels are whole numbers"))
            fly = fly.place(pair[0], pair[1])
        return fly


@dataclass(frozen=True)
class QuickBuild:
    traits: tuple[tuple[str, int], ...]
    fault: str | None = None


def _quick(traits: tuple[tuple[str, int], ...], fault: str | None, need_fault: bool) -> QuickBuild:
    names = [name.strip() for name, _ in traits]
    if not all(names) or len(set(names)) != len(names):
        raise RulesError("traits", gettext_noop("give three different traits"))
    if need_fault and not (fault and fault.strip()):
        raise RulesError("fault", gettext_noop("the GM asks every character for a fault"))
    return QuickBuild(traits, fault)


def over_the_edge(
    broad: str,
    narrow: tuple[str, str],
    great: str,
    *,
    fault: str | None = None,
    fault_required: bool = False,
) -> QuickBuild:
    """One broad and two narrow traits; the one named ``great`` is Great, the others Good."""
    names = (broad, *narrow)
    if great not in names:
        raise RulesError("great", gettext_noop("the Great trait must be one of the three"))
    traits = tuple((name, GREAT if name == great else GOOD) for name in names)
    return _quick(traits, fault, fault_required)


def wushu(
    motivation: str,
    fighting_style: str,
    profession: str,
    *,
    fault: str | None = None,
    fault_required: bool = False,
) -> QuickBuild:
    """Motivation Superb, fighting style Great, profession Good."""
    traits = ((motivation, SUPERB), (fighting_style, GREAT), (profession, GOOD))
    return _quick(traits, fault, fault_required)


# --- EZFudge --------------------------------------------------------------------------

STANDARD_BUILD_POINTS = 30
GIFT_POINTS = 4  # a fault is worth the same, negative
ATTRIBUTE_RANK_POINTS = 2

# The creation flow's starting allowance (10 role points, attributes at Fair plus 2 ranks,
# 2 gifts) and what each fault buys; swaps between them use the same rates. In build points
# every option is worth 4, which is why the point-buy check covers the flow as well.
FLOW_ALLOWANCE = {"role points": 10, "attribute ranks above Fair": 2, "gifts": 2}
FAULT_BUYS: tuple[dict[str, int], ...] = (
    {"gifts": 1},
    {"attribute ranks": 2},
    {"role points": 4},
    {"attribute ranks": 1, "role points": 2},
)


def ez_feature_points(*, fault: bool, supernormal: bool = False) -> int:
    """What one gift costs in build points, or one fault gives back (negative): "4 * (number
    of gifts - number of faults)", a supernormal gift counting as two."""
    if fault:
        return -GIFT_POINTS
    return GIFT_POINTS * (2 if supernormal else 1)


@dataclass(frozen=True)
class Role:
    name: str
    level: int
    specialty: str = ""
    specialty_required: bool = False  # a GM-required specialty makes the role 1 point cheaper

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesError("role.name", gettext_noop("a role needs a name"))
        if self.specialty_required and not self.specialty.strip():
            raise RulesError(
                "role.specialty", gettext_noop("%(name)s must name its specialty"), name=self.name
            )

    @property
    def cost(self) -> int:
        """Rank + 1 (Poor 0 ... Great 4), one less with a required specialty.

        A Poor role is the default every character has, so it never costs less than 0.
        """
        return max(self.level + 1 - (1 if self.specialty_required else 0), 0)


@dataclass(frozen=True)
class EzBuild:
    roles: tuple[Role, ...]
    attributes: Attributes
    gifts: tuple[Gift, ...] = ()
    faults: tuple[Fault, ...] = ()
    people_package_points: int = 0  # counted only if the GM designs packages with a cost

    @property
    def gift_count(self) -> int:
        """Gifts as the rules count them: a supernormal gift is (at least) two."""
        return sum(2 if g.supernormal else 1 for g in self.gifts)


def ez_build_points(build: EzBuild, *, count_people_package: bool = False) -> int:
    """4 x (gifts - faults) + 2 x attribute ranks + role costs (+ people package)."""
    a = build.attributes
    ranks = a.body + a.agility + a.mind + a.will  # ranks above Mediocre, the point-buy default
    points = (
        GIFT_POINTS * (build.gift_count - len(build.faults))
        + ATTRIBUTE_RANK_POINTS * ranks
        + sum(r.cost for r in build.roles)
    )
    return points + (build.people_package_points if count_people_package else 0)


def check_ez_build(
    build: EzBuild, *, budget: int = STANDARD_BUILD_POINTS, count_people_package: bool = False
) -> BuildCheck:
    """A starting EZFudge character: build points spent, and the limits on roles."""
    points = ez_build_points(build, count_people_package=count_people_package)
    broken: list[str] = []
    if points > budget:
        broken.append(
            Words(
                gettext_noop("%(points)d / %(budget)d build points: %(over)d over"),
                points=points,
                budget=budget,
                over=points - budget,
            )
        )
    for role in build.roles:
        if role.level < POOR:
            broken.append(
                Words(gettext_noop("%(name)s: roles start at Poor or better"), name=role.name)
            )
        if role.level > GREAT:
            broken.append(
                Words(gettext_noop("%(name)s: no starting role is above Great"), name=role.name)
            )
    greats = [r.name for r in build.roles if r.level == GREAT]
    if len(greats) > 1:
        broken.append(
            Words(
                gettext_noop("only one Great role at the start, not %(count)d"), count=len(greats)
            )
        )
    names = [r.name for r in build.roles]
    if len(set(names)) != len(names):
        broken.append(gettext_noop("each role is bought once"))
    spent = Words(
        gettext_noop("%(points)d / %(budget)d build points"), points=points, budget=budget
    )
    return BuildCheck((spent,), tuple(broken))


# --- Peupfudge ----------------------------------------------------------------------------


def check_starting_xp(allocation: Mapping[str, int], starting_xp: int) -> BuildCheck:
    """Starting XP spread over abilities: how much is left, or how far over it goes."""
    if starting_xp < 0:
        raise RulesError("starting_xp", gettext_noop("cannot be negative"))
    negative = gettext_noop("%(name)s: cannot allocate negative XP")
    broken = [Words(negative, name=name) for name, xp in allocation.items() if xp < 0]
    spent = sum(allocation.values())
    if spent > starting_xp:
        over = gettext_noop("%(spent)d / %(starting_xp)d XP allocated: %(over)d over")
        broken.append(Words(over, spent=spent, starting_xp=starting_xp, over=spent - starting_xp))
    allocated = gettext_noop("%(spent)d / %(starting_xp)d XP allocated")
    return BuildCheck((Words(allocated, spent=spent, starting_xp=starting_xp),), tuple(broken))


def starting_abilities(
    abilities: Sequence[Ability],
    allocation: Mapping[str, int],
    properties: Iterable[Property] = (),
) -> tuple[Ability, ...]:
    """Abilities after the starting allocation and any properties' bonus starting XP."""
    names = {a.name for a in abilities}
    bonus = [(b.ability, b.amount) for p in properties for b in p.starting_xp]
    for name, _ in (*allocation.items(), *bonus):
        if name not in names:
            raise RulesError(
                "allocation", gettext_noop("no ability %(name)r on this sheet"), name=name
            )
    totals = {a.name: allocation.get(a.name, 0) for a in abilities}
    for name, amount in bonus:
        totals[name] += amount
    if any(xp < 0 for xp in totals.values()):
        raise RulesError("allocation", gettext_noop("cannot allocate negative XP"))
    return tuple(a.allocate(totals[a.name]) for a in abilities)
