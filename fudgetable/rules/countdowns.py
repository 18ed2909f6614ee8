"""Fudge Lite countdowns and skill challenges.

Seed: Fudge Lite 3.1.0 "Countdowns" (front, ticking clock and skill challenge examples, the
skill challenge with a linked failure countdown) and the GM moves "Make a countdown and mark
a box" / "Advance a countdown".

A countdown is a series of boxes split into stages; each stage names what happens once its
last box is marked, and the last stage is the countdown's outcome.
"""

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from fudgetable.rules.data import integer, items, obj, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop


@dataclass(frozen=True)
class Stage:
    boxes: int
    event: str  # what happens when this stage's last box is marked

    def __post_init__(self) -> None:
        if self.boxes < 1:
            raise RulesError("stage.boxes", gettext_noop("a stage needs at least one box"))

    def to_dict(self) -> dict[str, Any]:
        return {"boxes": self.boxes, "event": self.event}

    @classmethod
    def from_dict(cls, data: object) -> "Stage":
        d = obj(data, "stage")
        return cls(integer(d, "boxes", "stage"), text(d, "event", "stage"))


@dataclass(frozen=True)
class Countdown:
    name: str
    stages: tuple[Stage, ...]
    trigger: str = ""  # what marks a box ("players fail to act against the kobolds")
    marked: int = 0

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesError("countdown.name", gettext_noop("a countdown needs a name"))
        if not self.stages:
            raise RulesError(
                "countdown.stages", gettext_noop("a countdown needs at least one stage")
            )
        if not 0 <= self.marked <= self.boxes:
            raise RulesError(
                "countdown.marked", gettext_noop("must be from 0 to %(boxes)s"), boxes=self.boxes
            )

    @classmethod
    def simple(cls, name: str, boxes: int, outcome: str, trigger: str = "") -> "Countdown":
        """A plain N-box countdown with one outcome."""
        return cls(name, (Stage(boxes, outcome),), trigger)

    @classmethod
    def at_boxes(
        cls,
        name: str,
        boxes: int,
        events: Sequence[tuple[int, str]],
        outcome: str,
        trigger: str = "",
        marked: int = 0,
    ) -> "Countdown":
        """A countdown of ``boxes`` with events at chosen boxes, as the GM writes them
        ("2: Stairwell collapses"), and its outcome at the last box. The seed's ticking clock
        draws the same thing as stages of 2, 2 and 1 boxes."""
        at = [box for box, _ in events]
        if any(not 1 <= box < boxes for box in at):
            raise RulesError(
                "countdown.stages",
                gettext_noop(
                    "an event sits at a box from 1 to %(before)s: the last box, %(boxes)s, is "
                    "the outcome's"
                ),
                before=boxes - 1,
                boxes=boxes,
            )
        if at != sorted(set(at)):
            raise RulesError(
                "countdown.stages", gettext_noop("one event a box, from the first box on")
            )
        ends = [*at, boxes]
        stages = [
            Stage(end - start, event)
            for start, end, event in zip(
                [0, *at], ends, [*(event for _, event in events), outcome], strict=True
            )
        ]
        return cls(name, tuple(stages), trigger, marked)

    @property
    def boxes(self) -> int:
        return sum(s.boxes for s in self.stages)

    @property
    def events_at(self) -> tuple[tuple[int, str], ...]:
        """Each stage's event with the box that sets it off (its stage's last), in order."""
        marks, end = [], 0
        for stage in self.stages:
            end += stage.boxes
            marks.append((end, stage.event))
        return tuple(marks)

    @property
    def remaining(self) -> int:
        return self.boxes - self.marked

    @property
    def complete(self) -> bool:
        return self.marked == self.boxes

    @property
    def outcome(self) -> str:
        return self.stages[-1].event

    @property
    def happened(self) -> tuple[str, ...]:
        """Events of every stage whose boxes are all marked, in order."""
        events, end = [], 0
        for stage in self.stages:
            end += stage.boxes
            if self.marked >= end:
                events.append(stage.event)
        return tuple(events)

    def mark(self, count: int = 1) -> "Countdown":
        """Mark ``count`` boxes; marks past the last box are dropped."""
        if count < 1:
            raise RulesError("count", gettext_noop("mark at least one box"))
        return replace(self, marked=min(self.marked + count, self.boxes))

    def unmark(self, count: int = 1) -> "Countdown":
        if count < 1:
            raise RulesError("count", gettext_noop("unmark at least one box"))
        return replace(self, marked=max(self.marked - count, 0))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "stages": [s.to_dict() for s in self.stages],
            "trigger": self.trigger,
            "marked": self.marked,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Countdown":
        d = obj(data, "countdown")
        stages = items(d, "stages", "countdown", required=True)
        return cls(
            text(d, "name", "countdown"),
            tuple(Stage.from_dict(s) for s in stages),
            text(d, "trigger", "countdown", ""),
            integer(d, "marked", "countdown", 0),
        )


def newly_happened(before: Countdown, after: Countdown) -> tuple[str, ...]:
    """Events a mark set off, for the table to announce."""
    return after.happened[len(before.happened) :]


class Decision(StrEnum):
    SUCCESS = "success"
    FAILURE = "failure"


@dataclass(frozen=True)
class SkillChallenge:
    """A success countdown linked to a failure countdown; whichever fills first decides."""

    success: Countdown
    failure: Countdown

    @property
    def decision(self) -> Decision | None:
        # A stored challenge never has both complete (record refuses once decided), but a
        # hand-edited one might: success is checked first so the players get the benefit.
        if self.success.complete:
            return Decision.SUCCESS
        if self.failure.complete:
            return Decision.FAILURE
        return None

    def record(self, succeeded: bool) -> "SkillChallenge":
        """Count one check: a success marks the success countdown, a failure the other."""
        if self.decision is not None:
            decided = {
                Decision.SUCCESS: gettext_noop("already decided: a success"),
                Decision.FAILURE: gettext_noop("already decided: a failure"),
            }
            raise RulesError("challenge", decided[self.decision])
        if succeeded:
            return replace(self, success=self.success.mark())
        return replace(self, failure=self.failure.mark())

    def undo(self, succeeded: bool) -> "SkillChallenge":
        """Take back one recorded check (a GM correction)."""
        countdown = self.success if succeeded else self.failure
        if not countdown.marked:
            nothing = (
                gettext_noop("no success to undo")
                if succeeded
                else gettext_noop("no failure to undo")
            )
            raise RulesError("challenge", nothing)
        if succeeded:
            return replace(self, success=self.success.unmark())
        return replace(self, failure=self.failure.unmark())

    def to_dict(self) -> dict[str, Any]:
        return {"success": self.success.to_dict(), "failure": self.failure.to_dict()}

    @classmethod
    def from_dict(cls, data: object) -> "SkillChallenge":
        d = obj(data, "challenge")
        return cls(_side(d, "success"), _side(d, "failure"))


def _side(d: Mapping[str, Any], key: str) -> Countdown:
    # Both sides are countdowns, so the error says which side is bad.
    try:
        return Countdown.from_dict(d.get(key))
    except RulesError as error:
        raise RulesError(f"challenge.{key}.{error.setting}", error.message) from None
