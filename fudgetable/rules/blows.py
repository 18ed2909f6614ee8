"""A blow that lands (a melee exchange's or a shot's) and the wound it deals: margin + INJ -
CPD read on the wound track, then EZFudge's "Damage Roll Options", a pulled punch's cap and
where an aimed strike lands. ``fight.py`` (melee) and ``ranged.py`` (the ranged phase) share it.

Seed: EZFudge Essentials "Fight Scenes": "Damage Roll Options" 1-4, "Melee Optional Rules"
(Pulling Your Punch, Aimed Strikes; the "Ranged Optional Rules" take aimed strikes "as above").
``fight.py``'s docstring says how the terse text is read.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Any

from fudgetable.rules import wounds
from fudgetable.rules.data import is_int
from fudgetable.rules.dice import RandomSource, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import DAMAGE_OPTIONS
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import WoundTrack

SUPERB = 4
SUPERB_ROLL, EXTRA_DIE, TIE_SCRATCHES, SHIFT_DIE = 1, 2, 3, 4  # the seed's option numbers
AIM_LANDED, FOE_DECIDES = "landed", "foe-decides"


@dataclass(frozen=True)
class Aim:
    """An aimed strike: the GM's ``modifier`` for how hard it is, and the least margin it
    ``needs`` to land where it was aimed (0: any blow that wounds)."""

    modifier: int = 0
    needs: int = 0

    def __post_init__(self) -> None:
        if not is_int(self.modifier) or self.modifier > 0:
            raise RulesError(
                "aim.modifier", gettext_noop("an aimed strike is harder, never easier: 0 or less")
            )
        if not is_int(self.needs) or self.needs < 0:
            raise RulesError(
                "aim.needs", gettext_noop("the margin an aimed strike needs is 0 or more")
            )

    def to_dict(self) -> dict[str, Any]:
        return {"modifier": self.modifier, "needs": self.needs}


def check_pull(pull: int | None, track: WoundTrack | None = None) -> None:
    """A pulled punch caps the wound at a level of the track: Scratch (0) or worse."""
    if pull is None:
        return
    if not is_int(pull) or pull < 0:
        raise RulesError(
            "pull", gettext_noop("a pulled punch caps the wound at a level of the wound track")
        )
    if track is not None and pull >= len(track.levels):
        raise RulesError(
            "pull", gettext_noop("%(name)s has no level %(value)s"), name=track.name, value=pull + 1
        )


@dataclass(frozen=True)
class WoundDice:
    """The Fudge dice the damage options roll for the wound one fighter may take."""

    damage: int = 0  # option 2: added to the wound calculation
    shift: int = 0  # option 4: shifts the wound level

    def __post_init__(self) -> None:
        if self.damage not in (-1, 0, 1) or self.shift not in (-1, 0, 1):
            raise RulesError("dice", gettext_noop("a Fudge die shows -1, 0 or +1"))


@dataclass(frozen=True)
class Wound:
    """A blow that landed on ``to`` and what it comes to; ``level`` None: no wound."""

    to: str
    margin: int
    inj: int
    cpd: int
    bonus: int  # All-Out Attack's +1 or +2
    die: int  # option 2
    damage: int | None  # None for option 3's Scratch, which is not calculated
    level: int | None
    level_name: str
    shift: int = 0  # option 4, as it moved the level
    superb: bool = False  # option 1 made it a Scratch
    tie_scratch: bool = False  # option 3
    pulled: bool = False  # a pulled punch counted it as a lesser level
    aimed: str = ""  # an aimed strike's blow: AIM_LANDED or FOE_DECIDES; "" not aimed

    def to_dict(self) -> dict[str, Any]:
        return {
            "to": self.to,
            "margin": self.margin,
            "inj": self.inj,
            "cpd": self.cpd,
            "bonus": self.bonus,
            "die": self.die,
            "damage": self.damage,
            "level": self.level,
            "level_name": self.level_name,
            "shift": self.shift,
            "superb": self.superb,
            "tie_scratch": self.tie_scratch,
            "pulled": self.pulled,
            "aimed": self.aimed,
        }


def roll_wound_dice(options: Iterable[int], rng: RandomSource | None = None) -> WoundDice:
    """The damage options' Fudge dice for one wound, rolled only for the options in use."""
    chosen, die = tuple(options), get_method("1dF")
    damage = die.roll(rng).total if EXTRA_DIE in chosen else 0
    shift = die.roll(rng).total if SHIFT_DIE in chosen else 0
    return WoundDice(damage, shift)


def check_options(options: Iterable[int]) -> tuple[int, ...]:
    chosen = tuple(sorted(set(options)))
    for option in chosen:
        if option not in DAMAGE_OPTIONS:
            raise RulesError(
                "damage_options", gettext_noop("%(option)r is not one of 1, 2, 3, 4"), option=option
            )
    return chosen


def _shift(track: WoundTrack, level: int | None, by: int) -> int | None:
    rung = (-1 if level is None else level) + by
    rung = min(rung, len(track.levels) - 1)
    return None if rung < 0 else rung


def wound(
    track: WoundTrack,
    *,
    to: str,
    margin: int,
    inj: int,
    cpd: int,
    roll: int,
    dice: WoundDice,
    options: tuple[int, ...],
    bonus: int = 0,
    pull: int | None = None,
    aim: Aim | None = None,
) -> Wound:
    """What a blow (or a shot) that landed comes to: margin + INJ - CPD + ``bonus``, read on the
    track, then the damage options 2, 4 and 1 (``roll`` is the striker's dice), then a pulled
    punch's cap; an aimed strike lands where aimed only on a wound with the margin it needs."""
    die = dice.damage if EXTRA_DIE in options else 0
    amount = wounds.damage(margin, inj, cpd) + bonus + die
    level = wounds.level_for_damage(track, amount)
    shift = dice.shift if SHIFT_DIE in options else 0
    level = _shift(track, level, shift)
    superb = SUPERB_ROLL in options and roll >= SUPERB and level is None
    if superb:
        level = 0
    pulled = pull is not None and level is not None and level > pull
    if pulled:
        level = pull
    aimed = ""
    if aim is not None and level is not None:
        aimed = AIM_LANDED if margin >= aim.needs else FOE_DECIDES
    name = "" if level is None else track.levels[level].name
    found = Wound(to, margin, inj, cpd, bonus, die, amount, level, name, shift, superb)
    return replace(found, pulled=pulled, aimed=aimed)
