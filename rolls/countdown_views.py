"""The GM's commands on countdowns. Everyone reads them on the table page and its socket; only
GMs change them. An htmx request gets the GM's list (or card) back, a plain POST goes back to
the table with a message."""

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from fudgetable.http import AuthenticatedHttpRequest
from rolls import countdowns
from rolls.countdown_fragments import countdown_card, countdown_list
from rolls.gm_cards import Command, answer, attempt, first_error, run
from rolls.models import Countdown


class CountdownForm(forms.Form):
    """A new countdown; the limits are the service's own."""

    name = forms.CharField(max_length=countdowns.NAME_LENGTH)
    boxes = forms.IntegerField(min_value=1, max_value=countdowns.MAX_BOXES)
    outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH, required=False, label="When the last is marked"
    )
    visibility = forms.ChoiceField(choices=Countdown.Visibility.choices)
    failure_boxes = forms.IntegerField(
        min_value=1, max_value=countdowns.MAX_BOXES, required=False, label="Failure boxes"
    )
    failure_outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH, required=False, label="When the failures fill"
    )


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


@require_POST
@login_required
def countdown_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = CountdownForm(request.POST)
    problem = first_error(form) if not form.is_valid() else ""
    if not problem:
        problem = attempt(
            lambda: countdowns.countdown_create(campaign=membership.campaign, **form.cleaned_data)
        )
    bound = form if problem else None
    return answer(
        request,
        campaign_id,
        problem,
        lambda: countdown_card(membership, request, form=bound, problem=problem),
    )


@require_POST
@login_required
def countdown_command(
    request: AuthenticatedHttpRequest, campaign_id: int, countdown_id: int, command: str
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    countdown = get_object_or_404(Countdown, pk=countdown_id, campaign_id=campaign_id)
    problem = run(request, COUNTDOWN_COMMANDS[command], countdown)
    return answer(
        request,
        campaign_id,
        problem,
        lambda: countdown_list(membership.campaign, "gm", problem=problem, request=request),
    )
