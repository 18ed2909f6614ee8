"""Lets the table page's challenge card and roller look up their own rows, so including each
is one line in the page's template and nothing in the page's view."""

from django import template

from campaigns.models import Membership
from fudgetable.live import audience_of
from rolls.challenges import fragments as challenge_fragments
from rolls.challenges import selectors as challenge_selectors
from rolls.models import Challenge

register = template.Library()


@register.simple_tag
def challenge_card(membership: Membership) -> dict[str, object]:
    """The challenge card's rows and choices, as this member's audience sees them."""
    return challenge_fragments.context(membership.campaign, audience_of(membership))


@register.simple_tag
def challenges_to_roll(membership: Membership) -> list[Challenge]:
    return challenge_selectors.challenges_to_roll(membership)
