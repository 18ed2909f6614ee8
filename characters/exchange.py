"""A character as JSON: the export (import's checks are in ``exchange_checks``).

A character file (schema ``fudgetable.character/1``) holds one sheet and nothing that points at
rows: no ids, no owner, no campaign, so it can move to any campaign whose rules it fits. The
whole campaign's backup (``rolls.backup.write``) holds each sheet in this shape.
"""

from collections.abc import Iterable
from typing import Any

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.exchange_checks import CHARACTER_SCHEMA, read_character
from characters.models import Character
from characters.selectors import ItemNode, inventory_tree
from fudgetable.rules import sheet_tracks
from fudgetable.rules.errors import RulesError

Json = dict[str, Any]


def character_problems(data: object, campaign: Campaign) -> list[str]:
    """Every problem that keeps ``data`` from being a sheet at this campaign; [] if none."""
    return read_character(data, campaign)[1]


def character_to_json(character: Character, *, private: bool = True) -> Json:
    """The whole sheet; ``private=False`` leaves out the notes only its player and GMs read."""
    return {
        "schema": CHARACTER_SCHEMA,
        "ruleset": character.campaign.ruleset,  # for people reading the file; import ignores it
        "name": character.name,
        "kind": character.kind,
        "description": character.description,
        "notes": character.notes if private else "",
        "stage": character.stage,
        "fudge_points": character.fudge_points,
        "xp": character.xp,
        "mass_scale": character.mass_scale,
        "trades": list(character.trades),
        "tracks": _tracks_as_shown(character),
        "npc_boxes": character.npc_boxes,
        "behaviours": character.behaviours,
        "revealed": character.revealed,
        "traits": [
            {
                "kind": t.kind,
                "name": t.name,
                "level": t.level,
                "specialty": t.specialty,
                "specialty_required": t.specialty_required,
                "progress": t.progress,
                "modifier": t.modifier,
            }
            for t in character.traits.all()
        ],
        "features": [
            {
                "kind": f.kind,
                "name": f.name,
                "target": f.target,
                "amount": f.amount,
                "situation": f.situation,
                "supernormal": f.supernormal,
            }
            for f in character.features.all()
        ],
        "gear": [
            {
                "kind": g.kind,
                "name": g.name,
                "armor_bonus": g.armor_bonus,
                "damage_factor": g.damage_factor,
                "inj": g.inj,
                "quality": g.quality,
                "ranged": g.ranged,
            }
            for g in character.gear.all()
        ],
        "items": _item_json(inventory_tree(character)),
        "details": [
            {"kind": d.kind, "name": d.name, "value": d.value, "modifier": d.modifier}
            for d in character.details.all()
        ],
    }


def _tracks_as_shown(character: Character) -> Json:
    """Each track's state fitted to the campaign's tracks as they are now, as the sheet shows
    it, so an export always fits back into its own campaign."""
    ruleset = campaign_ruleset(character.campaign)
    try:
        templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes)
    except RulesError:  # the GM shrank the tracks below this NPC's; import will say so
        return character.tracks
    return {
        key: sheet_tracks.state_of(template, character.tracks.get(key)).to_dict()
        for key, template in templates.items()
    }


def _item_json(nodes: Iterable[ItemNode]) -> list[Json]:
    return [
        {
            "name": node.item.name,
            "quantity": node.item.quantity,
            "note": node.item.note,
            "contents": _item_json(node.contents),
        }
        for node in nodes
    ]
