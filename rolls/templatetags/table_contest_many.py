"""Lets the table page's contest-of-many card build its own choices, so including it is one
line in the page's template and nothing in the page's view."""

from django import template

from campaigns.models import Membership
from rolls.contest_many import views as contest_many_views

register = template.Library()


@register.simple_tag
def contest_many_card(membership: Membership) -> dict[str, object]:
    """The card's sides to pick from, as this member may enter them."""
    return contest_many_views.card_context(membership)
