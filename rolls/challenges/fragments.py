"""The table's challenge ladder card, rendered once per audience."""

from django.http import HttpRequest

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from rolls.challenges.models import Challenge
from rolls.challenges.selectors import (
    FRAGILITY_CHOICES,
    PRESET_CHOICES,
    challenge_rows,
    periods_in_play,
)
from rolls.gm_cards import render_card, render_list

TEMPLATE = "rolls/challenges/cards.html"


def context(campaign: Campaign, audience: Audience) -> dict[str, object]:
    """What the card shows this audience (the table page renders it with its request)."""
    rows = challenge_rows(campaign, audience)
    return {
        "campaign": campaign,
        "gm_view": audience == "gm",
        "challenge_rows": rows,
        "periods": periods_in_play(rows) if audience == "gm" else [],
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
    values = context(campaign, audience)
    return render_list(TEMPLATE, values, oob=oob, problem=problem, request=request)


def challenge_card(
    membership: Membership, request: HttpRequest, *, form: object = None, problem: str = ""
) -> str:
    values = context(membership.campaign, audience_of(membership))
    return render_card(TEMPLATE, values, request, form=form, problem=problem)
