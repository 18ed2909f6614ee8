"""The table's countdowns and challenge ladders, rendered once per audience.

Pushed copies are rendered without a request, so their forms carry no CSRF token and post
through htmx (the page's ``hx-headers`` carry it); the page and htmx answers have it.
"""

from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from rolls import clock_selectors
from rolls.models import Challenge, Countdown

COUNTDOWNS = "rolls/countdowns.html"
CHALLENGES = "rolls/challenges.html"


def _context(campaign: Campaign, audience: Audience, template: str) -> dict[str, object]:
    context: dict[str, object] = {"campaign": campaign, "gm_view": audience == "gm"}
    if template == COUNTDOWNS:
        context["countdown_rows"] = clock_selectors.countdown_rows(campaign, audience)
        context["countdown_visibilities"] = Countdown.Visibility.choices
    else:
        context["challenge_rows"] = clock_selectors.challenge_rows(campaign, audience)
        context["challenge_visibilities"] = Challenge.Visibility.choices
        context["presets"] = clock_selectors.PRESET_CHOICES
        context["fragilities"] = clock_selectors.FRAGILITY_CHOICES
    return context


def _list(
    template: str,
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool,
    problem: str,
    request: HttpRequest | None,
) -> str:
    context = {**_context(campaign, audience, template), "oob": oob, "problem": problem}
    return render_to_string(f"{template}#list", context, request=request)


def countdown_list(
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
) -> str:
    return _list(COUNTDOWNS, campaign, audience, oob=oob, problem=problem, request=request)


def challenge_list(
    campaign: Campaign,
    audience: Audience,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
) -> str:
    return _list(CHALLENGES, campaign, audience, oob=oob, problem=problem, request=request)


def card(
    template: str,
    membership: Membership,
    request: HttpRequest,
    *,
    form: object = None,
    problem: str = "",
) -> str:
    """A GM's whole card (list and the form that makes a new one), for an htmx answer."""
    context = {
        **_context(membership.campaign, audience_of(membership), template),
        "form": form,
        "form_problem": problem,
    }
    return render_to_string(f"{template}#card", context, request=request)


def page_context(membership: Membership, template: str) -> dict[str, object]:
    """What one of the table page's cards needs (the page renders it with its request)."""
    return _context(membership.campaign, audience_of(membership), template)


def table_state(membership: Membership) -> str:
    """Both lists for a socket's (re)connect, as that member's audience sees them."""
    campaign, audience = membership.campaign, audience_of(membership)
    return countdown_list(campaign, audience, oob=True) + challenge_list(
        campaign, audience, oob=True
    )
