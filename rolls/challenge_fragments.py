"""The table's challenge ladder card, rendered once per audience.

Pushed copies are rendered without a request, so their forms carry no CSRF token and post
through htmx (the page's ``hx-headers`` carry it); the page and htmx answers have it.
"""

from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from rolls.challenge_selectors import FRAGILITY_CHOICES, PRESET_CHOICES, challenge_rows
from rolls.models import Challenge

TEMPLATE = "rolls/challenges.html"


def context(campaign: Campaign, audience: Audience) -> dict[str, object]:
    """What the card shows this audience (the table page renders it with its request)."""
    return {
        "campaign": campaign,
        "gm_view": audience == "gm",
        "challenge_rows": challenge_rows(campaign, audience),
        "challenge_visibilities": Challenge.Visibility.choices,
        "presets": PRESET_CHOICES,
        "fragilities": FRAGILITY_CHOICES,
    }


def challenge_list(
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
) -> str:
    values = {**context(campaign, audience), "oob": oob, "problem": problem}
    return render_to_string(f"{TEMPLATE}#list", values, request=request)


def challenge_card(
    membership: Membership, request: HttpRequest, *, form: object = None, problem: str = ""
) -> str:
    """A GM's whole card (the list and the form that makes a new one), for an htmx answer."""
    values = {
        **context(membership.campaign, audience_of(membership)),
        "form": form,
        "form_problem": problem,
    }
    return render_to_string(f"{TEMPLATE}#card", values, request=request)
