"""The table's countdown card, rendered once per audience.

Pushed copies are rendered without a request, so their forms carry no CSRF token and post
through htmx (the page's ``hx-headers`` carry it); the page and htmx answers have it.
"""

from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from rolls.countdown_selectors import countdown_rows
from rolls.models import Countdown

TEMPLATE = "rolls/countdowns.html"


def context(campaign: Campaign, audience: Audience) -> dict[str, object]:
    """What the card shows this audience (the table page renders it with its request)."""
    return {
        "campaign": campaign,
        "gm_view": audience == "gm",
        "countdown_rows": countdown_rows(campaign, audience),
        "countdown_visibilities": Countdown.Visibility.choices,
    }


def countdown_list(
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
) -> str:
    values = {**context(campaign, audience), "oob": oob, "problem": problem}
    return render_to_string(f"{TEMPLATE}#list", values, request=request)


def countdown_card(
    membership: Membership, request: HttpRequest, *, form: object = None, problem: str = ""
) -> str:
    """A GM's whole card (the list and the form that makes a new one), for an htmx answer."""
    values = {
        **context(membership.campaign, audience_of(membership)),
        "form": form,
        "form_problem": problem,
    }
    return render_to_string(f"{TEMPLATE}#card", values, request=request)
