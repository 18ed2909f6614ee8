"""The checks the scenes' part of a campaign backup must pass before ``restore`` saves any of it
(``backup`` writes it): every field within the limits the app's own forms keep, every
ref pointing at something in the file, and every picture one ``pictures`` keeps: as its
encoder wrote it, or drawn again as an upload is (a file anyone can write must not slip a
script, a page or a bomb past the upload's checks)."""

import base64
import binascii
from collections.abc import Mapping
from typing import Any

from fudgetable.json_reader import USERNAME, Json, Reader, read_pointer, read_ref, read_time
from fudgetable.rules import areas as area_rules
from fudgetable.rules import ranged
from rolls.scene import pictures
from rolls.scene.backup import AREA_FIELDS
from rolls.scene.cards import MAX_CARDS, TEXT_LENGTH
from rolls.scene.models import BOARD_COLUMNS, BOARD_ROWS, Card
from rolls.scene.services import (
    AREA_NAME_LENGTH,
    DESCRIPTION_LENGTH,
    MAX_AREAS,
    MAX_FIGURES,
    MAX_SCENES,
    NOTES_LENGTH,
    TITLE_LENGTH,
)

MAX_PICTURES = 200
SCENE_KEYS = frozenset(
    {"title", "description", "backdrop", "current", "shown_at", "player_cards", "round"}
    | {"phase", "rolled", "handout", "handout_at", "created_at", "areas", "ranges", "figures"}
    | {"cards", "start_area"}
)
CARD_KEYS = frozenset(
    {"ref", "title", "text", "picture", "area", "shown", "people", "author", "revealed_at"}
    | {"created_at"}
)


def read_pictures(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    found: list[Json] = []
    refs: set[int] = set()
    total = 0
    for at, row in r.rows(data, "pictures", "", MAX_PICTURES):
        r.known(row, at, {"ref", "content_type", "width", "height", "data", "created_at"})
        ref = read_ref(r, row, at, refs, 0)
        raw = _decoded(r, row, at)
        width, height = row.get("width"), row.get("height")
        if raw:
            try:
                kept, size = pictures.from_backup(raw)
            except pictures.PictureRefused as refused:
                r.add(f"{at}.data", refused.message)
                raw = b""
            else:
                if (width, height) != size:
                    r.add(f"{at}.width", "does not match the picture's own size")
                raw, width, height = kept.data, kept.width, kept.height
        total += len(raw)
        r.choice(row, "content_type", at, [pictures.CONTENT_TYPE], pictures.CONTENT_TYPE)
        found.append(
            {
                "ref": ref,
                "data": raw,
                "content_type": pictures.CONTENT_TYPE,
                "width": width,
                "height": height,
                "created_at": read_time(r, row, "created_at", at),
            }
        )
    if total > pictures.MAX_STORED:
        r.add("pictures", f"hold more than a campaign keeps ({pictures.MAX_STORED} bytes)")
    return found


def _decoded(r: Reader, row: Mapping[str, Any], at: str) -> bytes:
    value = row.get("data")
    if not isinstance(value, str) or len(value) > pictures.MAX_STORED * 2:
        r.add(f"{at}.data", "must be the picture's bytes in base64")
        return b""
    try:
        return base64.b64decode(value, validate=True)
    except (binascii.Error, ValueError):
        r.add(f"{at}.data", "must be the picture's bytes in base64")
        return b""


def read_scenes(
    r: Reader, data: Mapping[str, Any], characters: set[int], pictures_in: set[int], scale: str
) -> list[Json]:
    """The scenes, each checked against the characters and pictures of the file; ``scale``:
    the ruleset's key, whose ranges a scene measures in."""
    ranges = [one.key for one in area_rules.ranges_for(scale)]
    scenes = []
    current = 0
    for at, row in r.rows(data, "scenes", "", MAX_SCENES):
        r.known(row, at, SCENE_KEYS)
        scene = _scene(r, row, at, characters, pictures_in, ranges)
        current += scene["current"]
        scenes.append(scene)
    if current > 1:
        r.add("scenes", "at most one scene is the one the table sees (current)")
    return scenes


def _scene(
    r: Reader,
    row: Mapping[str, Any],
    at: str,
    characters: set[int],
    pictures_in: set[int],
    ranges: list[str],
) -> Json:
    areas = _areas(r, row, at)
    area_refs = {area["ref"] for area in areas}
    cards = _cards(r, row, at, area_refs, pictures_in)
    phases = ["", *(phase.value for phase in area_rules.PHASES)]
    return {
        "title": r.text(row, "title", at, TITLE_LENGTH, required=True),
        "description": r.text(row, "description", at, DESCRIPTION_LENGTH),
        "backdrop": read_pointer(r, row, "backdrop", at, pictures_in, "picture"),
        "current": r.flag(row, "current", at),
        "shown_at": read_time(r, row, "shown_at", at, nullable=True),
        "player_cards": r.flag(row, "player_cards", at),
        "round": r.integer(row, "round", at, (0, 10_000)),
        "phase": r.choice(row, "phase", at, phases, "") or "",
        "rolled": _rolled(r, row, at, characters),
        "handout": read_pointer(r, row, "handout", at, {card["ref"] for card in cards}, "card"),
        "handout_at": read_time(r, row, "handout_at", at, nullable=True),
        "start_area": _start_area(r, row, at, areas),
        "created_at": read_time(r, row, "created_at", at),
        "areas": areas,
        "ranges": _ranges(r, row, at, area_refs, ranges),
        "figures": _figures(r, row, at, characters, area_refs),
        "cards": cards,
    }


def _start_area(r: Reader, row: Mapping[str, Any], at: str, areas: list[Json]) -> int | None:
    """Where the PCs stand when the scene is shown: an area of it the players see, or none."""
    hidden = {area["ref"] for area in areas if area["hidden"]}
    ref = read_pointer(r, row, "start_area", at, {area["ref"] for area in areas}, "area")
    if ref in hidden:
        r.add(f"{at}.start_area", "names an area hidden from the players, who see every PC")
        return None
    return ref


def _areas(r: Reader, row: Mapping[str, Any], at: str) -> list[Json]:
    found = []
    refs: set[int] = set()
    for where, area in r.rows(row, "areas", at, MAX_AREAS):
        r.known(area, where, {"ref", *AREA_FIELDS})
        column = r.integer(area, "column", where, (1, BOARD_COLUMNS), default=1) or 1
        line = r.integer(area, "row", where, (1, BOARD_ROWS), default=1) or 1
        found.append(
            {
                "ref": read_ref(r, area, where, refs, 0),
                "name": r.text(area, "name", where, AREA_NAME_LENGTH, required=True),
                "notes": r.text(area, "notes", where, NOTES_LENGTH),
                "light": r.choice(area, "light", where, list(ranged.LIGHT), "good"),
                "cover": r.choice(area, "cover", where, list(ranged.COVER), "none"),
                "hidden": r.flag(area, "hidden", where),
                "column": column,
                "row": line,
                "width": r.integer(
                    area, "width", where, (1, BOARD_COLUMNS - column + 1), default=4
                ),
                "height": r.integer(area, "height", where, (1, BOARD_ROWS - line + 1), default=2),
            }
        )
    return found


def _ranges(
    r: Reader, row: Mapping[str, Any], at: str, areas: set[int], ranges: list[str]
) -> list[Json]:
    found = []
    pairs: set[frozenset[int]] = set()
    for where, pair in r.rows(row, "ranges", at, MAX_AREAS * MAX_AREAS):
        r.known(pair, where, {"areas", "range"})
        named = pair.get("areas")
        if not (isinstance(named, list) and len(named) == 2 and set(named) <= areas):
            r.add(f"{where}.areas", "must name two areas of this scene")
            continue
        if named[0] == named[1]:
            r.add(f"{where}.areas", "must name two different areas")
        r.unique(where, frozenset(named), pairs, "names a pair of areas a second time")
        found.append({"areas": named, "range": r.choice(pair, "range", where, ranges, "")})
    return found


def _figures(
    r: Reader, row: Mapping[str, Any], at: str, characters: set[int], areas: set[int]
) -> list[Json]:
    found = []
    seen: set[int | None] = set()
    for where, figure in r.rows(row, "figures", at, MAX_FIGURES):
        r.known(figure, where, {"character", "area", "moved"})
        character = read_pointer(
            r, figure, "character", where, characters, "character", required=True
        )
        r.unique(where, character, seen, "names a character already in the scene")
        found.append(
            {
                "character": character,
                "area": read_pointer(r, figure, "area", where, areas, "area"),
                "moved": r.integer(figure, "moved", where, (0, 1000)),
            }
        )
    return found


def _rolled(r: Reader, row: Mapping[str, Any], at: str, characters: set[int]) -> dict[str, int]:
    value = row.get("rolled", {})
    if not isinstance(value, dict) or len(value) > MAX_FIGURES:
        r.add(f"{at}.rolled", "must map characters to the rolls they made this phase")
        return {}
    for ref, count in value.items():
        if not (ref.isdigit() and int(ref) in characters):
            r.add(f"{at}.rolled", "names a character this backup does not have")
            return {}
        if isinstance(count, bool) or not isinstance(count, int) or not 0 < count < 1000:
            r.add(f"{at}.rolled.{ref}", "must be a whole number of rolls")
    return value


def _cards(
    r: Reader, row: Mapping[str, Any], at: str, areas: set[int], pictures_in: set[int]
) -> list[Json]:
    found = []
    refs: set[int] = set()
    for where, card in r.rows(row, "cards", at, MAX_CARDS):
        r.known(card, where, CARD_KEYS)
        author = card.get("author")
        if author is not None:
            r.text(card, "author", where, USERNAME)
        found.append(
            {
                "ref": read_ref(r, card, where, refs, 0),
                "title": r.text(card, "title", where, TITLE_LENGTH, required=True),
                "text": r.text(card, "text", where, TEXT_LENGTH),
                "picture": read_pointer(r, card, "picture", where, pictures_in, "picture"),
                "area": read_pointer(r, card, "area", where, areas, "area"),
                "shown": r.choice(card, "shown", where, Card.Shown.values, Card.Shown.GM),
                "people": r.texts(card, "people", where, 200, USERNAME),
                "author": author if isinstance(author, str) else None,
                "revealed_at": read_time(r, card, "revealed_at", where, nullable=True),
                "created_at": read_time(r, card, "created_at", where),
            }
        )
    return found
