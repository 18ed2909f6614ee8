"""The GM's melee exchange at an EZFudge table: roll one, then confirm the wound it deals.

Both commands are the GM's (players get a 403, outsiders a 404). With htmx each answers with
the GM's fight panel; without JavaScript each redirects back with a message. The log entries
themselves reach every screen through the table's sockets.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear, Trait
from fudgetable.http import AuthenticatedHttpRequest, back_to_table
from fudgetable.rules import fight as rules
from fudgetable.rules.errors import RulesError
from rolls import fragments
from rolls.fight import POSITIONS, UNTRAINED, confirmation_of, fight_confirm, fight_exchange
from rolls.models import Roll

PANEL = "rolls/fight.html#panel"
MAX_ID = 2**31 - 1  # beyond any row's id; a bigger number must not reach the database
NO_WOUND_TRACK = (
    "Fight exchanges mark wounds on an EZFudge wound track, and this campaign's rules have none."
)


class FightForm(forms.Form):
    attacker = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    attacker_trait = forms.CharField(max_length=20)
    attacker_weapon = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    attacker_tactic = forms.ChoiceField(choices=list(rules.TACTICS.items()), initial="none")
    attacker_position = forms.TypedChoiceField(coerce=int, choices=POSITIONS, initial=0)
    defender = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    defender_trait = forms.CharField(max_length=20)
    defender_weapon = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    defender_tactic = forms.ChoiceField(choices=list(rules.TACTICS.items()), initial="none")
    defender_position = forms.TypedChoiceField(coerce=int, choices=POSITIONS, initial=0)
    secret = forms.BooleanField(required=False)
    key = forms.CharField(max_length=64, min_length=8)


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:].rstrip(".") + "."


def _fighter(
    campaign_id: int, data: dict[str, Any], side: str
) -> tuple[Character, Trait | None, Gear | None]:
    """The side's character, trait (None: untrained) and weapon (None: bare hands), each
    looked up at this table only."""
    character = None
    if data[side]:
        character = Character.objects.filter(pk=data[side], campaign_id=campaign_id).first()
        if character is None:
            raise RulesError(side, f"pick the {side} from this table")
    trait = None
    trait_id = data[f"{side}_trait"]
    if trait_id != UNTRAINED:
        if trait_id.isdigit() and int(trait_id) <= MAX_ID:
            found = Trait.objects.select_related("character")
            trait = found.filter(pk=int(trait_id), character__campaign_id=campaign_id).first()
        if trait is None:
            raise RulesError(f"{side}_trait", f"pick the {side}'s trait from a sheet at this table")
        if character is None:
            character = trait.character
    elif character is None:
        raise RulesError(side, f"an untrained {side} still needs a name: pick who fights")
    gear = None
    if data[f"{side}_weapon"]:
        gear = character.gear.filter(pk=data[f"{side}_weapon"], kind=Gear.Kind.WEAPON).first()
        if gear is None:
            raise RulesError(f"{side}_weapon", f"that is not one of {character.name}'s weapons")
    return character, trait, gear


def _exchange(membership: Membership, data: dict[str, Any]) -> Roll:
    if campaign_ruleset(membership.campaign).wound_track is None:
        raise RulesError("wound_track", NO_WOUND_TRACK)
    attacker, attacker_trait, weapon = _fighter(membership.campaign_id, data, rules.ATTACKER)
    defender, defender_trait, defender_weapon = _fighter(
        membership.campaign_id, data, rules.DEFENDER
    )
    return fight_exchange(
        membership=membership,
        attacker=attacker,
        attacker_trait=attacker_trait,
        weapon=weapon,
        defender=defender,
        defender_trait=defender_trait,
        defender_weapon=defender_weapon,
        attacker_tactic=rules.Tactic(data["attacker_tactic"]),
        defender_tactic=rules.Tactic(data["defender_tactic"]),
        attacker_position=data["attacker_position"],
        defender_position=data["defender_position"],
        secret=data["secret"],
        key=data["key"],
    )


def _answer(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    *,
    made: Roll | None = None,
    problem: str = "",
    message: str = "",
) -> HttpResponse:
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        if message:
            messages.info(request, message)
        if made is not None:
            messages.info(request, fragments.roll_summary(made, gm_view=True))
        return back_to_table(request, membership.campaign_id)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "fight_made": fragments.roll_entry(made, "gm", request=request) if made else "",
        "fight_problem": problem,
        "fight_message": message,
    }
    return render(request, PANEL, context)


@require_POST
@login_required
def fight(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = FightForm(request.POST)
    if not form.is_valid():
        fields = ", ".join(name.replace("_", " ") for name in form.errors)
        return _answer(request, membership, problem=f"Check the fight form: {fields}.")
    try:
        made = _exchange(membership, form.cleaned_data)
    except RulesError as error:
        return _answer(request, membership, problem=_sentence(error.message))
    return _answer(request, membership, made=made)


@require_POST
@login_required
def confirm(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    exchange = get_object_or_404(
        Roll.objects.select_related("character"), pk=roll_id, campaign_id=campaign_id
    )
    already = confirmation_of(exchange) is not None
    try:
        done = fight_confirm(membership=membership, roll=exchange)
    except RulesError as error:
        return _answer(request, membership, problem=_sentence(error.message))
    message = f"Already marked: {done.label}." if already else f"{done.label}."
    return _answer(request, membership, message=message)
