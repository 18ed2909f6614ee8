"""Where the figures of a scene stand: areas, the ranges between them, the phases of a fight's
round, and how far a wounded character may move.

Seed: EZFudge Essentials "Fight Scenes". "The fighting terrain is described in areas. An area
can be a room, or a closet, or an arena. Obstacles in the area, or blocking the view into an
adjacent area, can affect movement in melee action and difficulty in ranged attack."
"Distance in a fight is measured in ranges. There are four:" (the list did not survive;
"melee reach (range T or S)" names two; ``ranged.RANGES`` holds all four). "The Combat
Round": 1) imagine what your character is doing, 2) "Resolve all Melee action", 3) "Resolve
all Ranged action", 4) "Resolve remaining non-combat actions and assign wounds"; "only one die
roll per phase". Step 4: "If you are Very Hurt or worse, you can move no more than 1 area per
round. If you are Out of It or worse, you can take no actions and cannot leave your current
area." "Wounds and Healing": "If you are Very Hurt or worse, you can barely move. If you are Out
of It or worse, you can take no actions and cannot move on your own."

What is read and chosen here:
- EZFudge measures in its four ranges; the other games here name no ranges, so a scene of
  theirs measures in two, near and far (Fate's zones read that way). For a shot, near counts
  as Short and far as Long: the GM may pick another range on the shot itself.
- Two figures in one area are within melee reach, Short (near); two areas whose range nobody
  set are Medium apart (far), the GM's to change.
- A round's phases are the seed's steps 2 to 4, with step 4 split in two as the seed writes
  it: melee, ranged, other actions, wounds. Step 1 happens at the table, not on the screen.
- Moving counts areas: one area left for another is one area, whatever the range between.
- The wound limits are the wound levels' own effects (``wounds.Effect``): barely moving holds
  within a round (at most one area a round); no actions holds always ("cannot move on your
  own"). A GM may move anyone anyway (carried, dragged, thrown): that is the GM's override,
  and this module only says what the rules allow.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from fudgetable.rules import sheet_tracks, wounds
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ranged import RANGES as SHOT_RANGES
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import Effect, WoundState, WoundTrack


@dataclass(frozen=True)
class Range:
    key: str
    name: str
    shot: str  # the shot helper's range (``ranged.RANGES``) it counts as


EZ_RANGES = tuple(Range(key, name, key) for key, (name, _) in SHOT_RANGES.items())
NEAR_FAR = (Range("near", gettext_noop("Near"), "S"), Range("far", gettext_noop("Far"), "L"))
# A scene's ranges by the ruleset's key; every other game measures near and far.
SCALES = {"ezfudge": EZ_RANGES}


def ranges_for(ruleset_key: str) -> tuple[Range, ...]:
    """The ranges a scene of this game measures in, nearest first."""
    return SCALES.get(ruleset_key, NEAR_FAR)


def default_range(scale: tuple[Range, ...], *, same_area: bool) -> Range:
    """One area: within melee reach (Short, or near). Two areas nobody set: Medium (far)."""
    if len(scale) > len(NEAR_FAR):  # EZFudge's four
        return scale[1] if same_area else scale[2]
    return scale[0] if same_area else scale[-1]


def pair_key(first: int, second: int) -> str:
    """How a scene keeps the range between two areas, whichever is named first."""
    low, high = sorted((first, second))
    return f"{low}-{high}"


def range_between(
    scale: tuple[Range, ...], ranges: Mapping[str, str], first: int, second: int
) -> tuple[Range, bool]:
    """The range between two areas, and whether it was set (False: the default)."""
    if first == second:
        return default_range(scale, same_area=True), False
    chosen = ranges.get(pair_key(first, second))
    found = next((r for r in scale if r.key == chosen), None)
    if found is None:
        return default_range(scale, same_area=False), False
    return found, True


def check_range(scale: tuple[Range, ...], key: str) -> Range:
    found = next((r for r in scale if r.key == key), None)
    if found is None:
        raise RulesError(
            "range",
            gettext_noop("choose one of %(choices)s"),
            choices=", ".join(r.key for r in scale),
        )
    return found


class Phase(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"
    OTHER = "other"
    WOUNDS = "wounds"


PHASES = tuple(Phase)


def next_phase(round_number: int, phase: Phase) -> tuple[int, Phase]:
    """The phase after this one: after the wounds, the next round's melee."""
    if round_number < 1:
        raise RulesError("round", gettext_noop("no round is running"))
    at = PHASES.index(phase)
    if at == len(PHASES) - 1:
        return round_number + 1, PHASES[0]
    return round_number, PHASES[at + 1]


class Movement(StrEnum):
    FREE = "free"
    ONE_AREA = "one-area"  # Very Hurt or worse: at most one area a round
    STAYS = "stays"  # Out of It or worse: cannot leave the area on one's own


def movement(effect: Effect) -> Movement:
    """How far a character whose worst wound has ``effect`` may move."""
    if effect >= Effect.NO_ACTIONS:
        return Movement.STAYS
    if effect >= Effect.BARELY_MOVES:
        return Movement.ONE_AREA
    return Movement.FREE


def check_move(limit: Movement, *, in_round: bool, moved: int, name: str = "they") -> None:
    """Refuses a move to another area that the limit forbids: ``moved`` is how many areas the
    figure has moved this round already (``in_round``: a fight round is running)."""
    if limit is Movement.STAYS:
        raise RulesError(
            "move",
            gettext_noop("%(name)s cannot leave the area on their own (Out of It or worse)"),
            name=name,
        )
    if limit is Movement.ONE_AREA and in_round and moved >= 1:
        raise RulesError(
            "move",
            gettext_noop(
                "%(name)s moves at most 1 area a round (Very Hurt or worse), and has moved"
            ),
            name=name,
        )


def sheet_movement(
    ruleset: Ruleset, *, tracks_state: Mapping[str, object], npc_boxes: int | None = None
) -> Movement:
    """How far a character may move, by the worst wound on its sheet's wound track (a sheet
    without one moves freely: the other games set no such limit)."""
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=npc_boxes, fit=True)
    for key, template in templates.items():
        if isinstance(template, WoundTrack):
            state = sheet_tracks.state_of(template, tracks_state.get(key))
            assert isinstance(state, WoundState)
            return movement(wounds.effect(template, state))
    return Movement.FREE
