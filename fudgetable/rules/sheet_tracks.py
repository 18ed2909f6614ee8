"""The tracks on a character sheet: which ones it has, what a tap on a box does, and the
healing actions each offers.

A PC gets the campaign's injury track (Fudge Lite style) and/or wound track (EZFudge); an NPC
gets one condition track of 1 box up to a PC's size (Fudge Lite "NPCs"). States are stored as
``to_dict()`` JSON; a stored state that no longer fits its template (the GM changed the track)
is fitted to it, keeping every mark that still has a box.
"""

from dataclasses import dataclass

from fudgetable.rules import tracks, wounds
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.tracks import ConditionTrack, Recovery, TrackState
from fudgetable.rules.words import Words, gettext_noop
from fudgetable.rules.wounds import Box, WoundState, WoundTrack

INJURY, WOUNDS, CONDITION = "injury", "wounds", "condition"
Template = ConditionTrack | WoundTrack
State = TrackState | WoundState

HEALING: dict[type, tuple[tuple[str, str], ...]] = {
    ConditionTrack: (
        ("tend", gettext_noop("Tend minor injuries")),
        ("rest", gettext_noop("Long rest")),
    ),
    # Medical care is a healer's roll, made at the table (rolls/fight/healing.py), not a tap here.
    WoundTrack: (
        ("after-fight", gettext_noop("After the fight")),
        ("rest-week", gettext_noop("A week of rest")),
    ),
}


def pc_track_size(ruleset: Ruleset) -> int:
    """How many boxes a PC has, the most an important NPC may have."""
    if ruleset.injury_track is not None:
        return ruleset.injury_track.size
    if ruleset.wound_track is not None:
        return sum(level.boxes for level in ruleset.wound_track.levels)
    return tracks.LITE_INJURY_TRACK.size


def sheet_tracks(
    ruleset: Ruleset, *, npc_boxes: int | None = None, fit: bool = False
) -> dict[str, Template]:
    """The tracks a sheet has. An NPC's size out of bounds is refused, or with ``fit`` (an
    existing NPC whose campaign has since shrunk its tracks) brought within them."""
    if npc_boxes is not None:
        most = pc_track_size(ruleset)
        if fit:
            npc_boxes = max(1, min(npc_boxes, most))
        elif not 1 <= npc_boxes <= most:
            raise RulesError(
                "npc_boxes", gettext_noop("an NPC's track has 1 to %(most)s boxes"), most=most
            )
        group = tracks.ConditionGroup(gettext_noop("Condition"), npc_boxes)
        return {
            CONDITION: ConditionTrack(
                gettext_noop("Condition"), (group,), last_box=ruleset.last_box
            )
        }
    found: dict[str, Template] = {}
    if ruleset.injury_track is not None:
        found[INJURY] = ruleset.injury_track
    if ruleset.wound_track is not None:
        found[WOUNDS] = ruleset.wound_track
    return found


def state_of(template: Template, stored: object) -> State:
    """The stored state fitted to the template (empty when nothing is stored)."""
    if isinstance(template, WoundTrack):
        rows = stored.get("levels") if isinstance(stored, dict) else None
        fitted = []
        for index, level in enumerate(template.levels):
            old = rows[index] if isinstance(rows, list) and index < len(rows) else None
            marks = [b for b in old if isinstance(b, str)] if isinstance(old, list) else []
            kept = [Box(b) for b in marks if b in Box._value2member_map_ and b != Box.CLEAR]
            kept = kept[: level.boxes]
            fitted.append(tuple(kept + [Box.CLEAR] * (level.boxes - len(kept))))
        return WoundState(tuple(fitted))
    boxes = stored.get("boxes") if isinstance(stored, dict) else None
    old = list(boxes) if isinstance(boxes, list) else []
    names = [b if isinstance(b, str) else None for b in old[: template.size]]
    return TrackState(tuple(names + [None] * (template.size - len(names))))


def set_box(
    template: Template, state: State, box: int, *, marked: bool, stun: bool = False
) -> State:
    """What a tap on a box asks for: that box marked (or clear), as the tapping page saw it.

    Asking for what is already so changes nothing, so two devices tapping from stale pages
    neither double a mark nor undo each other. Where marks go in order (an in-order track, a
    wound level) marking a box fills the free boxes before it too, and clearing a wound box
    clears the level's later marks, so taps on different boxes at once all count.

    ``stun``: a wound box is lightly circled as a stun result (EZFudge "Stun Results"); one
    on the Scratch level "has no effect", so it is refused rather than silently dropped.
    """
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        level, index = _wound_box(template, box)
        if stun and marked and level == 0:
            raise RulesError("stun", gettext_noop("a stun that would be a Scratch has no effect"))
        while (state.levels[level][index] is not Box.CLEAR) != marked:
            if marked:
                state = wounds.take_wound(template, state, level, stun=stun).state
            else:
                state = wounds.heal_box(template, state, level)
        return state
    assert isinstance(state, TrackState)
    if stun:
        raise RulesError(
            "stun",
            gettext_noop("%(name)s has no stun results: only a wound track does"),
            name=template.name,
        )
    template.group_index(box)
    if (state.boxes[box] is not None) == marked:
        return state
    if not marked:
        return tracks.unmark(template, state, box)
    if template.marking is not tracks.Marking.IN_ORDER:
        return tracks.mark(template, state, box=box)
    while state.boxes[box] is None:
        state = tracks.mark(template, state)
    return state


def take_condition(
    template: Template, state: State, *, name: str, effect: int, box: int | None = None
) -> TrackState:
    """A condition taken on a condition track (Fudge Lite "Condition Tracks"): named as it is
    taken on a blank track, marking a box per rung of the effect from Mediocre ("Marking Off
    Multiple Boxes"), in order or, where boxes are chosen, in the one ``box`` named."""
    if not isinstance(template, ConditionTrack):
        raise RulesError(
            "track", gettext_noop("%(name)s takes wounds, not named conditions"), name=template.name
        )
    assert isinstance(state, TrackState)
    name = " ".join(name.split())
    count = tracks.boxes_for_effect(effect)
    if box is not None:
        if count != 1:
            raise RulesError(
                "effect", gettext_noop("a chosen box takes one condition: a Mediocre effect")
            )
        return tracks.mark(template, state, box=box, name=name)
    if None not in state.boxes:
        raise RulesError(
            "box", gettext_noop("every %(name)s box is already marked"), name=template.name
        )
    return tracks.mark(template, state, count=count, name=name)


def stun(
    template: Template, state: State, level: int, *, name: str, npc_boxes: int
) -> tuple[State, str, int, bool]:
    """A stun result of wound ``level`` ("Attacking to Stun"): what would be a Scratch has no
    effect; otherwise a wound track circles the level's box (promoted like any wound), and an
    NPC's condition track, which has no circles, marks ``npc_boxes`` boxes named as a stun.

    Returns the new state, the level (or condition) taken ("" if none), the boxes taken and
    whether the track ran out of room, the fields of a fight's ``Marked``."""
    if level == 0:
        return state, "", 0, False
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        taken = wounds.take_wound(template, state, level, stun=True)
        circled = "" if taken.level is None else template.levels[taken.level].name
        return taken.state, circled, int(taken.level is not None), taken.overflow
    assert isinstance(state, TrackState)
    free = state.boxes.count(None)
    named = f"{name} (stun)"
    after = tracks.mark(template, state, count=npc_boxes, name=named) if free else state
    return after, named if free else "", min(npc_boxes, free), npc_boxes > free


def _wound_box(template: WoundTrack, box: int) -> tuple[int, int]:
    start = 0
    for level, row in enumerate(template.levels):
        if 0 <= box < start + row.boxes:
            return level, box - start
        start += row.boxes
    raise RulesError(
        "box",
        gettext_noop("%(name)s has boxes 0 to %(value)s"),
        name=template.name,
        value=start - 1,
    )


def heal(template: Template, state: State, action: str) -> State:
    if action not in dict(HEALING[type(template)]):
        raise RulesError(
            "action",
            gettext_noop("%(name)s has no healing action %(action)r"),
            name=template.name,
            action=action,
        )
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        if action == "after-fight":
            return wounds.after_fight(template, state)
        return wounds.rest_week(template, state)
    assert isinstance(state, TrackState)
    recovery = Recovery.TENDING if action == "tend" else Recovery.LONG_REST
    return tracks.recover(template, state, recovery)


@dataclass(frozen=True)
class TrackView:
    """What a sheet draws: rows of named boxes, the penalty in force and any consequence."""

    key: str
    name: str
    rows: tuple[tuple[str, str, tuple[tuple[int, str], ...]], ...]  # (name, note, boxes)
    penalty: int
    consequence: str
    healing: tuple[tuple[str, str], ...]
    # Each box's condition name, by box number ("" where clear or unnamed): a blank track's
    # conditions are named as they are taken.
    names: tuple[str, ...] = ()
    marking: str = ""  # a condition track's way of marking; "" for a wound track
    blank: bool = False  # a condition must be named as it is taken: a bare tap cannot mark
    stuns: bool = False  # a wound track: a box may be circled as a stun result

    @property
    def marked(self) -> int:
        """Boxes marked or circled."""
        return sum(mark != "clear" for _, _, boxes in self.rows for _, mark in boxes)

    @property
    def size(self) -> int:
        return sum(len(boxes) for _, _, boxes in self.rows)

    @property
    def drawn_rows(self) -> tuple[tuple[str, str, tuple[tuple[int, str, str], ...], str], ...]:
        """The rows with each box's condition name, and the row's names in a line."""
        drawn = []
        for name, note, boxes in self.rows:
            named = tuple((n, mark, self._name(n)) for n, mark in boxes)
            taken = ", ".join(condition for _, _, condition in named if condition)
            drawn.append((name, note, named, taken))
        return tuple(drawn)

    @property
    def free(self) -> tuple[tuple[int, str], ...]:
        """The clear boxes, each as its row's name and place, where a condition may be put."""
        return tuple(
            (number, Words(gettext_noop("%(name)s, box %(place)d"), name=Words(name), place=place))
            for name, _, boxes in self.rows
            for place, (number, mark) in enumerate(boxes, start=1)
            if mark == "clear"
        )

    def _name(self, number: int) -> str:
        return self.names[number] if number < len(self.names) else ""


def view(key: str, template: Template, state: State) -> TrackView:
    rows: list[tuple[str, str, tuple[tuple[int, str], ...]]] = []
    number = 0
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        for level, marks in zip(template.levels, state.levels, strict=True):
            boxes = tuple((number + i, mark.value) for i, mark in enumerate(marks))
            rows.append(
                (
                    level.name,
                    Words(gettext_noop("damage %(least)d+"), least=level.min_damage),
                    boxes,
                )
            )
            number += level.boxes
        effect = wounds.effect(template, state)
        consequence = {
            wounds.Effect.NONE: "",
            wounds.Effect.BARELY_MOVES: gettext_noop("Barely moves"),
            wounds.Effect.NO_ACTIONS: gettext_noop("Takes no actions"),
        }[effect]
        penalty = wounds.penalty(template, state)
    else:
        assert isinstance(state, TrackState)
        for group in template.groups:
            taken = state.boxes[number : number + group.boxes]
            boxes = tuple(
                (number + i, "clear" if name is None else "marked") for i, name in enumerate(taken)
            )
            rows.append((group.name, f"{group.penalty:+d}" if group.penalty else "", boxes))
            number += group.boxes
        outcome = tracks.outcome(template, state)
        consequence = {
            None: "",
            "dies": gettext_noop("Dies"),
            "incapacitated": gettext_noop("Incapacitated"),
        }[outcome]
        penalty = tracks.penalty(template, state)
        return TrackView(
            key,
            template.name,
            tuple(rows),
            penalty,
            consequence,
            HEALING[ConditionTrack],
            names=tuple(name or "" for name in state.boxes),
            marking=template.marking.value,
            blank=template.blank,
        )
    healing = HEALING[WoundTrack]
    return TrackView(key, template.name, tuple(rows), penalty, consequence, healing, stuns=True)


@dataclass(frozen=True)
class Taken:
    """What a change marked on one row of a track (a wound level, a group of boxes): its boxes
    newly marked, how many of them circled as stuns, and the conditions named in them."""

    row: str
    boxes: int
    stuns: int = 0
    names: tuple[str, ...] = ()


def taken(template: Template, before: State, after: State) -> tuple[Taken, ...]:
    """The marks ``after`` has that ``before`` had not, row by row: what a tap or a condition
    took. A heal or a box cleared takes nothing; a wound promoted counts where it landed."""
    found = []
    if isinstance(template, WoundTrack):
        assert isinstance(before, WoundState) and isinstance(after, WoundState)
        for level, old, new in zip(template.levels, before.levels, after.levels, strict=True):
            stuns = max(0, new.count(Box.STUN) - old.count(Box.STUN))
            held = Box.WOUND, Box.SCRATCH
            marks = max(0, sum(b in held for b in new) - sum(b in held for b in old))
            if marks or stuns:
                found.append(Taken(level.name, marks + stuns, stuns))
        return tuple(found)
    assert isinstance(before, TrackState) and isinstance(after, TrackState)
    number = 0
    for group in template.groups:
        boxes = range(number, number + group.boxes)
        new_marks = [after.boxes[i] for i in boxes if before.boxes[i] is None]
        new_marks = [name for name in new_marks if name is not None]
        if new_marks:
            names = tuple(dict.fromkeys(name for name in new_marks if name))
            found.append(Taken(group.name, len(new_marks), names=names))
        number += group.boxes
    return tuple(found)
