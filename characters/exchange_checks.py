"""The checks an imported character file must pass, against the importing campaign's rules.

``read_character`` reads a file field by field and notes every problem with where it is
("traits[3].level: ..."), so a player can fix a file in one go; it also keeps the clean values,
with the model's defaults filled in, for ``services.character_import`` to save. Text lengths
follow the model's columns, numbers the ranges the sheet's own forms accept, and levels, trait
kinds and track states the campaign's ruleset.

A key named ``id`` or ``pk`` is ignored wherever it appears, since import never trusts ids; any
other key the schema does not name is reported, so a typo is not silently dropped.
"""

from collections.abc import Mapping
from typing import Any

from django import forms

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters import forms as sheet_forms
from characters.limits import BEHAVIOUR_LENGTH, MAX_BEHAVIOURS, MAX_FUDGE_POINTS, MAX_XP
from characters.models import Character, Detail, Feature, Gear, Item, Trait
from fudgetable.json_reader import (
    POSITIVE,
    SMALL,
    Json,
    Reader,
)
from fudgetable.rules import sheet_tracks
from fudgetable.rules.abilities import Ability
from fudgetable.rules.character import ATTRIBUTE_NAMES, Modifier
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import Ruleset, TraitScheme
from fudgetable.rules.rulesets.model import MAX_TRAITS
from fudgetable.rules.sheet import (
    ABILITY,
    ATTRIBUTE,
    SCHEME_KINDS,
    check_level,
    traded_distribution,
)
from fudgetable.rules.tracks import TrackState
from fudgetable.rules.wounds import WoundState, WoundTrack
from fudgetable.rules_words import said

CHARACTER_SCHEMA = "fudgetable.character/1"

# Limits that keep one file from filling the database; a real sheet stays far below them.
MAX_ROWS = 100  # gifts and faults, gear, details
MAX_ITEMS = 300  # inventory items at every depth together
MAX_ITEM_DEPTH = 6  # a pouch in a bag in a backpack in a chest on a cart on a ship

TOP_KEYS = frozenset(
    {
        "schema",
        "ruleset",
        "name",
        "kind",
        "description",
        "notes",
        "stage",
        "fudge_points",
        "xp",
        "mass_scale",
        "trades",
        "tracks",
        "npc_boxes",
        "behaviours",
        "revealed",
        "traits",
        "features",
        "gear",
        "items",
        "details",
    }
)
TRAIT_KEYS = frozenset(
    {"kind", "name", "level", "specialty", "specialty_required", "progress", "modifier"}
)
FEATURE_KEYS = frozenset({"kind", "name", "target", "amount", "situation", "supernormal"})
GEAR_KEYS = frozenset({"kind", "name", "armor_bonus", "damage_factor", "inj", "quality", "ranged"})
ITEM_KEYS = frozenset({"name", "quantity", "note", "contents"})
DETAIL_KEYS = frozenset({"kind", "name", "value", "modifier"})


def _limit(model: type[Any], field: str) -> int:
    return int(model._meta.get_field(field).max_length)


def _bounds(form: type[forms.Form], field: str) -> tuple[int, int]:
    """The range the sheet's own form accepts, so a file can hold no more than the sheet can."""
    number = form.base_fields[field]
    assert isinstance(number, forms.IntegerField)
    low, high = number.min_value, number.max_value
    assert isinstance(low, int) and isinstance(high, int)
    return low, high


def read_character(data: object, campaign: Campaign) -> tuple[Json | None, list[str]]:
    """The checked sheet (defaults filled in) and its problems; the sheet is None on any."""
    if not isinstance(data, dict):
        return None, ["the file must hold one JSON object: a character"]
    schema = data.get("schema")
    if schema != CHARACTER_SCHEMA:
        if isinstance(schema, str) and schema.startswith("fudgetable.character/"):
            return None, [f"schema: this FudgeTable reads {CHARACTER_SCHEMA}, not {schema}"]
        return None, [f'schema: a character file says "schema": "{CHARACTER_SCHEMA}"']
    ruleset = campaign_ruleset(campaign)
    r = Reader("a character file")
    r.clean(data)
    r.known(data, "", TOP_KEYS)
    r.text(data, "ruleset", "", 40)
    kind = r.choice(data, "kind", "", Character.Kind.values, "")
    is_npc = kind == Character.Kind.NPC
    sheet: Json = {
        "name": r.text(data, "name", "", _limit(Character, "name"), required=True),
        "kind": kind,
        "description": r.text(data, "description", "", _limit(Character, "description")),
        "notes": r.text(data, "notes", "", _limit(Character, "notes")),
        "stage": r.choice(data, "stage", "", Character.Stage.values, Character.Stage.DRAFT),
        "fudge_points": r.integer(data, "fudge_points", "", (0, MAX_FUDGE_POINTS)),
        "xp": r.integer(data, "xp", "", (0, MAX_XP)),
        "mass_scale": r.integer(data, "mass_scale", "", SMALL),
        "npc_boxes": r.integer(data, "npc_boxes", "", POSITIVE, nullable=True),
        "revealed": r.flag(data, "revealed", "") and is_npc,
        "behaviours": _behaviours(r, data, is_npc),
        "traits": _traits(r, data, ruleset),
        "features": _features(r, data),
        "gear": _gear(r, data),
        "items": _items(r, r.rows(data, "items", "", MAX_ITEMS), 1, [0]),
        "details": _details(r, data),
        "trades": _trades(r, data, ruleset),
    }
    npc_boxes = sheet["npc_boxes"]
    if is_npc and data.get("npc_boxes") is None:
        most = sheet_tracks.pc_track_size(ruleset)
        r.add("npc_boxes", f"an NPC needs its track's size, 1 to {most} boxes")
    elif not is_npc and npc_boxes is not None:
        r.add("npc_boxes", "only an NPC has a track size of its own; leave it null")
    # Which tracks a sheet has hangs on its kind and size: without them there is nothing to
    # check the states against.
    if kind is not None and (npc_boxes is not None or not is_npc):
        sheet["tracks"] = _tracks(r, data, ruleset, npc_boxes if is_npc else None)
    return (None if r.problems else sheet), r.problems


def _trades(r: Reader, data: Mapping[str, Any], ruleset: Ruleset) -> list[int]:
    value = data.get("trades", [])
    if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
        r.add("trades", "must be a list of levels")
        return []
    if value:
        try:
            traded_distribution(ruleset, tuple(value))
        except RulesError as error:
            r.add("trades", said(error.message))
    return value


def _behaviours(r: Reader, data: Mapping[str, Any], is_npc: bool) -> list[str]:
    value = r.texts(data, "behaviours", "", MAX_BEHAVIOURS, BEHAVIOUR_LENGTH)
    if value and not is_npc:
        r.add("behaviours", "only NPCs have behaviours")
    return value


def _traits(r: Reader, data: Mapping[str, Any], ruleset: Ruleset) -> list[Json]:
    kinds = SCHEME_KINDS[ruleset.trait_scheme]
    name_limit = _limit(Trait, "name")
    seen: set[tuple[str, str]] = set()
    found: list[Json] = []
    for at, row in r.rows(data, "traits", "", MAX_TRAITS):
        r.known(row, at, TRAIT_KEYS)
        kind = row.get("kind", kinds[0])
        if kind not in kinds:
            r.add(f"{at}.kind", f"a {said(ruleset.label)} sheet holds only: {', '.join(kinds)}")
            kind = None
        name = r.text(row, "name", at, name_limit, required=True)
        level = r.integer(row, "level", at, default=None)
        if level is not None:
            try:
                check_level(ruleset, level)
            except RulesError as error:
                r.add(f"{at}.level", said(error.message))
                level = None
        trait = {
            "kind": kind,
            "name": name,
            "level": level,
            "specialty": r.text(row, "specialty", at, name_limit),
            "specialty_required": r.flag(row, "specialty_required", at),
            "progress": r.integer(row, "progress", at, POSITIVE),
            "modifier": r.integer(row, "modifier", at, SMALL),
        }
        if kind == ABILITY and level is not None and trait["progress"] is not None:
            try:
                Ability(name or "?", level, trait["progress"], trait["modifier"] or 0)
            except RulesError as error:
                r.add(f"{at}.{error.setting.removeprefix('ability.')}", said(error.message))
        elif kind != ABILITY and (trait["progress"] or trait["modifier"]):
            r.add(at, "only Peupfudge abilities have progress and a level modifier")
        if (kind, name.strip().lower()) in seen:
            r.add(f"{at}.name", f"{name} is on this sheet twice")
        seen.add((kind, name.strip().lower()))
        found.append(trait)
    if ruleset.trait_scheme is TraitScheme.ROLES_ATTRIBUTES:
        _check_attributes(r, found)
    return found


def _check_attributes(r: Reader, traits: list[Json]) -> None:
    """EZFudge sheets carry exactly its four attributes, no more and no fewer."""
    names = [t["name"] for t in traits if t["kind"] == ATTRIBUTE]
    four = ", ".join(ATTRIBUTE_NAMES)
    for index, trait in enumerate(traits):
        if trait["kind"] == ATTRIBUTE and trait["name"] not in ATTRIBUTE_NAMES:
            r.add(f"traits[{index}].name", f"the attributes are exactly {four}")
    missing = [name for name in ATTRIBUTE_NAMES if name not in names]
    if missing:
        r.add("traits", f"the attributes {four} are all on the sheet; missing {', '.join(missing)}")


def _features(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    found = []
    for at, row in r.rows(data, "features", "", MAX_ROWS):
        r.known(row, at, FEATURE_KEYS)
        kind = r.choice(row, "kind", at, Feature.Kind.values, "")
        feature: Json = {
            "kind": kind,
            "name": r.text(row, "name", at, _limit(Feature, "name"), required=True),
            "target": r.text(row, "target", at, _limit(Feature, "target")),
            "amount": r.integer(row, "amount", at, _bounds(sheet_forms.FeatureAddForm, "amount")),
            "situation": r.text(row, "situation", at, _limit(Feature, "situation")),
            "supernormal": r.flag(row, "supernormal", at),
        }
        amount = feature["amount"]
        if kind == Feature.Kind.GIFT and amount is not None and amount < 0:
            r.add(f"{at}.amount", "a gift only gives bonuses (0 or more)")
        elif kind == Feature.Kind.FAULT and amount is not None and amount > 0:
            r.add(f"{at}.amount", "a fault only gives penalties (0 or less)")
        elif amount:
            # The sheet reads a non-zero amount as a rules modifier, so it must be one.
            try:
                Modifier(feature["target"], amount, feature["situation"])
            except RulesError as error:
                r.add(f"{at}.{error.setting.removeprefix('modifier.')}", said(error.message))
        found.append(feature)
    return found


def _gear(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    found = []
    for at, row in r.rows(data, "gear", "", MAX_ROWS):
        r.known(row, at, GEAR_KEYS)
        kind = r.choice(row, "kind", at, Gear.Kind.values, "")
        numbers = {
            key: r.integer(row, key, at, _bounds(sheet_forms.GearAddForm, key), nullable=True)
            for key in ("armor_bonus", "damage_factor", "inj")
        }
        if kind == Gear.Kind.ARMOR:
            if row.get("armor_bonus") is None:
                r.add(f"{at}.armor_bonus", "armour needs a bonus of 0 or more")
            if row.get("damage_factor") is not None or row.get("inj") is not None:
                r.add(at, "armour has no damage factor or INJ")
        elif kind == Gear.Kind.WEAPON:
            if (row.get("damage_factor") is None) == (row.get("inj") is None):
                r.add(at, "a weapon has a damage factor or, for a gun, its own INJ: one of them")
            if row.get("armor_bonus") is not None:
                r.add(f"{at}.armor_bonus", "a weapon gives no armour bonus")
        found.append(
            {
                "kind": kind,
                "name": r.text(row, "name", at, _limit(Gear, "name"), required=True),
                **numbers,
                "quality": r.flag(row, "quality", at),
                # An export from before the flag: a gun was always shot, so it still is.
                "ranged": (r.flag(row, "ranged", at) or row.get("inj") is not None)
                and kind == Gear.Kind.WEAPON,
            }
        )
    return found


def _items(r: Reader, rows: list[tuple[str, Json]], depth: int, count: list[int]) -> list[Json]:
    """Items with their contents; ``count`` tallies every item at every depth."""
    found = []
    for at, row in rows:
        count[0] += 1
        if count[0] == MAX_ITEMS + 1:
            r.add(at, f"the inventory holds at most {MAX_ITEMS} items in all")
        r.known(row, at, ITEM_KEYS)
        contents = r.rows(row, "contents", at, MAX_ITEMS)
        if contents and depth >= MAX_ITEM_DEPTH:
            r.add(f"{at}.contents", f"items nest at most {MAX_ITEM_DEPTH} deep")
            contents = []
        found.append(
            {
                "name": r.text(row, "name", at, _limit(Item, "name"), required=True),
                "quantity": r.integer(
                    row, "quantity", at, _bounds(sheet_forms.ItemAddForm, "quantity"), default=1
                ),
                "note": r.text(row, "note", at, _limit(Item, "note")),
                "contents": _items(r, contents, depth + 1, count),
            }
        )
    return found


def _details(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    found = []
    for at, row in r.rows(data, "details", "", MAX_ROWS):
        r.known(row, at, DETAIL_KEYS)
        found.append(
            {
                "kind": r.choice(row, "kind", at, Detail.Kind.values, ""),
                "name": r.text(row, "name", at, _limit(Detail, "name"), required=True),
                "value": r.text(row, "value", at, _limit(Detail, "value")),
                "modifier": r.integer(
                    row, "modifier", at, _bounds(sheet_forms.DetailAddForm, "modifier")
                ),
            }
        )
    return found


def _tracks(r: Reader, data: Mapping[str, Any], ruleset: Ruleset, npc_boxes: int | None) -> Json:
    """Each track state as stored, checked against this campaign's track of that name; a
    track the file leaves out starts empty."""
    raw = data.get("tracks", {})
    if not isinstance(raw, dict):
        r.add("tracks", "must be an object of track states")
        return {}
    try:
        templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=npc_boxes)
    except RulesError as error:
        r.add("npc_boxes", said(error.message))
        return {}
    for key in raw:
        if key not in templates:
            have = f"; they have {', '.join(templates)}" if templates else ""
            r.add(f"tracks.{key}", f"sheets at this table have no {key} track{have}")
    found: Json = {}
    for key, template in templates.items():
        at = f"tracks.{key}"
        if raw.get(key) is None:
            found[key] = template.empty().to_dict()
            continue
        try:
            if isinstance(template, WoundTrack):
                wounds = WoundState.from_dict(raw[key])
                shape = [level.boxes for level in template.levels]
                if [len(row) for row in wounds.levels] != shape:
                    boxes = ", ".join(map(str, shape))
                    r.add(at, f"must have levels of {boxes} boxes to fit {template.name} here")
                found[key] = wounds.to_dict()
            else:
                state = TrackState.from_dict(raw[key])
                if len(state.boxes) != template.size:
                    size = template.size
                    r.add(f"{at}.boxes", f"must be {size} boxes long to fit {template.name} here")
                if any(name and len(name) > 80 for name in state.boxes):
                    r.add(f"{at}.boxes", "a condition's name is at most 80 characters")
                found[key] = state.to_dict()
        except RulesError as error:
            r.add(error.setting.replace("state", at, 1), said(error.message))
    return found
