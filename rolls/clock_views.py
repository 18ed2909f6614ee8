"""The GM's commands on countdowns and challenge ladders. Everyone reads them on the table
page and its socket; only GMs change them. An htmx request gets the GM's list (or card) back,
a plain POST goes back to the table with a message."""

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from campaigns.models import Membership
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules.errors import RulesError
from rolls import challenges, clock_fragments, countdowns
from rolls.clock_forms import (
    ChallengeCheckForm,
    ChallengeForm,
    ChallengeVisibilityForm,
    CountdownForm,
    RecoverForm,
    RungForm,
    first_error,
)
from rolls.models import Challenge, Countdown

COUNTDOWNS, CHALLENGES = clock_fragments.COUNTDOWNS, clock_fragments.CHALLENGES


def _attempt(action: Callable[[], object]) -> str:
    """Runs a service; its refusal, as a sentence for the GM, or "" when it went through."""
    try:
        action()
    except RulesError as error:
        return error.message[:1].upper() + error.message[1:] + "."
    except ValidationError as error:
        return error.messages[0]
    return ""


def _answer(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    template: str,
    problem: str,
    *,
    form: object = None,
) -> HttpResponse:
    """A plain POST goes back to the table; htmx gets the list, or with ``form`` the card."""
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("rolls:table", membership.campaign_id)
    if form is not None:
        bound = form if problem else None
        html = clock_fragments.card(template, membership, request, form=bound, problem=problem)
    elif template == COUNTDOWNS:
        html = clock_fragments.countdown_list(
            membership.campaign, "gm", problem=problem, request=request
        )
    else:
        html = clock_fragments.challenge_list(
            membership.campaign, "gm", problem=problem, request=request
        )
    return HttpResponse(html)


# --- countdowns ------------------------------------------------------------------------------


@require_POST
@login_required
def countdown_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = CountdownForm(request.POST)
    problem = first_error(form) if not form.is_valid() else ""
    if not problem:
        problem = _attempt(
            lambda: countdowns.countdown_create(campaign=membership.campaign, **form.cleaned_data)
        )
    return _answer(request, membership, COUNTDOWNS, problem, form=form)


# One view serves every command on an existing countdown or challenge; the URL names which.
# Each command: the form its POST is read with (None: the raw POST, checked by the service),
# and the service call given the row and the data.
Command = tuple[type | None, Callable[[Any, Mapping[str, Any]], object]]

COUNTDOWN_COMMANDS: dict[str, Command] = {
    "mark": (None, lambda c, data: countdowns.countdown_mark(countdown=c)),
    "unmark": (None, lambda c, data: countdowns.countdown_unmark(countdown=c)),
    # The service names what a bad visibility is, so the raw value goes to it.
    "visibility": (
        None,
        lambda c, data: countdowns.countdown_set_visibility(
            countdown=c, visibility=data.get("visibility", "")
        ),
    ),
    "delete": (None, lambda c, data: countdowns.countdown_delete(countdown=c)),
}

CHALLENGE_COMMANDS: dict[str, Command] = {
    "check": (
        ChallengeCheckForm,
        lambda c, data: challenges.challenge_check(challenge=c, margin=data["margin"]),
    ),
    "unmark": (
        RungForm,
        lambda c, data: challenges.challenge_unmark(challenge=c, rung=data["rung"]),
    ),
    "recover": (
        RecoverForm,
        lambda c, data: challenges.challenge_recover(challenge=c, periods=data["periods"]),
    ),
    "visibility": (
        ChallengeVisibilityForm,
        lambda c, data: challenges.challenge_set_visibility(
            challenge=c, visibility=data["visibility"]
        ),
    ),
    "delete": (None, lambda c, data: challenges.challenge_delete(challenge=c)),
}


def _run(request: AuthenticatedHttpRequest, command: Command, row: object) -> str:
    """Reads the command's form and runs it on ``row``; the refusal as a sentence, or ""."""
    form_class, action = command
    data: Mapping[str, Any] = request.POST
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            return first_error(form)
        data = form.cleaned_data
    return _attempt(lambda: action(row, data))


@require_POST
@login_required
def countdown_command(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int, command: str
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    countdown = get_object_or_404(Countdown, pk=countdown_id, campaign_id=campaign_id)
    problem = _run(request, COUNTDOWN_COMMANDS[command], countdown)
    return _answer(request, membership, COUNTDOWNS, problem)


# --- challenge ladders -----------------------------------------------------------------------


@require_POST
@login_required
def challenge_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = ChallengeForm(request.POST)
    problem = first_error(form) if not form.is_valid() else ""
    if not problem:
        data = form.cleaned_data
        problem = _attempt(
            lambda: challenges.challenge_create(
                campaign=membership.campaign,
                name=data["name"],
                preset=data["preset"],
                rungs=data["rungs"],
                fragility=data["fragility"] or "equivalent",
                notes=data["notes"],
                visibility=data["visibility"],
            )
        )
    return _answer(request, membership, CHALLENGES, problem, form=form)


@require_POST
@login_required
def challenge_command(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int, command: str
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    challenge = get_object_or_404(Challenge, pk=challenge_id, campaign_id=campaign_id)
    problem = _run(request, CHALLENGE_COMMANDS[command], challenge)
    return _answer(request, membership, CHALLENGES, problem)
