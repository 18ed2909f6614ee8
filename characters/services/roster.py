"""The GM's NPC roster: NPCs from templates, edits, numbered mooks, revealing."""

import re
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters import npc_templates
from characters.limits import BEHAVIOUR_LENGTH, MAX_BEHAVIOURS, MAX_MOOKS, NAME_LENGTH
from characters.models import (
    Character,
    Feature,
    Trait,
)
from characters.services._common import StaleEdit, locked, next_position, track_template
from characters.services.sheet_parts import gear_add
from characters.services.sheets import character_create
from characters.signals import fighters_changed, npc_shown_changed
from fudgetable.rules import sheet_tracks
from fudgetable.rules.character import ATTRIBUTE_NAMES
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import TraitScheme
from fudgetable.rules.sheet import (
    SCHEME_KINDS,
    level_bounds,
)


def _require_npc(character: Character) -> None:
    if not character.is_npc:
        raise RulesError(
            "npc", gettext("%(character)s is a PC, not an NPC") % {"character": character.name}
        )


def _template_trait_kind(scheme: TraitScheme, name: str) -> str:
    if scheme is TraitScheme.ROLES_ATTRIBUTES and name in ATTRIBUTE_NAMES:
        return Trait.Kind.ATTRIBUTE
    return SCHEME_KINDS[scheme][0]


def _apply_template(npc: Character, template: npc_templates.NpcTemplate) -> None:
    """Sets the template's traits (adding those the campaign's list lacks), gifts, faults,
    armour and weapons.

    A campaign may narrow its ladder, so a template level is held within the ladder's bounds
    rather than refused: a starter NPC always fits."""
    ruleset = campaign_ruleset(npc.campaign)
    low, high = level_bounds(ruleset)
    on_sheet = {(t.kind, t.name.casefold()): t for t in npc.traits.all()}
    position = next_position(npc)
    for name, level in template.traits:
        kind = _template_trait_kind(ruleset.trait_scheme, name)
        level = min(max(level, low), high)
        trait = on_sheet.get((kind, name.casefold()))
        if trait is not None:
            trait.level = level
            trait.save(update_fields=["level"])
        else:
            Trait.objects.create(
                character=npc, kind=kind, name=name, level=level, position=position
            )
            position += 1
    Feature.objects.bulk_create(
        [
            Feature(
                character=npc,
                kind=kind,
                name=feature.name,
                target=feature.target,
                amount=feature.amount,
                situation=feature.situation,
            )
            for kind, features in (
                (Feature.Kind.GIFT, template.gifts),
                (Feature.Kind.FAULT, template.faults),
            )
            for feature in features
        ]
    )
    for gear in template.gear:  # checked as a sheet's own: a template's gear is a sheet's
        gear_add(
            character=npc,
            kind=gear.kind,
            name=gear.name,
            armor_bonus=gear.armor_bonus,
            damage_factor=gear.damage_factor,
            inj=gear.inj,
            quality=gear.quality,
            ranged=gear.ranged,
        )


@transaction.atomic
def npc_create(
    *,
    campaign: Campaign,
    name: str,
    template_key: str | None = None,
    npc_boxes: int | None = None,
    description: str = "",
) -> Character:
    """A new NPC, blank or from one of the ruleset's starter templates. ``npc_boxes`` None
    means the template's track size (2 for a blank NPC)."""
    template = None
    if template_key:
        template = npc_templates.find_template(campaign.ruleset, template_key)
        if template is None:
            raise RulesError(
                "template_key",
                gettext("there is no NPC template %(template_key)r here")
                % {"template_key": template_key},
            )
    name = name.strip() or (template.name if template else "")
    if not name:
        raise RulesError("name", gettext("an NPC needs a name"))
    if npc_boxes is None:
        most = sheet_tracks.pc_track_size(campaign_ruleset(campaign))
        npc_boxes = min(template.npc_boxes, most) if template else 2
    npc = character_create(
        campaign=campaign,
        owner=None,
        name=name[:NAME_LENGTH],
        kind=Character.Kind.NPC,
        npc_boxes=npc_boxes,
    )
    npc.description = description.strip() or (template.description if template else "")
    if template is not None:
        _apply_template(npc, template)
        npc.behaviours = list(template.behaviours)
    npc.save(update_fields=["description", "behaviours", "updated_at"])
    fighters_changed.send(sender=Character, character=npc)
    return npc


def _checked_behaviours(behaviours: list[str]) -> list[str]:
    lines = [line.strip() for line in behaviours if line.strip()]
    if len(lines) > MAX_BEHAVIOURS:
        raise RulesError(
            "behaviours", gettext("at most %(most)s behaviours") % {"most": MAX_BEHAVIOURS}
        )
    if any(len(line) > BEHAVIOUR_LENGTH for line in lines):
        raise RulesError(
            "behaviours",
            gettext("each behaviour fits in %(most)s characters") % {"most": BEHAVIOUR_LENGTH},
        )
    return lines


@transaction.atomic
def npc_update(
    *,
    npc: Character,
    version: int,
    name: str,
    description: str,
    notes: str,
    behaviours: list[str],
    npc_boxes: int,
) -> Character:
    """Saves the roster's edit form; a form loaded before another save is refused."""
    npc = locked(npc)
    _require_npc(npc)
    if npc.version != version:
        raise StaleEdit
    name = name.strip()
    if not name:
        raise RulesError("name", gettext("an NPC needs a name"))
    lines = _checked_behaviours(behaviours)
    # The rules bound the track (1 up to a PC's boxes); marks that still have a box are kept.
    templates = sheet_tracks.sheet_tracks(campaign_ruleset(npc.campaign), npc_boxes=npc_boxes)
    tracks = {
        key: sheet_tracks.state_of(template, npc.tracks.get(key)).to_dict()
        for key, template in templates.items()
    }
    updated = Character.objects.filter(pk=npc.pk, version=version).update(
        name=name,
        description=description,
        notes=notes,
        behaviours=lines,
        npc_boxes=npc_boxes,
        tracks=tracks,
        version=F("version") + 1,
    )
    if not updated:
        raise StaleEdit
    npc.refresh_from_db()
    return npc


@transaction.atomic
def npc_duplicate(*, npc: Character, count: int) -> list[Character]:
    """``count`` mooks named "<name> 1" … "<name> N", numbered on past any earlier copies,
    each with the original's traits, gifts, faults, gear and behaviours and a fresh track."""
    if not 1 <= count <= MAX_MOOKS:
        raise RulesError(
            "count", gettext("make 1 to %(most)s mooks at a time") % {"most": MAX_MOOKS}
        )
    npc = locked(npc)
    _require_npc(npc)
    template = track_template(npc, sheet_tracks.CONDITION)
    numbered = re.compile(rf"{re.escape(npc.name)} (\d+)")
    names = Character.objects.filter(
        campaign_id=npc.campaign_id, kind=Character.Kind.NPC, name__startswith=f"{npc.name} "
    ).values_list("name", flat=True)
    taken = [int(match[1]) for name in names if (match := numbered.fullmatch(name))]
    first = max(taken, default=0) + 1
    copies = []
    for number in range(first, first + count):
        suffix = f" {number}"
        copies.append(
            Character.objects.create(
                campaign_id=npc.campaign_id,
                owner=None,
                kind=Character.Kind.NPC,
                name=npc.name[: NAME_LENGTH - len(suffix)] + suffix,
                description=npc.description,
                notes=npc.notes,
                stage=npc.stage,
                exception_note=npc.exception_note,
                mass_scale=npc.mass_scale,
                npc_boxes=npc.npc_boxes,
                behaviours=list(npc.behaviours),
                tracks={sheet_tracks.CONDITION: template.empty().to_dict()},
            )
        )
    for rows in (npc.traits.all(), npc.features.all(), npc.gear.all()):
        _copy_rows(list(rows), copies)
    fighters_changed.send(sender=Character, character=npc)  # once for all the copies
    return copies


def _copy_rows(rows: list[Any], copies: list[Character]) -> None:
    """Copies a sheet's rows (traits, gifts and faults, gear) onto each copy."""
    if not rows:
        return
    model = type(rows[0])
    fields = [f.attname for f in model._meta.concrete_fields if f.name not in ("id", "character")]
    model.objects.bulk_create(
        model(character=copy, **{name: getattr(row, name) for name in fields})
        for copy in copies
        for row in rows
    )


@transaction.atomic
def npc_set_revealed(*, npc: Character, revealed: bool) -> Character:
    """Shows the NPC's name and public description to the players, or hides it again."""
    npc = locked(npc)
    _require_npc(npc)
    if npc.revealed == revealed:
        return npc
    npc.revealed = revealed
    npc.save(update_fields=["revealed", "updated_at"])
    # The table shows it to the players at once, or takes it off their screens at once.
    npc_shown_changed.send(sender=Character, npc=npc)
    return npc
