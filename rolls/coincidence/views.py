"""A player asks the GM for a favourable coincidence; a GM allows it (Fudge Lite's Fudge point
use). The log carries both, so every screen hears of them as of any roll."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from characters.models import Character
from fudgetable.http import AuthenticatedHttpRequest, back_to_table, refusal
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said
from rolls import log_selectors
from rolls.coincidence.services import TEXT_LENGTH, coincidence_allow, coincidence_ask
from rolls.gm_cards import first_error


class CoincidenceForm(forms.Form):
    character = forms.IntegerField()
    text = forms.CharField(max_length=TEXT_LENGTH)
    key = forms.CharField(max_length=64, min_length=8)


@require_POST
@login_required
def ask(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    form = CoincidenceForm(request.POST)
    answer = gettext("Asked: the GM sees it in the log, and your point is paid when they allow it.")
    if not form.is_valid():
        answer = first_error(form)
    else:
        character = Character.objects.filter(
            pk=form.cleaned_data["character"], campaign_id=campaign_id
        ).first()
        try:
            if character is None:
                raise RulesError("character", gettext("spend the Fudge points of a PC you play"))
            coincidence_ask(
                membership=membership,
                character=character,
                text=form.cleaned_data["text"],
                key=form.cleaned_data["key"],
            )
        except RulesError as error:
            answer = said(said(error.message))
    if not request.htmx:
        messages.info(request, answer)
        return back_to_table(request, campaign_id)
    return HttpResponse(format_html('<p class="meta" role="status">{}</p>', answer))


@require_POST
@login_required
def allow(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    asked = log_selectors.entry_or_404(membership, roll_id)
    try:
        coincidence_allow(membership=membership, roll=asked)
    except RulesError as error:
        if not request.htmx:
            messages.error(request, said(said(error.message)))
        else:
            return refusal(said(error.message))
    if not request.htmx:
        return back_to_table(request, campaign_id)
    return HttpResponse(status=204)
