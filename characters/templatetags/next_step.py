"""A player at a table without a character is offered the next step wherever they land: make
one, or take one the GM made ready. The campaign's page shows it without knowing sheets exist
(campaigns sits below characters)."""

from typing import Any

from django import template

from campaigns.models import Membership
from characters.models import Character

register = template.Library()


@register.inclusion_tag("characters/next_step.html", takes_context=True)
def next_step(context: template.Context, membership: Membership) -> dict[str, Any]:
    if membership.role != Membership.Role.PLAYER:
        return {"show": False}
    pcs = Character.objects.filter(campaign_id=membership.campaign_id, kind=Character.Kind.PC)
    if pcs.filter(owner_id=membership.user_id).exists():
        return {"show": False}
    return {
        "show": True,
        "campaign": membership.campaign,
        "ready_made": list(pcs.filter(owner__isnull=True).order_by("name")),
        "csrf_token": context.get("csrf_token"),
    }
