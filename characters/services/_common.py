"""What every sheet command shares: the row lock and the stale-edit signal."""

from django.db.models import Max
from django.utils.translation import gettext

from campaigns.selectors import campaign_ruleset
from characters.models import (
    Character,
)
from fudgetable.rules import sheet_tracks
from fudgetable.rules.errors import RulesError


def locked(character: Character) -> Character:
    """The character's row, locked for this transaction, with fresh values."""
    return Character.objects.select_for_update().select_related("campaign").get(pk=character.pk)


def next_position(character: Character) -> int:
    top = character.traits.aggregate(top=Max("position"))["top"]
    return 0 if top is None else top + 1


class StaleEdit(Exception):
    """The profile was saved elsewhere since this form was loaded; nothing was written."""


def track_template(character: Character, key: str) -> sheet_tracks.Template:
    ruleset = campaign_ruleset(character.campaign)
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes, fit=True)
    if key not in templates:
        raise RulesError("track", gettext("this sheet has no %(key)s track") % {"key": key})
    return templates[key]
