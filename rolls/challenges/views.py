"""The GM's commands on challenge ladders. Everyone reads them on the table page and its socket;
only GMs change them. An htmx request gets the GM's list (or card) back, a plain POST goes back
to the table with a message."""

import re

from django import forms
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from fudgetable.http import AuthenticatedHttpRequest
from rolls.challenges import services as challenges
from rolls.challenges.fragments import challenge_card, challenge_list
from rolls.challenges.models import Challenge
from rolls.challenges.selectors import FRAGILITY_CHOICES, PRESET_CHOICES
from rolls.gm_cards import Command, answer, attempt, first_error, run

RUNG_LINE = re.compile(r"^\s*(\d{1,2})\s+(\d{1,3})\s*(.*)$")


class ChallengeVisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Challenge.Visibility.choices)


class ChallengeForm(forms.Form):
    """A new challenge ladder; the limits are the service's own."""

    preset = forms.ChoiceField(
        choices=[("", gettext_lazy("My own shape")), *PRESET_CHOICES], required=False
    )
    name = forms.CharField(max_length=challenges.NAME_LENGTH, required=False)
    rungs = forms.CharField(
        max_length=1000,
        required=False,
        widget=forms.Textarea,
        help_text=gettext_lazy(
            'One rung a line, lowest first: least MoS, boxes, note ("2 2 Solid").'
        ),
    )
    fragility = forms.ChoiceField(choices=FRAGILITY_CHOICES, required=False)
    # Fate ch. 3: span, "how often a check may be made"; recovery, "how quickly the challenge
    # recovers boxes". Both blank: checks at any pace, and no box lost to time.
    span_count = forms.IntegerField(
        min_value=1,
        max_value=challenges.MAX_PACE,
        required=False,
        label=gettext_lazy("Checks allowed"),
    )
    span_period = forms.CharField(
        max_length=challenges.PERIOD_LENGTH, required=False, label=gettext_lazy("Each (period)")
    )
    recovery_count = forms.IntegerField(
        min_value=1, max_value=challenges.MAX_PACE, required=False, label=gettext_lazy("Boxes lost")
    )
    recovery_period = forms.CharField(
        max_length=challenges.PERIOD_LENGTH,
        required=False,
        label=gettext_lazy("Each (period) nobody pursues it"),
    )
    notes = forms.CharField(max_length=challenges.NOTES_LENGTH, required=False)
    visibility = forms.ChoiceField(choices=Challenge.Visibility.choices)

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        for what in ("span", "recovery"):
            count, period = data.get(f"{what}_count"), (data.get(f"{what}_period") or "").strip()
            if count is None and not period:
                data[what] = None
            elif count is None or not period:
                raise forms.ValidationError(
                    gettext(
                        "Give the span both its checks allowed and its period (1 each day), "
                        "or neither."
                    )
                    if what == "span"
                    else gettext(
                        "Give the recovery both its boxes lost and its period (1 each day), "
                        "or neither."
                    )
                )
            else:
                data[what] = (count, period)
        return data

    def clean_rungs(self) -> list[challenges.RungShape]:
        shape = []
        for line in self.cleaned_data["rungs"].splitlines():
            if not line.strip():
                continue
            found = RUNG_LINE.match(line)
            if found is None:
                raise forms.ValidationError(
                    gettext('Write each rung as its least MoS, its boxes and a note: "2 2 Solid".')
                )
            shape.append((int(found[1]), int(found[2]), found[3].strip()))
        return shape


class ChallengeCheckForm(forms.Form):
    margin = forms.IntegerField(min_value=-20, max_value=20, label=gettext_lazy("Margin"))


class RungForm(forms.Form):
    rung = forms.IntegerField(min_value=0, max_value=challenges.MAX_RUNGS - 1)


class RecoverForm(forms.Form):
    periods = forms.IntegerField(
        min_value=1, max_value=challenges.MAX_PERIODS, label=gettext_lazy("Periods")
    )


class TimeForm(RecoverForm):
    period = forms.CharField(max_length=challenges.PERIOD_LENGTH, label=gettext_lazy("Period"))


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


@require_POST
@login_required
def challenge_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = ChallengeForm(request.POST)
    problem = first_error(form) if not form.is_valid() else ""
    if not problem:
        data = form.cleaned_data
        problem = attempt(
            lambda: challenges.challenge_create(
                campaign=membership.campaign,
                name=data["name"],
                preset=data["preset"],
                rungs=data["rungs"],
                fragility=data["fragility"] or "equivalent",
                notes=data["notes"],
                visibility=data["visibility"],
                span=data["span"],
                recovery=data["recovery"],
            )
        )
    bound = form if problem else None
    return answer(
        request,
        campaign_id,
        problem,
        lambda: challenge_card(membership, request, form=bound, problem=problem),
    )


@require_POST
@login_required
def challenge_command(
    request: AuthenticatedHttpRequest, campaign_id: int, challenge_id: int, command: str
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    challenge = get_object_or_404(Challenge, pk=challenge_id, campaign_id=campaign_id)
    problem = run(request, CHALLENGE_COMMANDS[command], challenge)
    return answer(
        request,
        campaign_id,
        problem,
        lambda: challenge_list(membership.campaign, "gm", problem=problem, request=request),
        pushed=True,
    )


@require_POST
@login_required
def challenge_time(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM advances time for every challenge at the table: spans open again, and a
    challenge nobody pursued in the period loses boxes."""
    membership = gm_or_403(request.user, campaign_id)
    form = TimeForm(request.POST)
    problem = first_error(form) if not form.is_valid() else ""
    if not problem:
        data = form.cleaned_data
        problem = attempt(
            lambda: challenges.challenge_time_passes(
                campaign=membership.campaign, period=data["period"], periods=data["periods"]
            )
        )
    return answer(
        request,
        campaign_id,
        problem,
        lambda: challenge_list(membership.campaign, "gm", problem=problem, request=request),
        pushed=True,
    )
