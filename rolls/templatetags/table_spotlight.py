"""Lets the table page's spotlight section look up its own state, so including it is one line
in the page's template and nothing in the page's view."""

from django import template

from campaigns.models import Membership
from rolls.spotlight import services as spotlight

register = template.Library()


@register.simple_tag
def spotlight_state(membership: Membership) -> spotlight.SpotlightState:
    return spotlight.spotlight_state(membership.campaign, gm_view=membership.is_gm)


@register.simple_tag
def hand_is_up(membership: Membership) -> bool:
    return spotlight.hand_is_up(membership.campaign, membership.user)
