"""A character copied into a campaign of other rules: what carries over, what changes, what is
dropped.

The sheet is plain data in the character file's shape (``characters.exchange``); the answer is
the sheet as the target campaign's rules take it, and one ``Note`` for each thing that did not
carry over as it was, so a player sees them before the copy is made. The notes are codes with
their names and levels, not sentences: the app words them in the reader's language.

What the seeds let us say:
- Levels go by the rung's name, which every ladder of the family shares ("Good" is Good on
  Fate's ladder too, though its number is one higher). A rung the new ladder lacks (Fate's
  Average, Fudge Lite's Superhuman tiers) is rounded down to the nearest rung both name, and
  anything is kept within the new ladder's bounds. Peupfudge's levels are numbers bought with
  XP, not rungs: between it and a ladder no trait carries over.
- Traits take the kind the new scheme has: EZFudge's attributes and roles become traits or
  skills, and traits become roles (one named as an attribute becomes that attribute). EZFudge's
  four attributes are always on its sheet: any missing starts at Fair.
- XP carries over only where the advancement table prices it the same; Fudge points, unless the
  new rules have none; tracks, only where they are the same tracks (else they start clear); mass
  scale is EZFudge's alone; traded slots only on the same ladder's slots.
- Gifts and faults, gear, inventory, statuses, the description and the notes carry over as
  they are.
"""

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from fudgetable.rules import sheet_tracks
from fudgetable.rules.character import ATTRIBUTE_NAMES
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import BuildMethod, Ruleset, TraitScheme
from fudgetable.rules.sheet import (
    ATTRIBUTE,
    FAIR,
    ROLE,
    SCHEME_KINDS,
    level_bounds,
    starting_traits,
    traded_distribution,
)
from fudgetable.rules.tracks import TrackState
from fudgetable.rules.wounds import WoundState

Json = dict[str, Any]

# What a note says happened.
LEVEL_CHANGED = "level-changed"  # name, before, after: a rung the new ladder lacks
KIND_CHANGED = "kind-changed"  # name, before, after: a role becomes a trait, ...
TRAIT_DROPPED = "trait-dropped"  # name: Peupfudge's numbers and a ladder's rungs don't meet
TRAIT_TWICE = "trait-twice"  # name: two traits become one name's twice (the second goes)
TRAIT_ADDED = "trait-added"  # name, after: EZFudge's attributes, or the new list's traits
XP_DROPPED = "xp-dropped"  # before: the amount
POINTS_DROPPED = "fudge-points-dropped"  # before: the amount
TRACK_CLEARED = "track-cleared"  # name: its marks
MASS_SCALE_DROPPED = "mass-scale-dropped"  # before
TRADES_DROPPED = "trades-dropped"  # before: how many
BOXES_CHANGED = "boxes-changed"  # before, after: an NPC's track size


@dataclass(frozen=True)
class Note:
    code: str
    name: str = ""
    before: str = ""
    after: str = ""


@dataclass(frozen=True)
class Carried:
    sheet: Json
    notes: tuple[Note, ...]


def carry_over(sheet: Mapping[str, Any], source: Ruleset, target: Ruleset) -> Carried:
    """``sheet`` (a character file's sheet under ``source``) as ``target`` takes it."""
    notes: list[Note] = []
    carried: Json = {**sheet, "ruleset": target.key}
    carried["traits"] = _traits(sheet.get("traits", []), source, target, notes)
    xp = sheet.get("xp", 0)
    if xp and source.advancement is not target.advancement:
        notes.append(Note(XP_DROPPED, before=str(xp)))
        carried["xp"] = 0
    points = sheet.get("fudge_points", 0)
    if points and not target.fudge_point_uses and not target.starting_fudge_points:
        notes.append(Note(POINTS_DROPPED, before=str(points)))
        carried["fudge_points"] = 0
    scale = sheet.get("mass_scale", 0)
    if scale and target.trait_scheme is not TraitScheme.ROLES_ATTRIBUTES:
        notes.append(Note(MASS_SCALE_DROPPED, before=f"{scale:+d}"))
        carried["mass_scale"] = 0
    trades = list(sheet.get("trades", []))
    if trades and not _trades_fit(trades, source, target):
        notes.append(Note(TRADES_DROPPED, before=str(len(trades))))
        carried["trades"] = []
    boxes = sheet.get("npc_boxes")
    fitted = None if boxes is None else max(1, min(boxes, sheet_tracks.pc_track_size(target)))
    if fitted != boxes:
        notes.append(Note(BOXES_CHANGED, before=str(boxes), after=str(fitted)))
    carried["npc_boxes"] = fitted
    before = sheet_tracks.sheet_tracks(source, npc_boxes=boxes, fit=True)
    after = sheet_tracks.sheet_tracks(target, npc_boxes=fitted)
    carried["tracks"] = _tracks(sheet.get("tracks", {}), before, after, notes)
    return Carried(carried, tuple(notes))


def _traits(traits: list[Json], source: Ruleset, target: Ruleset, notes: list[Note]) -> list[Json]:
    numeric = target.ladder.numeric
    carried: list[Json] = []
    seen: set[tuple[str, str]] = set()
    for trait in traits:
        name = trait["name"]
        if numeric != source.ladder.numeric:
            notes.append(Note(TRAIT_DROPPED, name=name))
            continue
        kind = _kind(trait["kind"], name, target)
        if (kind, name.strip().lower()) in seen:
            notes.append(Note(TRAIT_TWICE, name=name))
            continue
        seen.add((kind, name.strip().lower()))
        if kind != trait["kind"]:
            notes.append(Note(KIND_CHANGED, name=name, before=trait["kind"], after=kind))
        level = _level(trait["level"], source, target)
        before, after = source.ladder.name(trait["level"]), target.ladder.name(level)
        if before != after:
            notes.append(Note(LEVEL_CHANGED, name=name, before=before, after=after))
        abilities = kind == trait["kind"] and numeric
        carried.append(
            {
                **trait,
                "kind": kind,
                "level": level,
                "specialty_required": trait.get("specialty_required", False) and kind == ROLE,
                "progress": trait.get("progress", 0) if abilities else 0,
                "modifier": trait.get("modifier", 0) if abilities else 0,
            }
        )
    return carried + _added(carried, bool(traits), target, notes)


def _kind(kind: str, name: str, target: Ruleset) -> str:
    kinds = SCHEME_KINDS[target.trait_scheme]
    if kind in kinds:
        return kind
    if target.trait_scheme is TraitScheme.ROLES_ATTRIBUTES:
        return ATTRIBUTE if name in ATTRIBUTE_NAMES else ROLE
    return kinds[0]


def _level(level: int, source: Ruleset, target: Ruleset) -> int:
    """The level named as it was, or the nearest rung below that both ladders name."""
    low, high = level_bounds(target)
    if target.ladder.numeric:
        return max(low, min(level, high))
    for value in range(level, level_bounds(source)[0] - 1, -1):
        try:
            found = target.ladder.value(source.ladder.name(value))
        except RulesError:
            continue
        return max(low, min(found, high))
    return low


def _added(carried: list[Json], had: bool, target: Ruleset, notes: list[Note]) -> list[Json]:
    """What the new sheet must have that the old one lacks: EZFudge's four attributes; and a
    sheet whose traits were all dropped starts from the new campaign's list."""
    if target.trait_scheme is TraitScheme.ROLES_ATTRIBUTES:
        have = {t["name"] for t in carried if t["kind"] == ATTRIBUTE}
        missing = [name for name in ATTRIBUTE_NAMES if name not in have]
        fresh = [_trait(ATTRIBUTE, name, FAIR) for name in missing]
    elif had and not carried:
        fresh = [_trait(t.kind, t.name, t.level) for t in starting_traits(target)]
    else:
        fresh = []
    for trait in fresh:
        level = target.ladder.name(trait["level"])
        notes.append(Note(TRAIT_ADDED, name=trait["name"], after=level))
    return fresh


def _trait(kind: str, name: str, level: int) -> Json:
    return {
        "kind": kind,
        "name": name,
        "level": level,
        "specialty": "",
        "specialty_required": False,
        "progress": 0,
        "modifier": 0,
    }


def _trades_fit(trades: list[int], source: Ruleset, target: Ruleset) -> bool:
    slots = target.build.method is BuildMethod.DISTRIBUTION
    if not slots or source.ladder.key != target.ladder.key:
        return False
    try:
        traded_distribution(target, tuple(trades))
    except RulesError:
        return False
    return True


def _tracks(
    states: Mapping[str, Any],
    before: Mapping[str, sheet_tracks.Template],
    after: Mapping[str, sheet_tracks.Template],
    notes: list[Note],
) -> Json:
    """Each track's state where the new sheet has the same track; else it starts clear."""
    kept: Json = {}
    for key, template in before.items():
        state = sheet_tracks.state_of(template, states.get(key))
        if after.get(key) == template:
            kept[key] = state.to_dict()
        elif _marked(state):
            notes.append(Note(TRACK_CLEARED, name=template.name))
    for key, template in after.items():
        kept.setdefault(key, template.empty().to_dict())
    return kept


def _marked(state: TrackState | WoundState) -> bool:
    if isinstance(state, WoundState):
        return any(box != "clear" for row in state.levels for box in row)
    return any(box is not None for box in state.boxes)
