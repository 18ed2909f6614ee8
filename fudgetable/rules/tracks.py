"""Fudge Lite injury and condition tracks.

Seed: Fudge Lite 3.1.0 "Injury Track", "PC Death or Incapacitation", "NPCs", and the optional
"Condition Tracks" rules (blank and nonlinear conditions, marking off multiple boxes, condition
penalties, "How bad is it, doc?", the Fudge Point that reduces a condition). The EZFudge wound
track lives in ``wounds.py``.

A track's template (its shape, stored once per ruleset) is kept apart from its state (which
boxes are marked, stored per character). Every function takes both and returns a new state.
"""

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from fudgetable.rules.data import by_name, flag, integer, items, obj, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import Words, gettext_noop

DIES = "dies"
INCAPACITATED = "incapacitated"
MEDIOCRE, SUPERB = 0, 4


class Recovery(IntEnum):
    """What clears a box. A long rest also does everything tending does."""

    TENDING = 1  # a few minutes of care, not during combat
    LONG_REST = 2  # a significant time recovering


class Marking(StrEnum):
    IN_ORDER = "in order"  # the default: minor boxes first, then serious ones
    GM_PICKS = "gm picks"  # "How bad is it, doc?": in order unless the GM names a box
    NONLINEAR = "nonlinear"  # every mark names its box; the GM or the player chooses


def check_box_group(where: str, noun: str, name: str, boxes: int, penalty: int) -> None:
    """What a condition group here and an EZFudge wound level (``wounds.py``) both need: a
    name, at least one box, and a penalty that is never a bonus."""
    if not name.strip():
        raise RulesError(f"{where}.name", gettext_noop("a %(noun)s needs a name"), noun=Words(noun))
    if boxes < 1:
        raise RulesError(
            f"{where}.boxes", gettext_noop("a %(noun)s needs at least one box"), noun=Words(noun)
        )
    if penalty > 0:
        raise RulesError(
            f"{where}.penalty",
            gettext_noop("a %(noun)s penalty cannot be a bonus"),
            noun=Words(noun),
        )


@dataclass(frozen=True)
class ConditionGroup:
    """A run of boxes sharing a name, a penalty and a way to recover (Minor [][])."""

    name: str
    boxes: int
    penalty: int = 0
    recovery: Recovery = Recovery.LONG_REST

    def __post_init__(self) -> None:
        check_box_group("group", gettext_noop("condition"), self.name, self.boxes, self.penalty)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boxes": self.boxes,
            "penalty": self.penalty,
            "recovery": self.recovery.name.lower(),
        }

    @classmethod
    def from_dict(cls, data: object) -> "ConditionGroup":
        d = obj(data, "group")
        recovery = by_name(Recovery, d, "recovery", "group", Recovery.LONG_REST)
        return cls(
            text(d, "name", "group"),
            integer(d, "boxes", "group"),
            integer(d, "penalty", "group", 0),
            recovery,
        )


@dataclass(frozen=True)
class ConditionTrack:
    """The shape of a track: groups from least to most severe, and how it is marked."""

    name: str
    groups: tuple[ConditionGroup, ...]
    marking: Marking = Marking.IN_ORDER
    blank: bool = False  # conditions are named as they are taken ("twisted ankle")
    last_box: str = INCAPACITATED  # session zero: does the last box kill or incapacitate?

    def __post_init__(self) -> None:
        if not self.groups:
            raise RulesError("track.groups", gettext_noop("a track needs at least one condition"))
        if self.last_box not in (DIES, INCAPACITATED):
            raise RulesError(
                "track.last_box",
                gettext_noop("must be %(dies)r or %(incapacitated)r"),
                dies=DIES,
                incapacitated=INCAPACITATED,
            )

    @property
    def size(self) -> int:
        return sum(g.boxes for g in self.groups)

    def group_index(self, box: int) -> int:
        """Which group (0 = least severe) the box belongs to."""
        if not 0 <= box < self.size:
            raise RulesError(
                "box",
                gettext_noop("%(name)s has boxes 0 to %(value)s"),
                name=self.name,
                value=self.size - 1,
            )
        starts = [sum(g.boxes for g in self.groups[:i]) for i in range(len(self.groups))]
        return max(i for i, start in enumerate(starts) if start <= box)

    def group_of(self, box: int) -> ConditionGroup:
        return self.groups[self.group_index(box)]

    def empty(self) -> "TrackState":
        return TrackState((None,) * self.size)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "groups": [g.to_dict() for g in self.groups],
            "marking": self.marking.value,
            "blank": self.blank,
            "last_box": self.last_box,
        }

    @classmethod
    def from_dict(cls, data: object) -> "ConditionTrack":
        d = obj(data, "track")
        groups = items(d, "groups", "track", required=True)
        try:
            marking = Marking(d.get("marking", Marking.IN_ORDER.value))
        except ValueError:
            raise RulesError("track.marking", gettext_noop("unknown way of marking")) from None
        blank = flag(d, "blank", "track")
        return cls(
            text(d, "name", "track"),
            tuple(ConditionGroup.from_dict(g) for g in groups),
            marking,
            blank,
            text(d, "last_box", "track", INCAPACITATED),
        )


@dataclass(frozen=True)
class TrackState:
    """One entry per box: None when clear, else the condition's name ("" if unnamed)."""

    boxes: tuple[str | None, ...]

    @property
    def marked(self) -> int:
        return sum(1 for b in self.boxes if b is not None)

    def to_dict(self) -> dict[str, Any]:
        return {"boxes": list(self.boxes)}

    @classmethod
    def from_dict(cls, data: object) -> "TrackState":
        d = obj(data, "state")
        boxes = d.get("boxes")
        if not isinstance(boxes, list) or not all(b is None or isinstance(b, str) for b in boxes):
            raise RulesError(
                "state.boxes", gettext_noop("must be a list of condition names or nulls")
            )
        return cls(tuple(boxes))


def _fits(track: ConditionTrack, state: TrackState) -> list[str | None]:
    if len(state.boxes) != track.size:
        raise RulesError(
            "state.boxes",
            gettext_noop("%(name)s has %(size)s boxes"),
            name=track.name,
            size=track.size,
        )
    return list(state.boxes)


def boxes_for_effect(effect: int) -> int:
    """Optional rule: Mediocre effect marks 1 box ... Superb marks 5.

    The table is one box per rung from Mediocre; superhuman effects carry the pattern on.
    """
    if effect < MEDIOCRE:
        raise RulesError("effect", gettext_noop("an effect below Mediocre marks no box"))
    return effect - MEDIOCRE + 1


def mark(
    track: ConditionTrack,
    state: TrackState,
    *,
    count: int = 1,
    box: int | None = None,
    name: str = "",
) -> TrackState:
    """Mark ``count`` boxes in order, or the one ``box`` the GM (or nonlinear player) picks.

    Marks past the last free box are dropped: the track is full, the character is out.
    """
    boxes = _fits(track, state)
    if count < 1:
        raise RulesError("count", gettext_noop("mark at least one box"))
    if track.blank and not name.strip():
        raise RulesError("name", gettext_noop("name the condition as it is taken"))
    if box is None:
        if track.marking is Marking.NONLINEAR:
            raise RulesError("box", gettext_noop("choose which condition to mark"))
        free = [i for i, b in enumerate(boxes) if b is None]
        for i in free[:count]:
            boxes[i] = name
        return TrackState(tuple(boxes))
    if count != 1:
        raise RulesError("count", gettext_noop("a chosen box is marked on its own"))
    track.group_of(box)
    if boxes[box] is not None:
        raise RulesError("box", gettext_noop("that box is already marked"))
    if track.marking is Marking.IN_ORDER and any(b is None for b in boxes[:box]):
        raise RulesError("box", gettext_noop("boxes are marked in order on this track"))
    boxes[box] = name
    return TrackState(tuple(boxes))


def unmark(track: ConditionTrack, state: TrackState, box: int) -> TrackState:
    boxes = _fits(track, state)
    track.group_of(box)
    if boxes[box] is None:
        raise RulesError("box", gettext_noop("that box is not marked"))
    boxes[box] = None
    return TrackState(tuple(boxes))


def recover(track: ConditionTrack, state: TrackState, recovery: Recovery) -> TrackState:
    """Clear every box that ``recovery`` heals: tending clears minor boxes, a rest all."""
    boxes = _fits(track, state)
    cleared = [None if track.group_of(i).recovery <= recovery else b for i, b in enumerate(boxes)]
    return TrackState(tuple(cleared))


def ease(track: ConditionTrack, state: TrackState, box: int) -> TrackState:
    """Fudge Point use: move a condition one group less severe, or clear it from the first.

    A condition only moves down into a free box of the group below.
    """
    boxes = _fits(track, state)
    index = track.group_index(box)
    if boxes[box] is None:
        raise RulesError("box", gettext_noop("that box is not marked"))
    if index:
        start = sum(g.boxes for g in track.groups[: index - 1])
        lower = range(start, start + track.groups[index - 1].boxes)
        free = [i for i in lower if boxes[i] is None]
        if not free:
            raise RulesError(
                "box",
                gettext_noop("no free %(name)s box to move into"),
                name=track.groups[index - 1].name,
            )
        boxes[free[0]] = boxes[box]
    boxes[box] = None
    return TrackState(tuple(boxes))


def penalty(track: ConditionTrack, state: TrackState) -> int:
    """The worst penalty among the marked boxes; penalties replace each other, never add."""
    boxes = _fits(track, state)
    return min((track.group_of(i).penalty for i, b in enumerate(boxes) if b is not None), default=0)


def is_taken_out(track: ConditionTrack, state: TrackState) -> bool:
    """True once the last box is gone.

    In order, that means every box is marked, so clearing the minor boxes revives an
    incapacitated character as the seed says. On tracks where boxes are chosen, the final
    condition is the "taken out" one and marking all of it is enough.
    """
    boxes = _fits(track, state)
    if all(b is not None for b in boxes):
        return True
    if track.marking is Marking.IN_ORDER:
        return False
    return all(b is not None for b in boxes[track.size - track.groups[-1].boxes :])


def outcome(track: ConditionTrack, state: TrackState) -> str | None:
    """``"dies"`` or ``"incapacitated"`` once taken out, else None."""
    return track.last_box if is_taken_out(track, state) else None


LITE_INJURY_TRACK = ConditionTrack(
    gettext_noop("Injury"),
    (
        ConditionGroup(gettext_noop("Minor injury"), 2, recovery=Recovery.TENDING),
        ConditionGroup(gettext_noop("Serious injury"), 2),
    ),
)

LITE_PENALTY_TRACK = ConditionTrack(
    gettext_noop("Injury"),
    (
        ConditionGroup(gettext_noop("Scratch"), 3, recovery=Recovery.TENDING),
        ConditionGroup(gettext_noop("Hurt"), 1, penalty=-1),
        ConditionGroup(gettext_noop("Very Hurt"), 1, penalty=-2),
        ConditionGroup(gettext_noop("Incapacitated"), 1),
    ),
)


def npc_track(
    boxes: int,
    *,
    pc_track: ConditionTrack = LITE_INJURY_TRACK,
    name: str = gettext_noop("Condition"),
    last_box: str = INCAPACITATED,
) -> ConditionTrack:
    """An NPC's track: 1 or 2 boxes for minor foes, up to a PC's size for important ones."""
    if not 1 <= boxes <= pc_track.size:
        raise RulesError(
            "boxes", gettext_noop("an NPC track has 1 to %(size)s boxes"), size=pc_track.size
        )
    return ConditionTrack(name, (ConditionGroup(name, boxes),), last_box=last_box)
