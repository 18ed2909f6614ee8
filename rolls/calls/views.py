"""The GM's call for a roll: made and closed by a GM, answered by each called PC's player (or
by a GM for an absent one). Every change reaches the other screens by push; the answer to the
one who acted is their own part of it."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from characters.models import Character
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said
from rolls import fragments
from rolls.calls import services as calls
from rolls.calls.fragments import call_list, calls_for_person
from rolls.calls.models import RollCall
from rolls.gm_cards import first_error


class CallForm(forms.Form):
    characters = forms.TypedMultipleChoiceField(
        coerce=int,
        choices=[],
        error_messages={"required": gettext_lazy("Pick one or more PCs to call on.")},
    )
    trait = forms.CharField(required=False, max_length=80)
    difficulty = forms.IntegerField(min_value=-20, max_value=60)
    advantage = forms.IntegerField(required=False, min_value=0, max_value=4)
    label = forms.CharField(required=False, max_length=120)
    hidden_difficulty = forms.BooleanField(required=False)
    secret = forms.BooleanField(required=False)

    def __init__(self, *args: object, pcs: list[Character], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        field = self.fields["characters"]
        assert isinstance(field, forms.TypedMultipleChoiceField)
        field.choices = [(pc.pk, pc.name) for pc in pcs]


class AnswerForm(forms.Form):
    character = forms.IntegerField()
    trait = forms.IntegerField(required=False)
    key = forms.CharField(max_length=64, min_length=8)


def _answer(request: AuthenticatedHttpRequest, membership: Membership, html: str) -> HttpResponse:
    if request.htmx:
        return HttpResponse(html)
    return redirect("rolls:table", membership.campaign_id)


@require_POST
@login_required
def call_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    campaign = membership.campaign
    pcs = list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PC))
    form = CallForm(request.POST, pcs=pcs)
    problem = ""
    if form.is_valid():
        chosen = [pc for pc in pcs if pc.pk in form.cleaned_data["characters"]]
        try:
            calls.call_create(
                membership=membership,
                characters=chosen,
                trait=form.cleaned_data["trait"],
                difficulty=form.cleaned_data["difficulty"],
                hidden_difficulty=form.cleaned_data["hidden_difficulty"],
                advantage=form.cleaned_data["advantage"] or 0,
                label=form.cleaned_data["label"],
                secret=form.cleaned_data["secret"],
            )
        except (ValidationError, RulesError) as error:
            problem = said(error.message) if isinstance(error, RulesError) else error.messages[0]
    else:
        problem = first_error(form)
    if problem and not request.htmx:
        messages.error(request, problem)
    return _answer(request, membership, call_list(campaign, problem=problem))


@require_POST
@login_required
def call_answer(request: AuthenticatedHttpRequest, campaign_id: int, call_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == Membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Observers watch; they do not roll."))
    call = get_object_or_404(RollCall, pk=call_id, campaign_id=campaign_id)
    form = AnswerForm(request.POST)
    problem = ""
    if not form.is_valid():
        problem = first_error(form)
    else:
        character = Character.objects.filter(
            pk=form.cleaned_data["character"], campaign_id=campaign_id
        ).first()
        try:
            if character is None:
                raise RulesError("character", gettext("that character was not called on to roll"))
            roll = calls.call_answer(
                membership=membership,
                call=call,
                character=character,
                key=form.cleaned_data["key"],
                trait_id=form.cleaned_data["trait"],
            )
        except RulesError as error:
            problem = said(error.message)
        else:
            if not request.htmx:
                messages.info(request, fragments.roll_summary(roll, gm_view=membership.is_gm))
    if problem and not request.htmx:
        messages.error(request, problem)
    campaign = membership.campaign
    if membership.is_gm:
        return _answer(request, membership, call_list(campaign, problem=problem))
    mine = calls_for_person(campaign, membership.user_id, problem=problem, request=request)
    return _answer(request, membership, mine)


# The GM's commands on a call: close it (its players' Roll taps go; its results stay on the
# GMs' card), or dismiss it from the card (closing it too if it was open).
CALL_COMMANDS = {"close": calls.call_cancel, "dismiss": calls.call_dismiss}


@require_POST
@login_required
def call_command(
    request: AuthenticatedHttpRequest, campaign_id: int, call_id: int, command: str
) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    call = get_object_or_404(RollCall, pk=call_id, campaign_id=campaign_id)
    CALL_COMMANDS[command](call=call)
    return _answer(request, membership, call_list(membership.campaign))
