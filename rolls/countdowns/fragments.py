"""The table's countdown card, rendered once per audience."""

from django.http import HttpRequest
from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from rolls.countdowns.models import Countdown
from rolls.countdowns.selectors import countdown_rows
from rolls.gm_cards import render_card, render_list

TEMPLATE = "rolls/countdowns/cards.html"
# The row's own "who sees it" list, in words short enough for a row on a 360 px phone; the
# form that makes a countdown says them in full.
ROW_VISIBILITIES = [
    (Countdown.Visibility.PUBLIC, gettext_lazy("Everyone sees it")),
    (Countdown.Visibility.HIDDEN_PROGRESS, gettext_lazy("Players see its name")),
    (Countdown.Visibility.GM, gettext_lazy("GM only")),
]


def context(campaign: Campaign, audience: Audience) -> dict[str, object]:
    """What the card shows this audience (the table page renders it with its request)."""
    return {
        "campaign": campaign,
        "gm_view": audience == "gm",
        "countdown_rows": countdown_rows(campaign, audience),
        "countdown_visibilities": Countdown.Visibility.choices,
        "row_visibilities": [(str(value), words) for value, words in ROW_VISIBILITIES],
    }


def countdown_list(
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
) -> str:
    values = context(campaign, audience)
    return render_list(TEMPLATE, values, oob=oob, problem=problem, request=request)


def countdown_card(
    membership: Membership, request: HttpRequest, *, form: object = None, problem: str = ""
) -> str:
    values = context(membership.campaign, audience_of(membership))
    return render_card(TEMPLATE, values, request, form=form, problem=problem)
