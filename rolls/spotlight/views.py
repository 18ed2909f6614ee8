"""The table's spotlight and raised hands. Each command answers an htmx request with
its fragment (every other screen gets it through the socket) and a plain POST with a redirect
back to where it came from."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from characters.models import Character
from fudgetable.http import AuthenticatedHttpRequest, over_table_socket, pushed_answer, refusal
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said
from rolls.spotlight import services as spotlight

TEMPLATE = "rolls/spotlight/card.html"


def _section(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    state: spotlight.SpotlightState | None = None,
) -> HttpResponse:
    if state is None:
        state = spotlight.spotlight_state(membership.campaign, gm_view=membership.is_gm)
    context = {"spot": state, "campaign": membership.campaign, "membership": membership}
    return render(request, f"{TEMPLATE}#spotlight", context)


@require_safe
@login_required
def spotlight_section(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The section as this person sees it: the GM's page refreshes its shares with it."""
    membership = membership_or_404(request.user, campaign_id)
    if not request.htmx:
        return redirect("rolls:table", campaign_id)
    return _section(request, membership)


def _pc(membership: Membership, chosen: str) -> Character | None:
    """The PC the GM picked ("" is nobody); an id from elsewhere is refused in words."""
    if not chosen:
        return None
    pcs = Character.objects.filter(campaign_id=membership.campaign_id, kind=Character.Kind.PC)
    character = pcs.filter(pk=int(chosen)).first() if chosen.isdigit() else None
    if character is None:
        raise RulesError("character", gettext("That PC is not in this campaign (any more)."))
    return character


@require_POST
@login_required
def spotlight_move(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    try:
        character = _pc(membership, request.POST.get("character", ""))
        moved = spotlight.spotlight_move(campaign=membership.campaign, character=character)
    except RulesError as error:
        if request.htmx:
            return refusal(said(error.message))
        messages.error(request, said(said(error.message)))
        return redirect("rolls:table", campaign_id)
    if not request.htmx:
        return redirect("rolls:table", campaign_id)
    if over_table_socket(request):
        return pushed_answer()  # the move's push draws the GMs' section on this socket too
    return _section(request, membership, moved)


def _player(request: AuthenticatedHttpRequest, campaign_id: int) -> Membership:
    membership = membership_or_404(request.user, campaign_id)
    if membership.role != Membership.Role.PLAYER:
        raise PermissionDenied(gettext("Players raise a hand; the GM hands out the spotlight."))
    return membership


def _hand(request: AuthenticatedHttpRequest, membership: Membership, up: bool) -> HttpResponse:
    if not request.htmx:
        return redirect("rolls:table", membership.campaign_id)
    context = {"campaign": membership.campaign, "membership": membership, "hand_up": up}
    return render(request, f"{TEMPLATE}#hand", context)


@require_POST
@login_required
def hand_raise(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = _player(request, campaign_id)
    spotlight.hand_raise(campaign=membership.campaign, user=request.user)
    return _hand(request, membership, up=True)


@require_POST
@login_required
def hand_lower(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = _player(request, campaign_id)
    spotlight.hand_lower(campaign=membership.campaign, user=request.user)
    return _hand(request, membership, up=False)
