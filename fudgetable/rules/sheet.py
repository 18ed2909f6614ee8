"""A character sheet as the rules see it: plain data in; starting traits, level bounds,
derived values, build checks and advancement steps out.

The apps keep a sheet in database rows and hand this module a ``Sheet``; every number a sheet
shows (Resilience, CPD, INJ per weapon, ability levels, what is left to build, what a step
costs) is worked out here under the campaign's ``Ruleset``.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from fudgetable.rules import advancement
from fudgetable.rules.abilities import Ability
from fudgetable.rules.building import (
    ON_THE_FLY_SHEET,
    BuildCheck,
    Distribution,
    EzBuild,
    Role,
    check_ez_build,
    check_starting_xp,
    check_traits,
)
from fudgetable.rules.character import ATTRIBUTE_NAMES, Attributes, EzCharacter, Fault, Gift, Weapon
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import AdvancementTable, BuildMethod, Ruleset, TraitScheme
from fudgetable.rules.words import gettext_noop

TRAIT, SKILL, ROLE, ATTRIBUTE, ABILITY = "trait", "skill", "role", "attribute", "ability"
POOR, FAIR, GOOD, GREAT, SUPERB = -1, 1, 2, 3, 4
PEUPFUDGE_TOP = 40  # 2^40 XP for one step: no campaign gets there, and it bounds bad input

# The kinds of trait each scheme's sheet holds, the first being what "add a trait" adds.
SCHEME_KINDS: Mapping[TraitScheme, tuple[str, ...]] = {
    TraitScheme.LADDER_TRAITS: (TRAIT,),
    TraitScheme.SKILLS: (SKILL,),
    TraitScheme.ROLES_ATTRIBUTES: (ROLE, ATTRIBUTE),
    TraitScheme.ABILITIES: (ABILITY,),
}


@dataclass(frozen=True)
class SheetTrait:
    kind: str
    name: str
    level: int
    specialty: str = ""
    specialty_required: bool = False
    progress: int = 0  # Peupfudge XP toward the next level
    modifier: int = 0  # Peupfudge level modifier


@dataclass(frozen=True)
class Sheet:
    traits: tuple[SheetTrait, ...] = ()
    gifts: tuple[Gift, ...] = ()
    faults: tuple[Fault, ...] = ()
    armor_bonus: int = 0
    weapons: tuple[Weapon, ...] = ()
    mass_scale: int = 0
    xp: int = 0
    people_package_points: int = 0
    trades: tuple[int, ...] = ()  # Fudge Lite: levels whose slot was traded for two below

    def of_kind(self, kind: str) -> tuple[SheetTrait, ...]:
        return tuple(trait for trait in self.traits if trait.kind == kind)


def starting_traits(ruleset: Ruleset) -> tuple[SheetTrait, ...]:
    """A new sheet's traits: the campaign's list at Poor (unplaced traits are Poor), EZFudge's
    four attributes at Fair with no roles yet, Peupfudge's abilities at 0."""
    scheme = ruleset.trait_scheme
    if scheme is TraitScheme.ROLES_ATTRIBUTES:
        return tuple(SheetTrait(ATTRIBUTE, name, FAIR) for name in ATTRIBUTE_NAMES)
    if scheme is TraitScheme.ABILITIES:
        return tuple(SheetTrait(ABILITY, name, 0) for name in ruleset.trait_list)
    kind = SCHEME_KINDS[scheme][0]
    return tuple(SheetTrait(kind, name, POOR) for name in ruleset.trait_list)


def level_bounds(ruleset: Ruleset) -> tuple[int, int]:
    """The levels a trait may be set to: the ladder's rungs, or 0 up for plain numbers."""
    ladder = ruleset.ladder
    if ladder.numeric:
        return 0, PEUPFUDGE_TOP
    low, high = ladder.rungs[0].value, ladder.rungs[-1].value
    return max(low, ladder.floor) if ladder.floor is not None else low, high


def check_level(ruleset: Ruleset, level: int) -> int:
    low, high = level_bounds(ruleset)
    if not low <= level <= high:
        ladder = ruleset.ladder
        raise RulesError(
            "level",
            gettext_noop("must be between %(name)s and %(name2)s on this ladder"),
            name=ladder.name(low),
            name2=ladder.name(high),
        )
    return level


def _ez_character(sheet: Sheet) -> EzCharacter:
    levels = {trait.name: trait.level for trait in sheet.of_kind(ATTRIBUTE)}
    attributes = Attributes(*(levels.get(name, FAIR) for name in ATTRIBUTE_NAMES))
    return EzCharacter(attributes, sheet.mass_scale, sheet.armor_bonus, sheet.gifts, sheet.faults)


def _ability(trait: SheetTrait) -> Ability:
    return Ability(trait.name, trait.level, trait.progress, trait.modifier)


def derived(ruleset: Ruleset, sheet: Sheet) -> tuple[tuple[str, str], ...]:
    """The values a sheet shows but nobody types in, as (label, value) pairs."""
    if ruleset.trait_scheme is TraitScheme.ROLES_ATTRIBUTES:
        ez = _ez_character(sheet)
        rows = [
            (gettext_noop("Resilience"), f"{ez.resilience:+d}"),
            (gettext_noop("Reflexes"), f"{ez.reflexes:+d}"),
            ("CPD", str(ez.cpd)),
        ]
        rows += [(f"INJ · {weapon.name}", str(ez.inj(weapon))) for weapon in sheet.weapons]
        return tuple(rows)
    if ruleset.trait_scheme is TraitScheme.ABILITIES:
        return tuple((t.name, _ability(t).describe()) for t in sheet.of_kind(ABILITY))
    return ()


def ability_xp_spent(trait: SheetTrait) -> int:
    return _ability(trait).xp_spent


def traded_distribution(ruleset: Ruleset, trades: tuple[int, ...]) -> Distribution:
    """The campaign's distribution after a character's trades ("Trading Traits": one slot
    becomes two slots one level lower)."""
    distribution = ruleset.build.distribution
    if ruleset.build.method is not BuildMethod.DISTRIBUTION or distribution is None:
        raise RulesError(
            "trade",
            gettext_noop("%(label)s here does not build with trait slots"),
            label=ruleset.label,
        )
    for level in trades:
        distribution = distribution.trade(level, ladder=ruleset.ladder)
    return distribution


# Fudge Lite's quick builds: the levels of the three traits each one sets.
QUICK_BUILDS = {
    BuildMethod.OVER_THE_EDGE: ((GREAT, GOOD, GOOD), gettext_noop("one Great and two Good traits")),
    BuildMethod.WUSHU: ((SUPERB, GREAT, GOOD), gettext_noop("a Superb, a Great and a Good trait")),
}


def build_check(ruleset: Ruleset, sheet: Sheet) -> BuildCheck:
    """What is left to build and which rules the sheet breaks, under the campaign's build."""
    build = ruleset.build
    kind = SCHEME_KINDS[ruleset.trait_scheme][0]
    levels = {trait.name: trait.level for trait in sheet.of_kind(kind)}
    if build.method is BuildMethod.DISTRIBUTION:
        if build.distribution is None:  # only a hand-made ruleset lacks slots; nothing to hold
            return BuildCheck((), ())
        distribution = traded_distribution(ruleset, sheet.trades)
        return check_traits(distribution, levels, ruleset.trait_list, ladder=ruleset.ladder)
    if build.method is BuildMethod.EZ_POINTS:
        roles = tuple(
            Role(t.name, t.level, t.specialty, t.specialty_required) for t in sheet.of_kind(ROLE)
        )
        ez = EzBuild(
            roles,
            _ez_character(sheet).attributes,
            sheet.gifts,
            sheet.faults,
            sheet.people_package_points,
        )
        return check_ez_build(
            ez, budget=build.budget, count_people_package=bool(sheet.people_package_points)
        )
    if build.method is BuildMethod.STARTING_XP:
        allocation = {t.name: ability_xp_spent(t) for t in sheet.of_kind(ABILITY)}
        return check_starting_xp(allocation, build.starting_xp)
    placed = {name: level for name, level in levels.items() if level > POOR}
    if build.method is BuildMethod.ON_THE_FLY:
        # Open slots are filled in play, the first time a trait is checked: never a fault.
        return check_traits(ON_THE_FLY_SHEET, placed, ladder=ruleset.ladder)
    wanted, words = QUICK_BUILDS[build.method]
    if sorted(placed.values(), reverse=True) == list(wanted):
        return BuildCheck((), ())
    return BuildCheck((f"Quick build: {words}",), (f"a quick build has exactly {words}",))


def advance_step(
    ruleset: Ruleset, trait: SheetTrait, xp: int, *, gm_permission: bool = False
) -> advancement.Step:
    """What raising ``trait`` one level costs now, and whether it may be bought.

    A step the ladder or the table has no price for is refused with the reason, not raised:
    the sheet asks this of every trait it shows, whatever the GM's settings pair up.
    """
    if trait.level >= level_bounds(ruleset)[1]:
        return advancement.Step(
            trait.level, 0, False, gettext_noop("already at the top of the ladder")
        )
    try:
        return _table_step(ruleset, trait, xp, gm_permission=gm_permission)
    except RulesError as error:
        return advancement.Step(trait.level, 0, False, error.message)


def _table_step(
    ruleset: Ruleset, trait: SheetTrait, xp: int, *, gm_permission: bool
) -> advancement.Step:
    table = ruleset.advancement
    if table is AdvancementTable.EZFUDGE:
        kind = advancement.ATTRIBUTE if trait.kind == ATTRIBUTE else advancement.ROLE
        return advancement.ez_step(kind, trait.level, xp)
    if table is AdvancementTable.PEUPFUDGE:
        # Any XP may go toward the next level; a whole level costs what is still missing.
        cost = _ability(trait).next_cost - trait.progress
        allowed = xp > 0
        return advancement.Step(
            trait.level, cost, allowed, "" if allowed else gettext_noop("no unspent XP")
        )
    return advancement.lite_step(trait.level, xp, gm_permission=gm_permission)


def gift_or_fault_step(ruleset: Ruleset, xp: int, *, gm_agrees: bool) -> advancement.Step:
    """Adding a gift or dropping a fault with XP: EZFudge's 8 XP; other tables don't sell it."""
    if ruleset.advancement is not AdvancementTable.EZFUDGE:
        return advancement.Step(0, 0, False, f"{ruleset.label} does not buy gifts with XP")
    return advancement.ez_gift_or_fault_step(xp, gm_agrees=gm_agrees)
