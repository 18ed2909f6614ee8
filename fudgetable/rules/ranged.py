"""EZFudge's ranged phase: one shot from a shooter at a target, and the wound it deals.

Seed: EZFudge Essentials "Fight Scenes". "Shooting is ranged action, where the character uses a
self-powered weapon to harm someone out of reach." "Distance in a fight is measured in ranges.
There are four:" (the list did not survive; "melee reach (range T or S)" names two), and
distance matters "when determining the difficulty level of a ranged attack"; obstacles in an
area, or blocking the view into the next, "can affect ... difficulty in ranged attack". The
Combat Round, step 3: "The difficulty level for the shot is based on distance, lighting, cover,
and so on. These factors don't modify the player action result. A character cannot both shoot
and evade within the same phase ... only one die roll per phase". "Ranged Optional Rules":
aimed strikes "as above"; a foe's extra roll "would attach to the Shooter Action" or "to the
Target Evade". "Damage Roll Options": "I think 4 might be best for ranged phase only."

The Ranged Phase flowchart is a picture that did not survive; what is read and chosen here:
- The shot is a test of the shooter's action (rank + modifiers + roll) against a difficulty the
  GM sets from range, light and cover. ``Conditions`` is a helper with these steps (the seed
  gives none): range T Mediocre (0), S Fair (+1), M Good (+2), L Great (+3); dim light +1,
  darkness +2; partial cover or an obstacle in the way +1, heavy cover +2. The GM may set any
  difficulty instead.
- Only the shooter's action takes modifiers (an aimed strike's, an outmanoeuvred -1): the
  conditions go into the difficulty, as the seed says.
- A target who evades rolls the Target Evade (rank + modifiers + roll) and that is the target's
  one roll this phase. The shot must beat the higher of the difficulty and the evade: the
  harder of the two sets the bar, and the margin is counted from it. A target who does not
  evade rolls nothing.
- A result equal to the bar succeeds with margin 0 ("equal to or higher than the difficulty,
  the action is a Success"); there is no draw outside melee, so option 3 does not apply.
- A hit wounds as in melee (``blows.wound``: margin + INJ - CPD, options 1, 2 and 4, an aimed
  strike); the shooter is never wounded by their own shot. A pulled punch is a melee rule.
- The weapon must be one used at range (``Weapon.ranged``): a self-powered one strikes with
  its own INJ ("Verify the appropriate value with the gamemaster"); one powered by the
  shooter's own strength (a bow, a sling, a thrown spear) with Body + Mass Scale + its damage
  factor, the seed's "For weapons you power with your own strength" (said again under
  "Self-Powered Weapon INJ"). The INJ gifts and faults on the sheet count for either. What the
  seed calls "a self-powered weapon" in the line on shooting is read as its usual case, not a
  bar on bows: the sheet says which weapons shoot, not the weapon's name.
"""

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fudgetable.rules import odds
from fudgetable.rules.blows import (
    TIE_SCRATCHES,
    Aim,
    Wound,
    WoundDice,
    check_options,
    roll_wound_dice,
    wound,
)
from fudgetable.rules.character import Weapon
from fudgetable.rules.data import is_int
from fudgetable.rules.dice import RandomSource, Roll, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.fight import OUTMANOEUVRED
from fudgetable.rules.resolution import (
    PLAIN_RULES,
    ActionRules,
    Side,
    SideResult,
    StaticOutcome,
    npc_roll_method,
    resolve_static,
)
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.sheet import Sheet, _ez_character
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import WoundTrack

SHOOTER, TARGET = "shooter", "target"
# The helper's steps (the seed's four ranges did not survive; T and S are "melee reach").
RANGES = {
    "T": (gettext_noop("Touch (T)"), 0),
    "S": (gettext_noop("Short (S)"), 1),
    "M": (gettext_noop("Medium (M)"), 2),
    "L": (gettext_noop("Long (L)"), 3),
}
LIGHT = {
    "good": (gettext_noop("Good light"), 0),
    "dim": (gettext_noop("Dim light"), 1),
    "dark": (gettext_noop("Darkness"), 2),
}
COVER = {
    "none": (gettext_noop("No cover"), 0),
    "partial": (gettext_noop("Partial cover or an obstacle"), 1),
    "heavy": (gettext_noop("Heavy cover"), 2),
}


@dataclass(frozen=True)
class Conditions:
    """Range, light and cover: what the shot's difficulty is "based on"."""

    range: str = "S"
    light: str = "good"
    cover: str = "none"

    def __post_init__(self) -> None:
        for name, table in (("range", RANGES), ("light", LIGHT), ("cover", COVER)):
            if getattr(self, name) not in table:
                raise RulesError(
                    name, gettext_noop("choose one of %(choices)s"), choices=", ".join(table)
                )

    @property
    def difficulty(self) -> int:
        return RANGES[self.range][1] + LIGHT[self.light][1] + COVER[self.cover][1]

    @property
    def words(self) -> str:
        return ", ".join(
            f"{label} {steps:+d}" if steps else label
            for label, steps in (RANGES[self.range], LIGHT[self.light], COVER[self.cover])
        )

    def to_dict(self) -> dict[str, Any]:
        return {"range": self.range, "light": self.light, "cover": self.cover}


@dataclass(frozen=True)
class Shooter:
    """The Shooter Action: the rank shot with, the weapon's INJ, and what changes the action."""

    level: int
    inj: int
    aim: Aim | None = None
    outmanoeuvred: bool = False

    def __post_init__(self) -> None:
        for name in ("level", "inj"):
            if not is_int(getattr(self, name)):
                raise RulesError(f"shooter.{name}", gettext_noop("must be a whole number"))

    @property
    def modifiers(self) -> tuple[int, ...]:
        aim = 0 if self.aim is None else self.aim.modifier
        return tuple(m for m in (aim, OUTMANOEUVRED if self.outmanoeuvred else 0) if m)


@dataclass(frozen=True)
class Target:
    """The one shot at: CPD, and the rank of the Target Evade (None: does not evade)."""

    cpd: int
    evade: int | None = None
    outmanoeuvred: bool = False

    def __post_init__(self) -> None:
        if not is_int(self.cpd) or not (self.evade is None or is_int(self.evade)):
            raise RulesError("target", gettext_noop("CPD and the evading rank are whole numbers"))

    @property
    def modifiers(self) -> tuple[int, ...]:
        return (OUTMANOEUVRED,) if self.outmanoeuvred else ()


@dataclass(frozen=True)
class Shot:
    """A shot: the action against the bar (the higher of difficulty and evade), and its wound."""

    shooter: Shooter
    target: Target
    difficulty: int
    evade: SideResult | None
    outcome: StaticOutcome  # the Shooter Action against the bar
    wound: Wound | None  # None: a miss; a hit may still come to no wound (``level`` None)
    options: tuple[int, ...]

    @property
    def bar(self) -> int:
        return self.outcome.difficulty

    @property
    def hit(self) -> bool:
        return self.outcome.succeeded

    def to_dict(self) -> dict[str, Any]:
        return {
            "difficulty": self.difficulty,
            "evade": None if self.evade is None else self.evade.to_dict(),
            "bar": self.bar,
            "outcome": self.outcome.to_dict(),
            "hit": self.hit,
            "wound": None if self.wound is None else self.wound.to_dict(),
            "options": list(self.options),
        }


def shot_options(options: Iterable[int]) -> tuple[int, ...]:
    """The damage options a shot uses: all but option 3, which scratches melee ties."""
    return tuple(option for option in check_options(options) if option != TIE_SCRATCHES)


def shot(
    track: WoundTrack,
    shooter: Shooter,
    target: Target,
    *,
    difficulty: int,
    shooter_roll: int,
    evade_roll: int = 0,
    rules: ActionRules = PLAIN_RULES,
    options: Iterable[int] = (),
    dice: WoundDice | None = None,
) -> Shot:
    """Resolve one shot from the rolls already made (the dice are the caller's)."""
    if not is_int(difficulty):
        raise RulesError("difficulty", gettext_noop("must be a whole number"))
    chosen = shot_options(options)
    evade = None
    if target.evade is not None:
        evade = Side(target.evade, evade_roll, target.modifiers).settle(rules, "evade.")
    bar = difficulty if evade is None else max(difficulty, evade.result)
    outcome = resolve_static(
        level=shooter.level,
        roll=shooter_roll,
        difficulty=bar,
        modifiers=shooter.modifiers,
        rules=rules,
    )
    dealt = None
    if outcome.succeeded:
        dealt = wound(
            track,
            to=TARGET,
            margin=outcome.margin,
            inj=shooter.inj,
            cpd=target.cpd,
            roll=shooter_roll,
            dice=dice or WoundDice(),
            options=chosen,
            aim=shooter.aim,
        )
    return Shot(shooter, target, difficulty, evade, outcome, dealt, chosen)


@dataclass(frozen=True)
class RolledShot:
    """A shot with the dice that made it and the shooter's chance to hit beforehand."""

    shot: Shot
    shooter_dice: Roll
    evade_dice: Roll | None
    chance: Fraction


def dice_for(ruleset: Ruleset, *, npc: bool) -> str:
    """A PC rolls the campaign's dice for a test; a foe's roll, if any, is its NPC roll mode
    (EZFudge: none), attached to the Shooter Action or the Target Evade."""
    return npc_roll_method(ruleset.npc_roll).key if npc else ruleset.dice


def hit_chance(
    shooter_method: str,
    evade_method: str | None,
    shooter: Shooter,
    target: Target,
    *,
    difficulty: int,
    rules: ActionRules = PLAIN_RULES,
) -> Fraction:
    """The exact chance that the shot succeeds: against the difficulty, or against whichever of
    it and the evade result is higher, summed over the evade's results."""

    def against(bar: int) -> Fraction:
        return odds.success_chance(
            shooter_method,
            level=shooter.level,
            difficulty=bar,
            modifiers=shooter.modifiers,
            rules=rules,
        )

    if target.evade is None or evade_method is None:
        return against(difficulty)
    evades = odds.result_distribution(
        evade_method, level=target.evade, modifiers=target.modifiers, rules=rules
    )
    return sum(
        (chance * against(max(difficulty, result)) for result, chance in evades.items()),
        Fraction(0),
    )


def fire(
    ruleset: Ruleset,
    shooter: Shooter,
    target: Target,
    *,
    difficulty: int,
    shooter_is_npc: bool = False,
    target_is_npc: bool = False,
    options: Iterable[int] | None = None,
    rng: RandomSource | None = None,
) -> RolledShot:
    """Roll one shot under the campaign's rules and wound track. ``options``: the damage options
    for this shot (the campaign's unless given: the GM may add option 4 for the ranged phase)."""
    track = ruleset.wound_track
    if track is None:
        raise RulesError(
            "wound_track",
            gettext_noop("%(label)s here has no wound track to shoot on"),
            label=ruleset.label,
        )
    chosen = shot_options(ruleset.damage_options if options is None else options)
    shooter_method = dice_for(ruleset, npc=shooter_is_npc)
    evade_method = None if target.evade is None else dice_for(ruleset, npc=target_is_npc)
    shooter_dice = get_method(shooter_method).roll(rng)
    evade_dice = None if evade_method is None else get_method(evade_method).roll(rng)
    result = shot(
        track,
        shooter,
        target,
        difficulty=difficulty,
        shooter_roll=shooter_dice.total,
        evade_roll=0 if evade_dice is None else evade_dice.total,
        rules=ruleset.static_rules,
        options=chosen,
        dice=roll_wound_dice(chosen, rng),
    )
    chance = hit_chance(
        shooter_method,
        evade_method,
        shooter,
        target,
        difficulty=difficulty,
        rules=ruleset.static_rules,
    )
    return RolledShot(result, shooter_dice, evade_dice, chance)


def shot_inj(sheet: Sheet, weapon: Weapon) -> int:
    """The INJ a shot strikes with, the sheet's INJ gifts and faults counted: a self-powered
    weapon's own; a bow's (or any weapon shot or thrown by the shooter's strength) Body + Mass
    Scale + damage factor (+1 for quality), as a melee weapon's."""
    if not weapon.ranged:
        raise RulesError(
            "weapon",
            gettext_noop(
                "%(name)s is a melee weapon: it fights in melee (mark a bow, sling or thrown "
                "weapon as shot or thrown on the sheet to shoot it)"
            ),
            name=weapon.name,
        )
    return _ez_character(sheet).inj(weapon)
