"""Lets the table page's countdown and challenge cards look up their own rows, so including
each is one line in the page's template and nothing in the page's view."""

from django import template

from campaigns.models import Membership
from rolls import clock_fragments, clock_selectors
from rolls.models import Challenge

register = template.Library()


@register.simple_tag
def countdown_card(membership: Membership) -> dict[str, object]:
    """The countdown card's rows and choices, as this member's audience sees them."""
    return clock_fragments.page_context(membership, clock_fragments.COUNTDOWNS)


@register.simple_tag
def challenge_card(membership: Membership) -> dict[str, object]:
    return clock_fragments.page_context(membership, clock_fragments.CHALLENGES)


@register.simple_tag
def challenges_to_roll(membership: Membership) -> list[Challenge]:
    return clock_selectors.challenges_to_roll(membership)
