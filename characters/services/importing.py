"""Importing a character from its JSON file: everything checked first, nothing half-saved."""

from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Campaign
from campaigns.selectors import membership_for
from characters.exchange_checks import read_character
from characters.models import (
    Character,
    Detail,
    Feature,
    Gear,
    Item,
    Trait,
)


@transaction.atomic
def character_import(*, campaign: Campaign, owner: User, data: object) -> Character:
    """A character from a file in ``exchange.character_to_json``'s shape, checked against this
    campaign's rules. Any problem raises a ValidationError listing every one, and nothing is
    saved. The new character is a draft, whatever the file says: a PC belongs to the importing
    player, an NPC (GMs only) to the campaign. The file names no rows, so no id reaches here."""
    membership = membership_for(owner, campaign.pk)
    if membership is None or membership.role == membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Only the table's players and GMs keep characters."))
    sheet, problems = read_character(data, campaign)
    if isinstance(data, dict) and data.get("kind") == Character.Kind.NPC and not membership.is_gm:
        problems = [*problems, gettext("kind: only a GM can import an NPC")]
    if problems or sheet is None:
        raise ValidationError(problems)
    is_npc = sheet["kind"] == Character.Kind.NPC
    return character_from_sheet(
        campaign=campaign,
        owner=None if is_npc else owner,
        sheet=sheet,
        stage=Character.Stage.DRAFT,
    )


def character_from_sheet(
    *, campaign: Campaign, owner: User | None, sheet: dict[str, Any], stage: str
) -> Character:
    """Saves a sheet that ``read_character`` has checked: the character and every row of it.
    The caller holds the transaction."""
    character = Character.objects.create(
        campaign=campaign,
        owner=owner,
        kind=sheet["kind"],
        name=sheet["name"],
        description=sheet["description"],
        notes=sheet["notes"],
        stage=stage,
        fudge_points=sheet["fudge_points"],
        xp=sheet["xp"],
        mass_scale=sheet["mass_scale"],
        trades=sheet["trades"],
        tracks=sheet["tracks"],
        npc_boxes=sheet["npc_boxes"],
        behaviours=sheet["behaviours"],
        revealed=sheet["revealed"],
    )
    Trait.objects.bulk_create(
        Trait(character=character, position=index, **trait)
        for index, trait in enumerate(sheet["traits"])
    )
    Feature.objects.bulk_create(Feature(character=character, **f) for f in sheet["features"])
    Gear.objects.bulk_create(Gear(character=character, **g) for g in sheet["gear"])
    Detail.objects.bulk_create(Detail(character=character, **d) for d in sheet["details"])
    _import_items(character, sheet["items"])
    return character


def _import_items(character: Character, roots: list[dict[str, Any]]) -> None:
    """Saves the inventory one depth at a time, so each item's container already has its id;
    siblings keep the file's order."""
    level: list[tuple[Item | None, dict[str, Any]]] = [(None, entry) for entry in roots]
    while level:
        made = Item.objects.bulk_create(
            Item(
                character=character,
                parent=parent,
                name=entry["name"],
                quantity=entry["quantity"],
                note=entry["note"],
            )
            for parent, entry in level
        )
        level = [
            (item, child)
            for item, (_, entry) in zip(made, level, strict=True)
            for child in entry["contents"]
        ]
