"""Lets the table page's countdown card look up its own rows, so including it is one line in
the page's template and nothing in the page's view."""

from django import template

from campaigns.models import Membership
from fudgetable.live import audience_of
from rolls.countdowns import fragments as countdown_fragments

register = template.Library()


@register.simple_tag
def countdown_card(membership: Membership) -> dict[str, object]:
    """The countdown card's rows and choices, as this member's audience sees them."""
    return countdown_fragments.context(membership.campaign, audience_of(membership))
