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
from fudgetable.rules.wounds import Box, WoundState, WoundTrack

INJURY, WOUNDS, CONDITION = "injury", "wounds", "condition"
Template = ConditionTrack | WoundTrack
State = TrackState | WoundState

HEALING: dict[type, tuple[tuple[str, str], ...]] = {
    ConditionTrack: (("tend", "Tend minor injuries"), ("rest", "Long rest")),
    WoundTrack: (
        ("after-fight", "After the fight"),
        ("rest-week", "A week of rest"),
        ("medical-care", "Medical care (Fair or better)"),
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
            raise RulesError("npc_boxes", f"an NPC's track has 1 to {most} boxes")
        group = tracks.ConditionGroup("Condition", npc_boxes)
        return {CONDITION: ConditionTrack("Condition", (group,), last_box=ruleset.last_box)}
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


def set_box(template: Template, state: State, box: int, *, marked: bool) -> State:
    """What a tap on a box asks for: that box marked (or clear), as the tapping page saw it.

    Asking for what is already so changes nothing, so two devices tapping from stale pages
    neither double a mark nor undo each other. Where marks go in order (an in-order track, a
    wound level) marking a box fills the free boxes before it too, and clearing a wound box
    clears the level's later marks, so taps on different boxes at once all count.
    """
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        level, index = _wound_box(template, box)
        while (state.levels[level][index] is not Box.CLEAR) != marked:
            if marked:
                state = wounds.take_wound(template, state, level).state
            else:
                state = wounds.heal_box(template, state, level)
        return state
    assert isinstance(state, TrackState)
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


def _wound_box(template: WoundTrack, box: int) -> tuple[int, int]:
    start = 0
    for level, row in enumerate(template.levels):
        if 0 <= box < start + row.boxes:
            return level, box - start
        start += row.boxes
    raise RulesError("box", f"{template.name} has boxes 0 to {start - 1}")


def heal(template: Template, state: State, action: str) -> State:
    if action not in dict(HEALING[type(template)]):
        raise RulesError("action", f"{template.name} has no healing action {action!r}")
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        if action == "after-fight":
            return wounds.after_fight(template, state)
        if action == "rest-week":
            return wounds.rest_week(template, state)
        # The worst level holding a wound: a stun or promoted Scratch above it heals alone.
        worst = max((i for i, row in enumerate(state.levels) if Box.WOUND in row), default=0)
        if not worst:
            raise RulesError("action", "there is no wound above a Scratch to treat")
        return wounds.treat(template, state, worst, wounds.FAIR)
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

    @property
    def marked(self) -> int:
        """Boxes marked or circled."""
        return sum(mark != "clear" for _, _, boxes in self.rows for _, mark in boxes)

    @property
    def size(self) -> int:
        return sum(len(boxes) for _, _, boxes in self.rows)


def view(key: str, template: Template, state: State) -> TrackView:
    rows = []
    number = 0
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        for level, marks in zip(template.levels, state.levels, strict=True):
            boxes = tuple((number + i, mark.value) for i, mark in enumerate(marks))
            rows.append((level.name, f"damage {level.min_damage}+", boxes))
            number += level.boxes
        effect = wounds.effect(template, state)
        consequence = {
            wounds.Effect.NONE: "",
            wounds.Effect.BARELY_MOVES: "Barely moves",
            wounds.Effect.NO_ACTIONS: "Takes no actions",
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
        consequence = {None: "", "dies": "Dies", "incapacitated": "Incapacitated"}[outcome]
        penalty = tracks.penalty(template, state)
    return TrackView(key, template.name, tuple(rows), penalty, consequence, HEALING[type(template)])
