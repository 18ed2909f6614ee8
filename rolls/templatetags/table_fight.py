"""Lets the GM's fight panel on the table page look up its own choices, so including it is one
line in the page's template and nothing in the page's view."""

from typing import Any

from django import template
from django.db.models import Prefetch

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear
from fudgetable.http import new_key
from fudgetable.rules import fight as rules
from rolls.fight import POSITIONS

register = template.Library()


@register.simple_tag
def fight_panel(membership: Membership) -> dict[str, Any]:
    """Who may fight, with what, and whether this table fights at all (a wound track)."""
    ruleset = campaign_ruleset(membership.campaign)
    ready = membership.is_gm and ruleset.wound_track is not None
    fighters = []
    if ready:
        weapons = Prefetch("gear", queryset=Gear.objects.filter(kind=Gear.Kind.WEAPON))
        characters = Character.objects.filter(campaign_id=membership.campaign_id)
        for character in characters.prefetch_related("traits", weapons):
            traits = [
                (t.pk, f"{t.name}, {ruleset.ladder.describe(t.level + t.modifier)}")
                for t in character.traits.all()
            ]
            gear = [(g.pk, g.name) for g in character.gear.all()]
            fighters.append({"character": character, "traits": traits, "weapons": gear})
    return {
        "ready": ready,
        "fighters": fighters,
        "sides": (rules.ATTACKER, rules.DEFENDER),
        "tactics": list(rules.TACTICS.items()),
        "positions": POSITIONS,
        "untrained": ruleset.ladder.describe(rules.POOR),
        "key": new_key(),
    }
