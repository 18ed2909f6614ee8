"""Resolving an action: result = level + modifiers + roll, against a difficulty or a foe.

Seeds: Fudge 1995 3.3 (modifiers, at most +/-3), 3.4 (unopposed actions), 3.5 (opposed actions,
relative degree, minimum results), 3.6 (criticals); Fudge Lite "Trait Checks" (a tie or better
succeeds), "Bonuses and penalties" (largest bonus and penalty only) and the Terrible floor;
EZFudge "The Action Result" and "The Outcome" (success and failure margins), melee draws;
Peupfudge 2 (L + A + R >= D; equal opposed totals are a tie).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fudgetable.rules.data import choice, obj, only, require_int
from fudgetable.rules.dice import DiceMethod, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

POOR, MEDIOCRE, FAIR, GOOD = -1, 0, 1, 2
CRITICAL_STEPS = 4  # Fudge 1995 3.6: a natural +/-4, or four levels past the difficulty

# How the GM's side of a contest rolls: not at all (the NPC's level is the difficulty), 1dF or
# 2dF (Fudge 1995 3.5), 3dF (Peupfudge's opposed default), 4dF (EZFudge "Rolls for Foes"), or
# the NPC d6 (Fudge 1995 3.5).
NPC_ROLL_MODES = ("none", "1dF", "2dF", "3dF", "4dF", "npc-d6")


def npc_roll_method(mode: object) -> DiceMethod:
    """The dice method for an NPC roll mode; anything else is refused."""
    if mode not in NPC_ROLL_MODES:
        raise RulesError(
            "npc_roll",
            gettext_noop("%(mode)r is not one of %(choices)s"),
            mode=mode,
            choices=", ".join(NPC_ROLL_MODES),
        )
    return get_method(mode)


class Outcome(StrEnum):
    """What an action comes to. At a margin of 0 the ruleset decides, through ``tie``: static
    ties succeed; Peupfudge's opposed ties are ties; EZFudge melee calls it a draw; Fudge 1995's
    opposed 0 keeps the status quo."""

    SUCCESS = "success"
    FAILURE = "failure"
    TIE = "tie"
    DRAW = "draw"
    STATUS_QUO = "status-quo"


class ModifierPolicy(StrEnum):
    SUM = "sum"  # plain: every modifier counts
    LARGEST = "largest"  # Fudge Lite: the single largest bonus and single largest penalty
    CAPPED = "capped"  # Fudge 1995: the total never past +/- cap (3)


class Criticals(StrEnum):
    OFF = "off"
    NATURAL = "natural"  # a natural roll of +4 or better / -4 or worse
    MARGIN = "margin"  # a result four or more levels past the difficulty
    BOTH = "both"


class Critical(StrEnum):
    SUCCESS = "critical-success"
    FAILURE = "critical-failure"


def _ints(raw: object, setting: str) -> tuple[int, ...]:
    if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
        raise RulesError(setting, gettext_noop("must be a list of whole numbers"))
    return tuple(require_int(item, setting) for item in raw)


@dataclass(frozen=True)
class ActionRules:
    """How a ruleset resolves one kind of action. Hashable, so odds can be cached on it."""

    tie: Outcome = Outcome.SUCCESS
    modifiers: ModifierPolicy = ModifierPolicy.SUM
    modifier_cap: int = 3
    criticals: Criticals = Criticals.OFF
    floor: int | None = None
    ceiling: int | None = None

    def __post_init__(self) -> None:
        for name, kind in (
            ("tie", Outcome),
            ("modifiers", ModifierPolicy),
            ("criticals", Criticals),
        ):
            object.__setattr__(self, name, choice(kind, getattr(self, name), f"rules.{name}"))
        if require_int(self.modifier_cap, "rules.modifier_cap") < 0:
            raise RulesError("rules.modifier_cap", gettext_noop("must not be negative"))
        for name in ("floor", "ceiling"):
            if getattr(self, name) is not None:
                require_int(getattr(self, name), f"rules.{name}")
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise RulesError("rules.floor", gettext_noop("must not be above the ceiling"))

    def combine(self, modifiers: Sequence[int]) -> int:
        """The one modifier that all of an action's bonuses and penalties come to."""
        mods = _ints(modifiers, "modifiers")
        if self.modifiers is ModifierPolicy.LARGEST:
            bonus = max((m for m in mods if m > 0), default=0)
            penalty = min((m for m in mods if m < 0), default=0)
            return bonus + penalty
        total = sum(mods)
        if self.modifiers is ModifierPolicy.CAPPED:
            return max(-self.modifier_cap, min(self.modifier_cap, total))
        return total

    def clamp(self, result: int) -> int:
        if self.floor is not None and result < self.floor:
            return self.floor
        if self.ceiling is not None and result > self.ceiling:
            return self.ceiling
        return result

    def outcome(self, margin: int) -> Outcome:
        if margin > 0:
            return Outcome.SUCCESS
        return self.tie if margin == 0 else Outcome.FAILURE

    def critical(self, natural_roll: int, margin: int) -> Critical | None:
        # A natural critical comes first: Fudge 1995 lets it override the rolled degree.
        if self.criticals in (Criticals.NATURAL, Criticals.BOTH):
            if natural_roll >= CRITICAL_STEPS:
                return Critical.SUCCESS
            if natural_roll <= -CRITICAL_STEPS:
                return Critical.FAILURE
        if self.criticals in (Criticals.MARGIN, Criticals.BOTH):
            if margin >= CRITICAL_STEPS:
                return Critical.SUCCESS
            if margin <= -CRITICAL_STEPS:
                return Critical.FAILURE
        return None

    def to_dict(self) -> dict[str, Any]:
        return {
            "tie": self.tie.value,
            "modifiers": self.modifiers.value,
            "modifier_cap": self.modifier_cap,
            "criticals": self.criticals.value,
            "floor": self.floor,
            "ceiling": self.ceiling,
        }

    @classmethod
    def from_dict(cls, data: object) -> "ActionRules":
        mapping = obj(data, "rules")
        only(mapping, cls().to_dict(), "rules")
        return cls(**mapping)


# Defaults for callers without a ruleset: every modifier counts, a static tie succeeds, and in a
# contest equal results mean neither side wins. Rulesets pass their own.
PLAIN_RULES = ActionRules()
PLAIN_OPPOSED_RULES = ActionRules(tie=Outcome.TIE)


@dataclass(frozen=True)
class Side:
    """One side of an action as it is rolled: trait level, natural roll, modifiers."""

    level: int
    roll: int
    modifiers: tuple[int, ...] = ()

    def settle(self, rules: ActionRules, where: str = "") -> "SideResult":
        level = require_int(self.level, f"{where}level")
        roll = require_int(self.roll, f"{where}roll")
        modifiers = _ints(self.modifiers, f"{where}modifiers")
        modifier = rules.combine(modifiers)
        return SideResult(level, modifiers, modifier, roll, rules.clamp(level + modifier + roll))

    @classmethod
    def from_dict(cls, data: object, where: str) -> "Side":
        mapping = obj(data, where)
        return cls(
            require_int(mapping.get("level"), f"{where}.level"),
            require_int(mapping.get("roll"), f"{where}.roll"),
            _ints(mapping.get("modifiers", []), f"{where}.modifiers"),
        )


@dataclass(frozen=True)
class SideResult:
    """A side once the rules have combined its modifiers and clamped its result."""

    level: int
    modifiers: tuple[int, ...]
    modifier: int
    roll: int
    result: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "modifiers": list(self.modifiers),
            "modifier": self.modifier,
            "roll": self.roll,
            "result": self.result,
        }


def _check_stored(stored: Mapping[str, Any], fresh: dict[str, Any], where: str) -> None:
    for key, value in fresh.items():
        if key in stored and stored[key] != value:
            raise RulesError(
                f"{where}.{key}",
                gettext_noop("stored %(stored)r, but the rules give %(value)r"),
                stored=stored[key],
                value=value,
            )


@dataclass(frozen=True)
class StaticOutcome:
    """An unopposed action against a difficulty (a test, in EZFudge and Fate)."""

    side: SideResult
    difficulty: int
    margin: int
    outcome: Outcome
    critical: Critical | None
    rules: ActionRules

    @property
    def result(self) -> int:
        return self.side.result

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.side.to_dict(),
            "difficulty": self.difficulty,
            "margin": self.margin,
            "outcome": self.outcome.value,
            "critical": None if self.critical is None else self.critical.value,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> "StaticOutcome":
        """Rebuild a stored outcome, refusing one whose numbers the rules would not give."""
        mapping = obj(data, "outcome")
        side = Side.from_dict(mapping, "outcome")
        fresh = resolve_static(
            level=side.level,
            roll=side.roll,
            modifiers=side.modifiers,
            difficulty=require_int(mapping.get("difficulty"), "outcome.difficulty"),
            rules=ActionRules.from_dict(mapping.get("rules", {})),
        )
        _check_stored(mapping, fresh.to_dict(), "outcome")
        return fresh


def resolve_static(
    *,
    level: int,
    roll: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> StaticOutcome:
    """Result = level + modifiers + roll, clamped; margin = result - difficulty."""
    side = Side(level, roll, tuple(modifiers)).settle(rules)
    margin = side.result - require_int(difficulty, "difficulty")
    return StaticOutcome(
        side, difficulty, margin, rules.outcome(margin), rules.critical(roll, margin), rules
    )


@dataclass(frozen=True)
class OpposedOutcome:
    """A contest. ``relative_degree`` is the active side's result minus the passive side's
    (Fudge 1995 3.5); ``outcome`` is from the active side's point of view."""

    active: SideResult
    passive: SideResult
    relative_degree: int
    outcome: Outcome
    critical: Critical | None
    minimum: int | None
    rules: ActionRules

    @property
    def succeeded(self) -> bool:
        return self.outcome is Outcome.SUCCESS

    def to_dict(self) -> dict[str, Any]:
        return {
            "active": self.active.to_dict(),
            "passive": self.passive.to_dict(),
            "relative_degree": self.relative_degree,
            "outcome": self.outcome.value,
            "critical": None if self.critical is None else self.critical.value,
            "minimum": self.minimum,
            "rules": self.rules.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> "OpposedOutcome":
        mapping = obj(data, "outcome")
        raw_minimum = mapping.get("minimum")
        fresh = resolve_opposed(
            active=Side.from_dict(mapping.get("active"), "outcome.active"),
            passive=Side.from_dict(mapping.get("passive"), "outcome.passive"),
            minimum=None if raw_minimum is None else require_int(raw_minimum, "outcome.minimum"),
            rules=ActionRules.from_dict(mapping.get("rules", {})),
        )
        stored = dict(mapping)
        for key in ("active", "passive"):
            _check_stored(
                obj(stored.pop(key), f"outcome.{key}"),
                getattr(fresh, key).to_dict(),
                f"outcome.{key}",
            )
        _check_stored(stored, fresh.to_dict(), "outcome")
        return fresh


def resolve_opposed(
    *,
    active: Side,
    passive: Side,
    minimum: int | None = None,
    rules: ActionRules = PLAIN_OPPOSED_RULES,
) -> OpposedOutcome:
    """Both sides produce a result; the difference decides. ``minimum`` is the least result the
    active side needs to succeed at all, whatever the other side rolls (Fudge 1995 3.5: mind
    control needs at least Fair). Criticals read the active side's natural roll and the relative
    degree in place of a margin."""
    mine, theirs = active.settle(rules, "active."), passive.settle(rules, "passive.")
    degree = mine.result - theirs.result
    outcome = rules.outcome(degree)
    if minimum is not None and mine.result < require_int(minimum, "minimum"):
        outcome = Outcome.FAILURE
    critical = rules.critical(mine.roll, degree)
    return OpposedOutcome(mine, theirs, degree, outcome, critical, minimum, rules)
