"""Reading rolls and margins: situational and reaction rolls, untrained defaults, a secondary
trait's bonus, Fate degrees.

Seeds: Fudge 1995 3.1 (situational roll: 0 is Fair), 3.3 (a Good secondary trait: +1), 3.4
(untrained: Poor, Mediocre if a high attribute helps), 3.7 (reaction bands); Fudge Lite "Trait
Checks (GM Rules)" (untrained: Fair for what anybody can do, down to Poor for specialised
training); EZFudge "Roles" and "Attributes" (no role: Poor, or an attribute at -2 capped at
Fair); Fate (Fudge edition) 3.1.1 and 3.2.1 (degrees of success). Values are on the standard
ladder (Mediocre 0, Fair +1).
"""

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fudgetable.rules.data import require_int
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution.action import (
    FAIR,
    GOOD,
    MEDIOCRE,
    PLAIN_RULES,
    POOR,
    ActionRules,
)
from fudgetable.rules.words import gettext_noop


def situational_result(
    roll: int, modifiers: Sequence[int] = (), rules: ActionRules = PLAIN_RULES
) -> int:
    """A roll not based on any trait: read from Fair, so a 0 is Fair and +1 Good."""
    return rules.clamp(FAIR + rules.combine(modifiers) + require_int(roll, "roll"))


class Reaction(StrEnum):
    WELL = "reacts-well"  # Good or better
    MILDLY_HELPFUL = "mildly-helpful"  # Fair: helps if it is not too much effort
    UNHELPFUL = "unhelpful"  # Mediocre or worse


@dataclass(frozen=True)
class ReactionOutcome:
    result: int
    reaction: Reaction

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result, "reaction": self.reaction.value}


def reaction(
    roll: int, modifiers: Sequence[int] = (), rules: ActionRules = PLAIN_RULES
) -> ReactionOutcome:
    """An NPC's reaction: a situational roll the GM makes in secret, with the PC's traits
    (Appearance, Charisma, Reputation, habits) and the circumstances as modifiers."""
    result = situational_result(roll, modifiers, rules)
    if result >= GOOD:
        return ReactionOutcome(result, Reaction.WELL)
    if result == FAIR:
        return ReactionOutcome(result, Reaction.MILDLY_HELPFUL)
    return ReactionOutcome(result, Reaction.UNHELPFUL)


class Commonness(StrEnum):
    """How common a trait is, for Fudge Lite's untrained level."""

    EVERYONE = "everyone"  # fighting, climbing, basic maths: Fair
    SOME = "some"  # in between: Mediocre
    SPECIALISED = "specialised"  # particle physics, helicopter piloting: Poor


_LITE_UNTRAINED = {
    Commonness.EVERYONE: FAIR,
    Commonness.SOME: MEDIOCRE,
    Commonness.SPECIALISED: POOR,
}


def untrained_fudge_lite(commonness: Commonness | str) -> int:
    """The level of a trait missing from the sheet, as the GM judges how common it is."""
    try:
        return _LITE_UNTRAINED[Commonness(commonness)]
    except ValueError:
        raise RulesError(
            "commonness",
            gettext_noop("%(commonness)r is not one of everyone, some, specialised"),
            commonness=commonness,
        ) from None


def untrained_fudge_1995(*, high_attribute_helps: bool = False) -> int:
    """Default for an unlisted skill: Poor, or Mediocre if a high attribute logically helps."""
    return MEDIOCRE if high_attribute_helps else POOR


def secondary_trait_bonus(level: int, *, good: int = GOOD) -> int:
    """Fudge 1995 3.3: "If a character has a secondary trait that could contribute
    significantly to a task, the GM may allow a +1 bonus if the trait is Good or better."
    ``good`` is where Good sits on the campaign's ladder (+3 on Fate's)."""
    return 1 if require_int(level, "level") >= require_int(good, "good") else 0


def untrained_ezfudge(attribute: int | None = None) -> int:
    """No role that applies: the default Poor, or (if the GM allows) a relevant attribute at -2
    ranks, capped at Fair. Given an attribute, the better of the two is used: the seed offers
    both, and no player would take an attribute stand-in worse than the default."""
    if attribute is None:
        return POOR
    stand_in = min(require_int(attribute, "attribute") - 2, FAIR)
    return max(POOR, stand_in)


@dataclass(frozen=True)
class FateDegree:
    rung: int  # 0 .. 4, the row of the table and the challenge-ladder rung
    name: str
    magnitude: str
    duration: str


FATE_DEGREES: tuple[FateDegree, ...] = (
    FateDegree(0, gettext_noop("Minimal"), gettext_noop("Negligible"), gettext_noop("Instant")),
    FateDegree(1, gettext_noop("Competent"), gettext_noop("Minor"), gettext_noop("Momentary")),
    FateDegree(2, gettext_noop("Solid"), gettext_noop("Moderate"), gettext_noop("Scene")),
    FateDegree(3, gettext_noop("Significant"), gettext_noop("Major"), gettext_noop("Session")),
    FateDegree(
        4, gettext_noop("Perfection"), gettext_noop("Overwhelming"), gettext_noop("Long term")
    ),
)

# The least margin for each rung: a static test steps by one; a dynamic one (both sides roll,
# so twice the range) uses 0, 1, 2-4, 5-6, 7+.
STATIC_STEPS = (0, 1, 2, 3, 4)
DYNAMIC_STEPS = (0, 1, 2, 5, 7)


@dataclass(frozen=True)
class FateReading:
    """A margin read on Fate's table. A tie is a success with MoS 0. The seed names no degrees
    of failure, but a MoF removes a success "from an equivalent MoS", so a failure is read on the
    same scale: ``degree`` is the rung its MoF matches (MoF 1 matches Competent)."""

    succeeded: bool
    margin: int  # the MoS, or the MoF, never negative
    degree: FateDegree

    def to_dict(self) -> dict[str, Any]:
        return {
            "succeeded": self.succeeded,
            "margin": self.margin,
            "degree": self.degree.name,
            "rung": self.degree.rung,
        }


def fate_degree(margin: int, *, dynamic: bool = False) -> FateReading:
    """Read a margin (result - difficulty, or the difference of two rolled results)."""
    size = abs(require_int(margin, "margin"))
    steps = DYNAMIC_STEPS if dynamic else STATIC_STEPS
    rung = max(index for index, least in enumerate(steps) if size >= least)
    return FateReading(margin >= 0, size, FATE_DEGREES[rung])
