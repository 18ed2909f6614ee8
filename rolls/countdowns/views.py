"""The GM's commands on countdowns. Everyone reads them on the table page and its socket; only
GMs change them. An htmx request gets the GM's list (or card) back, a plain POST goes back to
the table with a message."""

import re

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from fudgetable.http import AuthenticatedHttpRequest
from rolls.countdowns import services as countdowns
from rolls.countdowns.fragments import countdown_card, countdown_list
from rolls.countdowns.models import Countdown
from rolls.gm_cards import Command, answer, attempt, first_error, run

# One event a line: the box that sets it off, then what happens ("2: Stairwell collapses").
STAGE_LINE = re.compile(r"^\s*(\d{1,3})\s*[:.)-]?\s*(.*?)\s*$")


class CountdownForm(forms.Form):
    """A new countdown; the limits are the service's own."""

    name = forms.CharField(max_length=countdowns.NAME_LENGTH)
    boxes = forms.IntegerField(min_value=1, max_value=countdowns.MAX_BOXES)
    outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH,
        required=False,
        label=gettext_lazy("When the last is marked"),
    )
    visibility = forms.ChoiceField(choices=Countdown.Visibility.choices)
    failure_boxes = forms.IntegerField(
        min_value=1,
        max_value=countdowns.MAX_BOXES,
        required=False,
        label=gettext_lazy("Failure boxes"),
    )
    failure_outcome = forms.CharField(
        max_length=countdowns.OUTCOME_LENGTH,
        required=False,
        label=gettext_lazy("When the failures fill"),
    )
    stages = forms.CharField(
        max_length=4000,
        required=False,
        widget=forms.Textarea,
        label=gettext_lazy("Events on the way"),
        help_text=gettext_lazy('One a line, the box first: "2: Stairwell collapses".'),
    )

    def clean_stages(self) -> list[countdowns.StageShape]:
        events = []
        for line in self.cleaned_data["stages"].splitlines():
            if not line.strip():
                continue
            found = STAGE_LINE.match(line)
            if found is None or not found[2]:
                raise forms.ValidationError(
                    gettext(
                        'Write each event as its box and what happens: "2: Stairwell collapses".'
                    )
                )
            events.append((int(found[1]), found[2]))
        return events


class MarkForm(forms.Form):
    count = forms.IntegerField(
        min_value=1,
        max_value=countdowns.MAX_BOXES,
        required=False,
        label=gettext_lazy("Boxes to mark"),
    )


COUNTDOWN_COMMANDS: dict[str, Command] = {
    # A plain "Mark a box" sends no count: one box.
    "mark": (
        MarkForm,
        lambda c, data: countdowns.countdown_mark(countdown=c, count=data["count"] or 1),
    ),
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
        pushed=True,
    )
