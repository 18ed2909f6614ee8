"""The board's attack (``rolls.fight.attack``): a GET draws the small form for the figure
picked (its weapons for reach and range, each with the trait proposed for it), and its POST,
sent by the tap on the target's figure, rolls the exchange or the shot.

A player attacks with their own PC (another's is a 403) and names only figures they see (any
other id, a 404 like an id of nothing); an outsider gets a 404. Over the table's socket the POST
runs this same view (``rolls.table.socket_takes``). The entry reaches every screen through the
log's push; the answer shows the attacker what they rolled, and the GM confirms the wound. An
attack on a PC another player plays is declared instead, and waits for their defence
(``rolls.fight.defend``): the answer says so."""

import secrets

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from campaigns.access import membership_or_404
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from fudgetable.http import AuthenticatedHttpRequest, back_to_table, refusal
from fudgetable.rules import fight as fight_rules
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words
from fudgetable.shown_ids import FIGURE
from rolls import fragments
from rolls.fight.attack import DEFAULT, UNTRAINED, NotSeen, arms_of, board_attack
from rolls.fight.defend_cards import attack_words
from rolls.fight.models import DeclaredAttack
from rolls.scene.ids import named

TEMPLATE = "rolls/fight/attack.html"
MAX_ID = 2**31 - 1


class AttackForm(forms.Form):
    attacker = forms.CharField(max_length=64)
    target = forms.CharField(max_length=64)
    # Both weapons travel: which one is used is known once the target's area is (melee or shot).
    reach_weapon = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    range_weapon = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    trait = forms.CharField(required=False, max_length=20)
    tactic = forms.ChoiceField(choices=list(fight_rules.TACTICS.items()), required=False)
    stun = forms.BooleanField(required=False)
    key = forms.CharField(max_length=64, min_length=8)


def _refused(request: AuthenticatedHttpRequest, campaign_id: int, problem: str) -> HttpResponse:
    if request.htmx:
        return refusal(problem)
    messages.error(request, problem)
    return back_to_table(request, campaign_id)


def _declared(
    request: AuthenticatedHttpRequest, membership: Membership, attack: DeclaredAttack
) -> HttpResponse:
    """An attack on a PC another player plays: declared, it waits for their defence (or the
    same taps sent again after it was answered: the exchange it rolled)."""
    if attack.exchange is not None:
        summary = fragments.roll_summary(attack.exchange, gm_view=membership.is_gm)
    else:
        summary = _("%(words)s: waiting for %(name)s to defend.") % {
            "words": attack_words(attack),
            "name": attack.defender.name,
        }
    if not request.htmx:
        messages.info(request, summary)
        return back_to_table(request, membership.campaign_id)
    context = {"campaign": membership.campaign, "declared": attack, "summary": summary}
    return render(request, f"{TEMPLATE}#done", context)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def attack(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    if campaign_ruleset(membership.campaign).wound_track is None:
        return _refused(request, campaign_id, _("This campaign's rules have no fights to roll."))
    if request.method in ("GET", "HEAD"):
        figure = named(FIGURE, request.GET.get("attacker", ""))
        try:
            arms = arms_of(membership, figure)
        except NotSeen as unseen:
            raise Http404(_("No such figure in the scene")) from unseen
        context = {
            "campaign": membership.campaign,
            "arms": arms,
            "untrained": UNTRAINED,
            "tactics": list(fight_rules.TACTICS.items()),
            "key": f"attack-{secrets.token_urlsafe(12)}",
        }
        return render(request, f"{TEMPLATE}#form", context)
    form = AttackForm(request.POST)
    if not form.is_valid():
        return _refused(request, campaign_id, _("Pick a weapon, then tap the target's figure."))
    data = form.cleaned_data
    try:
        made = board_attack(
            membership=membership,
            attacker_figure=named(FIGURE, data["attacker"]),
            target_figure=named(FIGURE, data["target"]),
            reach_weapon=data["reach_weapon"],
            range_weapon=data["range_weapon"],
            trait=data["trait"] or DEFAULT,
            tactic=fight_rules.Tactic(data["tactic"] or fight_rules.Tactic.NONE),
            stun=data["stun"],
            key=data["key"],
        )
    except NotSeen as unseen:
        raise Http404(_("No such figure in the scene")) from unseen
    except RulesError as error:
        return _refused(request, campaign_id, refusal_words(error))
    if isinstance(made, DeclaredAttack):
        return _declared(request, membership, made)
    summary = fragments.roll_summary(made, gm_view=membership.is_gm)
    if not request.htmx:
        messages.info(request, summary)
        return back_to_table(request, campaign_id)
    context = {"campaign": membership.campaign, "made": made, "summary": summary}
    return render(request, f"{TEMPLATE}#done", context)
