"""The answers to an attack waiting for its defence (``rolls.fight.defend``): the defender's
player defends with one tap (a GM may roll for them), and the attacker's player or a GM
withdraws it.

An attack is named by the id pages show (``shown_ids.ATTACK``). One this person does not see
(another player's, an outsider's ask) is a 404, as an id of nothing; one they see but may not
answer (the attacker's player tapping Defend, the defender's tapping Withdraw) a 403. Over the
table's socket these same views run (``rolls.table.socket_takes``). The answer is the person's
own attacks waiting, redrawn, and what they rolled; the exchange reaches every screen through
the log's push, its wound to be confirmed by the GM."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.models import Membership
from fudgetable.http import AuthenticatedHttpRequest, back_to_table
from fudgetable.rules.defence import Defence
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words
from rolls import fragments
from rolls.fight.defend import NoSuchAttack, attack_defend, attack_withdraw
from rolls.fight.defend_cards import TEMPLATE, cards_for
from rolls.models import Roll


class DefendForm(forms.Form):
    defence = forms.ChoiceField(choices=[(d.value, d.value) for d in Defence], required=False)
    trait = forms.CharField(required=False, max_length=20)
    stun = forms.BooleanField(required=False)


def _answer(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    *,
    made: Roll | None = None,
    problem: str = "",
) -> HttpResponse:
    summary = "" if made is None else fragments.roll_summary(made, gm_view=membership.is_gm)
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        elif summary:
            messages.info(request, summary)
        return back_to_table(request, membership.campaign_id)
    cards = cards_for(membership, request=request, problem=problem)
    to_mark = made is not None and made.snapshot.get("fight", {}).get("to_mark")
    news = render_to_string(f"{TEMPLATE}#news", {"made": summary, "to_mark": to_mark})
    return HttpResponse(cards + news)


@require_POST
@login_required
def defend(request: AuthenticatedHttpRequest, campaign_id: int, attack_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    form = DefendForm(request.POST)
    if not form.is_valid():
        return _answer(request, membership, problem=_("Tap one of the defences on the card."))
    data = form.cleaned_data
    try:
        made = attack_defend(
            membership=membership,
            attack_id=attack_id,
            defence=data["defence"],
            trait=data["trait"],
            stun=data["stun"],
        )
    except NoSuchAttack as unseen:
        raise Http404(_("No such attack")) from unseen
    except RulesError as error:
        return _answer(request, membership, problem=refusal_words(error))
    return _answer(request, membership, made=made)


@require_POST
@login_required
def withdraw(request: AuthenticatedHttpRequest, campaign_id: int, attack_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    try:
        attack_withdraw(membership=membership, attack_id=attack_id)
    except NoSuchAttack as unseen:
        raise Http404(_("No such attack")) from unseen
    return _answer(request, membership)
