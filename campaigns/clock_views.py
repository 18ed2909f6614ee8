"""The GM's commands on countdowns and challenge ladders. Everyone reads them on the table
page and its socket; only GMs change them. An htmx request gets the GM's list (or card) back,
a plain POST goes back to the table with a message."""

from collections.abc import Callable

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_POST

from campaigns import challenges, clock_fragments, countdowns
from campaigns.access import gm_or_403
from campaigns.clock_forms import (
    ChallengeCheckForm,
    ChallengeForm,
    ChallengeVisibilityForm,
    CountdownForm,
    CountdownVisibilityForm,
    RecoverForm,
    RungForm,
    first_error,
)
from campaigns.models import Challenge, Countdown, Membership
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules.errors import RulesError

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


def _countdown_command(
    request: AuthenticatedHttpRequest,
    campaign_id: int,
    countdown_id: int,
    command: Callable[[Countdown], object],
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    countdown = get_object_or_404(Countdown, pk=countdown_id, campaign_id=campaign_id)
    return _answer(request, membership, COUNTDOWNS, _attempt(lambda: command(countdown)))


@require_POST
@login_required
def countdown_mark(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int
) -> HttpResponse:
    return _countdown_command(
        request, campaign_id, countdown_id, lambda c: countdowns.countdown_mark(countdown=c)
    )


@require_POST
@login_required
def countdown_unmark(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int
) -> HttpResponse:
    return _countdown_command(
        request, campaign_id, countdown_id, lambda c: countdowns.countdown_unmark(countdown=c)
    )


@require_POST
@login_required
def countdown_visibility(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int
) -> HttpResponse:
    form = CountdownVisibilityForm(request.POST)
    visibility = form.cleaned_data["visibility"] if form.is_valid() else ""
    return _countdown_command(
        request,
        campaign_id,
        countdown_id,
        lambda c: countdowns.countdown_set_visibility(countdown=c, visibility=visibility),
    )


@require_POST
@login_required
def countdown_delete(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int
) -> HttpResponse:
    return _countdown_command(
        request, campaign_id, countdown_id, lambda c: countdowns.countdown_delete(countdown=c)
    )


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


def _challenge_command(
    request: AuthenticatedHttpRequest,
    campaign_id: int,
    challenge_id: int,
    form_class: type | None,
    command: Callable[[Challenge, dict], object],
) -> HttpResponse:
    """Looks the challenge up in this campaign, validates ``form_class`` and runs ``command``
    with the challenge and the form's data."""
    membership = gm_or_403(request.user, campaign_id)
    challenge = get_object_or_404(Challenge, pk=challenge_id, campaign_id=campaign_id)
    data: dict = {}
    problem = ""
    if form_class is not None:
        form = form_class(request.POST)
        if form.is_valid():
            data = form.cleaned_data
        else:
            problem = first_error(form)
    if not problem:
        problem = _attempt(lambda: command(challenge, data))
    return _answer(request, membership, CHALLENGES, problem)


@require_POST
@login_required
def challenge_check(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int
) -> HttpResponse:
    return _challenge_command(
        request,
        campaign_id,
        challenge_id,
        ChallengeCheckForm,
        lambda c, data: challenges.challenge_check(challenge=c, margin=data["margin"]),
    )


@require_POST
@login_required
def challenge_unmark(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int
) -> HttpResponse:
    return _challenge_command(
        request,
        campaign_id,
        challenge_id,
        RungForm,
        lambda c, data: challenges.challenge_unmark(challenge=c, rung=data["rung"]),
    )


@require_POST
@login_required
def challenge_recover(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int
) -> HttpResponse:
    return _challenge_command(
        request,
        campaign_id,
        challenge_id,
        RecoverForm,
        lambda c, data: challenges.challenge_recover(challenge=c, periods=data["periods"]),
    )


@require_POST
@login_required
def challenge_visibility(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int
) -> HttpResponse:
    return _challenge_command(
        request,
        campaign_id,
        challenge_id,
        ChallengeVisibilityForm,
        lambda c, data: challenges.challenge_set_visibility(
            challenge=c, visibility=data["visibility"]
        ),
    )


@require_POST
@login_required
def challenge_delete(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int
) -> HttpResponse:
    return _challenge_command(
        request,
        campaign_id,
        challenge_id,
        None,
        lambda c, data: challenges.challenge_delete(challenge=c),
    )
