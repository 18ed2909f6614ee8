"""What raising a trait costs, whether it is allowed, and what paying leaves.

Seeds: Fudge Lite 3.1.0 "Character Advancement" (core and optional rules, Appendix B keys),
EZFudge Essentials "Experience Points" and "Fudge Points", Peupfudge 1.1 "Abilities".
Levels are plain ladder ints (Terrible -2 ... Superb +4, Fair Superhuman +5 ...).
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from fudgetable.rules.data import flag, integer, obj, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -2, -1, 0, 1, 2, 3, 4
SUPERB_SUPERHUMAN = 8


@dataclass(frozen=True)
class Step:
    """One rung up: its cost and whether it may be bought now (``reason`` says why not)."""

    level: int
    cost: int
    allowed: bool
    reason: str = ""


@dataclass(frozen=True)
class Paid:
    level: int
    xp: int


def _check_xp(xp: int) -> None:
    if xp < 0:
        raise RulesError("xp", gettext_noop("unspent XP cannot be negative"))


def _step(level: int, cost: int, xp: int, refusal: str = "") -> Step:
    if refusal:
        return Step(level, cost, False, refusal)
    if cost > xp:
        return Step(level, cost, False, f"needs {cost} XP, has {xp}")
    return Step(level, cost, True)


def _pay(step: Step, xp: int, setting: str) -> Paid:
    if not step.allowed:
        raise RulesError(setting, step.reason)
    return Paid(step.level + 1, xp - step.cost)


# --- Fudge Lite -------------------------------------------------------------------------

_LITE_COSTS = {TERRIBLE: 1, POOR: 1, MEDIOCRE: 1, FAIR: 2, GOOD: 4, GREAT: 8, SUPERB: 16}


def lite_step_cost(level: int, *, scale: int = 1) -> int:
    """XP to raise a trait from ``level`` one rung.

    ``scale`` is the seed's advice to multiply the table by the XP a player averages per
    session. Past Fair Superhuman the seed is silent; the doubling goes on up to Superb
    Superhuman, the top of the Fudge Lite ladder.
    """
    if scale < 1:
        raise RulesError("scale", gettext_noop("the cost multiplier must be at least 1"))
    if level < TERRIBLE:
        raise RulesError("level", gettext_noop("Fudge Lite traits never go below Terrible"))
    if level >= SUPERB_SUPERHUMAN:
        raise RulesError("level", gettext_noop("Superb Superhuman is the top of the ladder"))
    base = _LITE_COSTS[level] if level <= SUPERB else _LITE_COSTS[SUPERB] << (level - SUPERB)
    return base * scale


def lite_step(level: int, xp: int, *, gm_permission: bool = False, scale: int = 1) -> Step:
    _check_xp(xp)
    cost = lite_step_cost(level, scale=scale)
    refusal = (
        ""
        if level < SUPERB or gm_permission
        else gettext_noop("going past Superb needs GM permission")
    )
    return _step(level, cost, xp, refusal)


def lite_raise(level: int, xp: int, *, gm_permission: bool = False, scale: int = 1) -> Paid:
    return _pay(lite_step(level, xp, gm_permission=gm_permission, scale=scale), xp, "level")


class KeyAward(StrEnum):
    """The three ways the seed lets a GM pay out for keys."""

    EACH_HIT = "each hit"  # 1 XP any time the key is hit
    PER_KEY = "per key"  # 1 XP per key hit at least once in the session
    ANY_KEY = "any key"  # 1 XP at session end for hitting any key


@dataclass(frozen=True)
class Key:
    name: str
    trigger: str

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "trigger": self.trigger}

    @classmethod
    def from_dict(cls, data: object) -> "Key":
        d = obj(data, "key")
        name = d.get("name")
        if not isinstance(name, str) or not name.strip():
            raise RulesError("key.name", gettext_noop("a key needs a name"))
        return cls(name, text(d, "trigger", "key"))


# A few of Appendix B's keys (The Shadow of Yesterday, Dungeon World), reworded.
EXAMPLE_KEYS: tuple[Key, ...] = (
    Key(gettext_noop("Key of Bloodlust"), gettext_noop("you defeat a foe in battle")),
    Key(
        gettext_noop("Key of Conscience"),
        gettext_noop("you help someone in trouble or make a life better through kindness"),
    ),
    Key(
        gettext_noop("Key of the Coward"),
        gettext_noop("you dodge danger or end a fight without violence"),
    ),
    Key(gettext_noop("Key of Glittering Gold"), gettext_noop("your wealth grows")),
    Key(gettext_noop("Key of the Mission"), gettext_noop("you act to complete your mission")),
    Key(gettext_noop("Key of Renown"), gettext_noop("your reputation grows by word or deed")),
    Key(gettext_noop("Key of Vengeance"), gettext_noop("you strike at those who wronged you")),
    Key(
        gettext_noop("Key of the Good Fighter"), gettext_noop("you defend someone weaker than you")
    ),
    Key(
        gettext_noop("Key of the Neutral Thief"),
        gettext_noop("you stay unseen or slip into a place"),
    ),
)


@dataclass(frozen=True)
class LiteXpRules:
    """A campaign's Fudge Lite XP sources (core: 1 XP a session; the rest are options)."""

    per_session: int = 1
    xp_on_a_miss: bool = False
    key_award: KeyAward | None = None
    questions: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.per_session < 0:
            raise RulesError("per_session", gettext_noop("cannot be negative"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "per_session": self.per_session,
            "xp_on_a_miss": self.xp_on_a_miss,
            "key_award": None if self.key_award is None else self.key_award.value,
            "questions": list(self.questions),
        }

    @classmethod
    def from_dict(cls, data: object) -> "LiteXpRules":
        d = obj(data, "xp_rules")
        per_session = integer(d, "per_session", "xp_rules", 1)
        miss = flag(d, "xp_on_a_miss", "xp_rules")
        award = d.get("key_award")
        try:
            key_award = None if award is None else KeyAward(award)
        except ValueError:
            raise RulesError(
                "xp_rules.key_award", gettext_noop("unknown key award %(award)r"), award=award
            ) from None
        questions = d.get("questions", [])
        if not isinstance(questions, list) or not all(isinstance(q, str) for q in questions):
            raise RulesError("xp_rules.questions", gettext_noop("must be a list of text"))
        return cls(per_session, miss, key_award, tuple(questions))


def session_xp(
    rules: LiteXpRules,
    *,
    misses: int = 0,
    key_hits: Mapping[str, int] | None = None,
    yes_answers: int = 0,
) -> int:
    """XP a player earns for one session under ``rules``."""
    hits = dict(key_hits or {})
    if misses < 0 or yes_answers < 0 or any(n < 0 for n in hits.values()):
        raise RulesError("session", gettext_noop("counts cannot be negative"))
    if yes_answers > len(rules.questions):
        raise RulesError("yes_answers", gettext_noop("more yes answers than questions"))
    xp = rules.per_session + yes_answers
    if rules.xp_on_a_miss:
        xp += misses
    if rules.key_award is KeyAward.EACH_HIT:
        xp += sum(hits.values())
    elif rules.key_award is KeyAward.PER_KEY:
        xp += sum(1 for n in hits.values() if n)
    elif rules.key_award is KeyAward.ANY_KEY:
        xp += 1 if any(hits.values()) else 0
    return xp


@dataclass(frozen=True)
class SessionCounts:
    """What the GM counted for one PC as a session ends: see ``end_of_session_xp``, and any
    extra XP the GM gives besides."""

    keys: int = 0
    yes_answers: int = 0
    extra_xp: int = 0


def end_of_session_xp(
    *,
    per_session: int,
    key_award: KeyAward | None,
    keys: int,
    questions: Sequence[str],
    yes_answers: int,
) -> int:
    """XP one PC earns as a session ends, from what the GM counted for it: ``keys`` is the
    times it hit a key under "each hit", how many of its keys it hit under "per key", and
    whether it hit any (more than 0) under "any key"; ``yes_answers`` are its yeses to the
    end-of-session questions, 1 XP each. ``per_session`` is 0 for a PC who took no part."""
    if keys < 0 or yes_answers < 0:
        raise RulesError("session", gettext_noop("counts cannot be negative"))
    if yes_answers > len(questions):
        raise RulesError("yes_answers", gettext_noop("more yes answers than questions"))
    if key_award is None:
        key_xp = 0
    elif key_award is KeyAward.ANY_KEY:
        key_xp = min(keys, 1)
    else:
        key_xp = keys
    return per_session + key_xp + yes_answers


# --- EZFudge ----------------------------------------------------------------------------

ROLE = "role"
ATTRIBUTE = "attribute"
GIFT_OR_FAULT_COST = 8
FUDGE_POINTS_PER_XP_BACK = 2

_EZ_ROLE_COSTS = {POOR: 1, MEDIOCRE: 1, FAIR: 2, GOOD: 4, GREAT: 8, SUPERB: 16}


def ez_step_cost(kind: str, level: int) -> int:
    """XP to raise a role or attribute from its current rank; attributes cost double.

    The table stops at Poor and Superb; Terrible is charged like Poor and ranks above
    Superb keep doubling, as the table does from Fair upward.
    """
    if kind not in (ROLE, ATTRIBUTE):
        raise RulesError(
            "kind", gettext_noop("%(kind)r is neither a role nor an attribute"), kind=kind
        )
    if level <= SUPERB:
        role_cost = _EZ_ROLE_COSTS[max(level, POOR)]
    else:
        role_cost = _EZ_ROLE_COSTS[SUPERB] << (level - SUPERB)
    return role_cost * (2 if kind == ATTRIBUTE else 1)


def ez_step(kind: str, level: int, xp: int) -> Step:
    _check_xp(xp)
    return _step(level, ez_step_cost(kind, level), xp)


def ez_raise(kind: str, level: int, xp: int) -> Paid:
    return _pay(ez_step(kind, level, xp), xp, "level")


def ez_gift_or_fault_step(xp: int, *, gm_agrees: bool) -> Step:
    """Adding a gift or removing a fault: 8 XP, and the GM must agree it matters."""
    _check_xp(xp)
    refusal = "" if gm_agrees else gettext_noop("the GM must agree to the change")
    return _step(0, GIFT_OR_FAULT_COST, xp, refusal)


def ez_gift_or_fault_pay(xp: int, *, gm_agrees: bool) -> int:
    """XP left after adding a gift or removing a fault."""
    return _pay(ez_gift_or_fault_step(xp, gm_agrees=gm_agrees), xp, "xp").xp


@dataclass(frozen=True)
class Points:
    fudge_points: int
    xp: int


def fudge_points_to_xp(
    fudge_points: int, xp: int, *, spend: int, fudge_points_per_xp: int = 3
) -> Points:
    """Turn Fudge Points into XP.

    The seed says FP "can be converted to Experience Points" but its rate sat in a list that
    did not survive, so the rate is a campaign setting. The default, 3 FP per XP, is Fudge's
    customary rate; it also keeps back-conversion (2 FP per XP) the losing trade the seed
    means it to be.
    """
    _check_xp(xp)
    if fudge_points_per_xp < 1:
        raise RulesError("fudge_points_per_xp", gettext_noop("must be at least 1"))
    if spend < 1 or spend % fudge_points_per_xp:
        raise RulesError(
            "spend",
            gettext_noop("spend a positive multiple of %(fudge_points_per_xp)s FP"),
            fudge_points_per_xp=fudge_points_per_xp,
        )
    if spend > fudge_points:
        raise RulesError(
            "spend",
            gettext_noop("only %(fudge_points)s Fudge Points to spend"),
            fudge_points=fudge_points,
        )
    return Points(fudge_points - spend, xp + spend // fudge_points_per_xp)


def xp_to_fudge_points(fudge_points: int, xp: int, *, spend: int) -> Points:
    """EZ back-conversion for a player short of Fudge Points: each XP gives 2 FP."""
    _check_xp(xp)
    if fudge_points < 0:
        raise RulesError("fudge_points", gettext_noop("cannot be negative"))
    if spend < 1:
        raise RulesError("spend", gettext_noop("spend at least 1 XP"))
    if spend > xp:
        raise RulesError("spend", gettext_noop("only %(xp)s XP to spend"), xp=xp)
    return Points(fudge_points + FUDGE_POINTS_PER_XP_BACK * spend, xp - spend)


# --- Peupfudge --------------------------------------------------------------------------


def peup_step_cost(level: int) -> int:
    """XP to raise an ability from unmodified ``level``: 2 to the power of the level."""
    if level < 0:
        raise RulesError("level", gettext_noop("Peupfudge levels start at 0"))
    return 1 << level


def peup_total_cost(level: int) -> int:
    """XP that takes an ability from 0 to ``level``: 1 + 2 + ... + 2^(n-1) = 2^n - 1."""
    if level < 0:
        raise RulesError("level", gettext_noop("Peupfudge levels start at 0"))
    return (1 << level) - 1


def peup_level_for_xp(total_xp: int) -> tuple[int, int]:
    """(level, XP toward the next level) for ``total_xp`` spent on an ability from 0."""
    if total_xp < 0:
        raise RulesError("xp", gettext_noop("cannot be negative"))
    level = (total_xp + 1).bit_length() - 1  # largest n with 2^n - 1 <= total_xp
    return level, total_xp - peup_total_cost(level)
