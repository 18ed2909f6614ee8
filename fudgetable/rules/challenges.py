"""Fate challenge ladders.

Seed: Fate (Fudge edition) ch. 3: 3.1.2 Static Challenges, 3.1.3 Customizing Challenges
(difficulty, complexity, fragility, span, recovery; "Word on the Street"), 3.2.2 Dynamic
Challenges ("The Chess Match").

Each rung covers the margins of success from its ``mos`` up to the next rung's. A check marks
a box on the rung its MoS falls on; when that rung is full the mark goes to the next rung up
with room. The challenge is done once the top rung is reached. The ladder (template) and its
marks (state) are stored apart.
"""

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from fudgetable.rules.data import flag, integer, is_int, items, obj, optional_integer, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop


class Fragility(StrEnum):
    NONE = "none"
    EQUIVALENT = "equivalent"  # the default: remove a success at the MoF's rung or higher
    HIGHEST = "highest"  # remove the highest success
    ALL = "all"  # remove every success
    DESTROY = "destroy"  # the project is ruined


@dataclass(frozen=True)
class Rung:
    mos: int  # the least margin of success that lands here
    boxes: int
    note: str = ""  # "Pawn Captured", "Gain Useful Rumor"

    def __post_init__(self) -> None:
        if self.boxes < 1:
            raise RulesError("rung.boxes", gettext_noop("a rung needs at least one box"))

    def to_dict(self) -> dict[str, Any]:
        return {"mos": self.mos, "boxes": self.boxes, "note": self.note}

    @classmethod
    def from_dict(cls, data: object) -> "Rung":
        d = obj(data, "rung")
        return cls(
            integer(d, "mos", "rung"), integer(d, "boxes", "rung"), text(d, "note", "rung", "")
        )


@dataclass(frozen=True)
class Trigger:
    """Fragility that sets something off instead of removing boxes ("MoF 3: attacked").

    It fires on that MoF or worse: a worse failure should never be the safer one.
    """

    mof: int
    event: str

    def to_dict(self) -> dict[str, Any]:
        return {"mof": self.mof, "event": self.event}

    @classmethod
    def from_dict(cls, data: object) -> "Trigger":
        d = obj(data, "trigger")
        return cls(integer(d, "mof", "trigger"), text(d, "event", "trigger"))


@dataclass(frozen=True)
class Pace:
    """``count`` per ``period``: checks allowed (span) or boxes lost (recovery)."""

    count: int
    period: str

    def __post_init__(self) -> None:
        if self.count < 1:
            raise RulesError("pace.count", gettext_noop("must be at least 1"))
        if not self.period.strip():
            raise RulesError("pace.period", gettext_noop("name the period: a day, a week"))

    def counts(self, period: str) -> bool:
        """Whether ``period`` (as the GM names the time that passed) is this pace's period."""
        return same_period(self.period, period)

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "period": self.period}

    @classmethod
    def from_dict(cls, data: object) -> "Pace | None":
        if data is None:
            return None
        d = obj(data, "pace")
        return cls(integer(d, "count", "pace"), text(d, "period", "pace"))


@dataclass(frozen=True)
class ChallengeLadder:
    name: str
    rungs: tuple[Rung, ...]
    difficulty: int | None = None  # static challenges; dynamic ones roll against a foe
    fragility: Fragility = Fragility.EQUIVALENT
    fragile_from: int = 1  # the least MoF that costs successes ("a MoF of 3 or 4")
    triggers: tuple[Trigger, ...] = ()
    span: Pace | None = None
    recovery: Pace | None = None

    def __post_init__(self) -> None:
        if not self.rungs:
            raise RulesError("ladder.rungs", gettext_noop("a challenge needs at least one rung"))
        floors = [r.mos for r in self.rungs]
        if floors[0] != 0 or floors != sorted(set(floors)):
            raise RulesError("ladder.rungs", gettext_noop("rungs start at MoS 0 and climb"))
        if self.fragile_from < 1:
            raise RulesError(
                "ladder.fragile_from", gettext_noop("a margin of failure is at least 1")
            )

    def rung_for(self, margin: int) -> int:
        """Index of the rung a margin (of success or, by its size, of failure) lands on."""
        return max(i for i, r in enumerate(self.rungs) if r.mos <= abs(margin))

    @property
    def periods(self) -> tuple[str, ...]:
        """The periods whose passing changes this challenge: its span's, its recovery's."""
        named: list[str] = []
        for pace in (self.span, self.recovery):
            if pace is not None and not any(same_period(pace.period, p) for p in named):
                named.append(pace.period)
        return tuple(named)

    def empty(self) -> "ChallengeState":
        return ChallengeState((0,) * len(self.rungs))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "rungs": [r.to_dict() for r in self.rungs],
            "difficulty": self.difficulty,
            "fragility": self.fragility.value,
            "fragile_from": self.fragile_from,
            "triggers": [t.to_dict() for t in self.triggers],
            "span": None if self.span is None else self.span.to_dict(),
            "recovery": None if self.recovery is None else self.recovery.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: object) -> "ChallengeLadder":
        d = obj(data, "ladder")
        difficulty = optional_integer(d, "difficulty", "ladder")
        try:
            fragility = Fragility(d.get("fragility", Fragility.EQUIVALENT.value))
        except ValueError:
            raise RulesError("ladder.fragility", gettext_noop("unknown fragility")) from None
        return cls(
            text(d, "name", "ladder"),
            tuple(Rung.from_dict(r) for r in items(d, "rungs", "ladder")),
            difficulty,
            fragility,
            integer(d, "fragile_from", "ladder", 1),
            tuple(Trigger.from_dict(t) for t in items(d, "triggers", "ladder")),
            Pace.from_dict(d.get("span")),
            Pace.from_dict(d.get("recovery")),
        )


@dataclass(frozen=True)
class ChallengeState:
    marks: tuple[int, ...]  # boxes marked on each rung, lowest rung first
    destroyed: bool = False
    checks: int = 0  # checks made in the span's current period
    pursued: bool = False  # whether a check was made in the recovery's current period

    def __post_init__(self) -> None:
        if self.checks < 0:
            raise RulesError("state.checks", gettext_noop("cannot be negative"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "marks": list(self.marks),
            "destroyed": self.destroyed,
            "checks": self.checks,
            "pursued": self.pursued,
        }

    @classmethod
    def from_dict(cls, data: object) -> "ChallengeState":
        d = obj(data, "state")
        marks = d.get("marks")
        if not isinstance(marks, list) or not all(is_int(m) for m in marks):
            raise RulesError("state.marks", gettext_noop("must be a list of box counts"))
        destroyed = flag(d, "destroyed", "state")
        # States stored before span and recovery were kept have neither: nothing counted yet.
        return cls(
            tuple(marks), destroyed, integer(d, "checks", "state", 0), flag(d, "pursued", "state")
        )


@dataclass(frozen=True)
class Checked:
    """What one check did: the new state, the rung it marked or cleared, any events."""

    state: ChallengeState
    rung: int | None
    events: tuple[str, ...] = ()


def _marks(ladder: ChallengeLadder, state: ChallengeState) -> list[int]:
    if len(state.marks) != len(ladder.rungs):
        raise RulesError(
            "state.marks",
            gettext_noop("%(name)s has %(count)s rungs"),
            name=ladder.name,
            count=len(ladder.rungs),
        )
    for rung, marked in zip(ladder.rungs, state.marks, strict=True):
        if not 0 <= marked <= rung.boxes:
            raise RulesError("state.marks", gettext_noop("more boxes marked than a rung has"))
    return list(state.marks)


def is_done(ladder: ChallengeLadder, state: ChallengeState) -> bool:
    return _marks(ladder, state)[-1] > 0


def may_check(ladder: ChallengeLadder, checks_this_period: int) -> bool:
    """Whether the span allows another check in the current period."""
    if checks_this_period < 0:
        raise RulesError("checks_this_period", gettext_noop("cannot be negative"))
    return ladder.span is None or checks_this_period < ladder.span.count


def count_check(ladder: ChallengeLadder, state: ChallengeState) -> ChallengeState:
    """One more check made in this period ("Span: Check 1/day"), refused past the span.

    A check pursues the challenge whatever its margin: the seed's recovery waits on "every
    week the player doesn't pursue this challenge", and a failed try is still a try.
    """
    span = ladder.span
    if span is not None and not may_check(ladder, state.checks):
        words = (
            gettext_noop(
                "%(name)s allows 1 check each %(period)s, and it was made this %(period)s; "
                "the next waits until the GM advances time"
            )
            if span.count == 1
            else gettext_noop(
                "%(name)s allows %(count)s checks each %(period)s, and they were made this "
                "%(period)s; the next waits until the GM advances time"
            )
        )
        raise RulesError("span", words, name=ladder.name, count=span.count, period=span.period)
    return replace(state, checks=state.checks + 1, pursued=True)


def check(ladder: ChallengeLadder, state: ChallengeState, margin: int) -> Checked:
    """Apply one check: a margin of 0 or more is a success, a negative one a failure."""
    marks = _marks(ladder, state)
    if state.destroyed:
        raise RulesError("challenge", gettext_noop("the project was destroyed"))
    if is_done(ladder, state):
        raise RulesError("challenge", gettext_noop("the challenge is already complete"))
    if margin >= 0:
        # Not done means the top rung is empty, so some rung at or above always has room.
        rung = next(
            i
            for i in range(ladder.rung_for(margin), len(marks))
            if marks[i] < ladder.rungs[i].boxes
        )
        marks[rung] += 1
        return Checked(replace(state, marks=tuple(marks)), rung)
    mof = -margin
    events = tuple(t.event for t in ladder.triggers if mof >= t.mof)
    fragility = ladder.fragility if mof >= ladder.fragile_from else Fragility.NONE
    hit: int | None = None
    if fragility is Fragility.EQUIVALENT:
        hit = next((i for i in range(ladder.rung_for(mof), len(marks)) if marks[i]), None)
    elif fragility is Fragility.HIGHEST:
        hit = next((i for i in reversed(range(len(marks))) if marks[i]), None)
    elif fragility is Fragility.ALL:
        marks = [0] * len(marks)
    elif fragility is Fragility.DESTROY:
        return Checked(replace(state, marks=tuple(marks), destroyed=True), None, events)
    if hit is not None:
        marks[hit] -= 1
    return Checked(replace(state, marks=tuple(marks)), hit, events)


def recover(ladder: ChallengeLadder, state: ChallengeState, periods: int) -> ChallengeState:
    """Boxes lost to time: the recovery count per period elapsed, highest rung first.

    The seed says only that "a box will become unchecked"; losing the best-earned box first
    is this module's choice, as it sets the challenge back the way neglect would.
    """
    marks = _marks(ladder, state)
    if periods < 0:
        raise RulesError("periods", gettext_noop("cannot be negative"))
    lose = 0 if ladder.recovery is None else ladder.recovery.count * periods
    for i in reversed(range(len(marks))):
        taken = min(lose, marks[i])
        marks[i] -= taken
        lose -= taken
    return replace(state, marks=tuple(marks))


def same_period(one: str, other: str) -> bool:
    """Periods are the GM's own words ("day", "Day "): compared without case or spacing."""
    return " ".join(one.split()).casefold() == " ".join(other.split()).casefold()


@dataclass(frozen=True)
class Passed:
    """What time passing did to one challenge: its new state and the boxes it lost."""

    state: ChallengeState
    lost: int


def pass_time(
    ladder: ChallengeLadder, state: ChallengeState, period: str, periods: int = 1
) -> Passed:
    """``periods`` of ``period`` pass ("a day", "a week").

    The span's count starts again when its period passes. Recovery follows the seed's Word on
    the Street: "every week the player doesn't pursue this challenge, a box will become
    unchecked". A check since the last recovery period pursued the first of the periods that
    pass; the rest went by unpursued. Two choices the seed leaves open: a recovery period
    passing also starts the span's count again (a week holds its days: span and recovery
    are "tracked together for convenience"), and a challenge already complete or ruined
    loses nothing, as it is over.
    """
    marks = _marks(ladder, state)
    if periods < 1:
        raise RulesError("periods", gettext_noop("at least one period passes"))
    span, recovery = ladder.span, ladder.recovery
    recovers = recovery is not None and recovery.counts(period)
    if span is not None and (span.counts(period) or recovers):
        state = replace(state, checks=0)
    if not recovers:
        return Passed(state, 0)
    over = state.destroyed or is_done(ladder, state)
    unpursued = periods - 1 if state.pursued else periods
    after = state if over else recover(ladder, state, unpursued)
    after = replace(after, pursued=False)
    return Passed(after, sum(marks) - sum(after.marks))


def unmark(ladder: ChallengeLadder, state: ChallengeState, rung: int) -> ChallengeState:
    """Take one box off ``rung`` (a GM correction)."""
    marks = _marks(ladder, state)
    if not 0 <= rung < len(marks) or not marks[rung]:
        raise RulesError("rung", gettext_noop("no marked box on that rung"))
    marks[rung] -= 1
    return replace(state, marks=tuple(marks))


STATIC_LADDER = ChallengeLadder(
    gettext_noop("Static challenge"),
    (
        Rung(0, 2, gettext_noop("Minimal")),
        Rung(1, 2, gettext_noop("Competent")),
        Rung(2, 2, gettext_noop("Solid")),
        Rung(3, 2, gettext_noop("Significant")),
        Rung(4, 1, gettext_noop("Complete")),
    ),
)

WORD_ON_THE_STREET = ChallengeLadder(
    gettext_noop("Word on the Street"),
    (
        Rung(0, 1),
        Rung(1, 1),
        Rung(2, 5, gettext_noop("Gain Spurious Rumor")),
        Rung(3, 5, gettext_noop("Gain Useful Rumor")),
        Rung(4, 1, gettext_noop("Secret (Plot Hook)")),
    ),
    difficulty=2,
    fragility=Fragility.NONE,
    triggers=(Trigger(3, gettext_noop("the character offends someone and is attacked by thugs")),),
    span=Pace(1, "day"),
    recovery=Pace(1, "week"),
)

# The seed draws the MoS 0 rung as two rows of four; they are one rung of eight boxes.
CHESS_MATCH = ChallengeLadder(
    gettext_noop("The Chess Match"),
    (
        Rung(0, 8, gettext_noop("Pawn Captured")),
        Rung(1, 4, gettext_noop("Knights and Bishops (-1 to the next roll)")),
        Rung(2, 2, gettext_noop("Rooks (-1 for rest of match)")),
        Rung(5, 1, gettext_noop("Queen (-2 for rest of match)")),
        Rung(7, 1, gettext_noop("King (Checkmate)")),
    ),
    fragility=Fragility.NONE,
    span=Pace(1, gettext_noop("significant moment of play")),
)
