"""The GM's fight at an EZFudge table: roll a melee exchange or a shot, confirm the wound it
deals, and roll the manoeuvre test a successful All-Out Defense allows.

Every command is the GM's (players get a 403, outsiders a 404). With htmx each answers with the
GM's fight panel; without JavaScript each redirects back with a message. The log entries
themselves reach every screen through the table's sockets.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear, Trait
from fudgetable.http import AuthenticatedHttpRequest, back_to_table
from fudgetable.rules import fight as rules
from fudgetable.rules import ranged
from fudgetable.rules.blows import Aim
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words, sentence
from rolls import fragments, log_selectors
from rolls.entry_words import entry_label
from rolls.fight.exchange import (
    AIM_MODIFIERS,
    AIM_NEEDS,
    POSITIONS,
    UNTRAINED,
    Announced,
    confirmation_of,
    fight_confirm,
    fight_exchange,
)
from rolls.fight.manoeuvres import fight_manoeuvre
from rolls.fight.ranged import ranged_exchange
from rolls.gm_cards import choices_of
from rolls.models import Roll
from rolls.scene.selectors import shot_from_areas

PANEL = "rolls/fight/panel.html#panel"
MAX_ID = 2**31 - 1  # beyond any row's id; a bigger number must not reach the database
NO_WOUND_TRACK = gettext_lazy(
    "Fight exchanges mark wounds on an EZFudge wound track, and this campaign's rules have none."
)


def _aim_fields(form: type[forms.Form], side: str) -> None:
    """An aimed strike's fields, all optional: a note of what it aims at (and would do), the
    GM's modifier, and the margin it needs."""
    form.base_fields[f"{side}_aim"] = forms.CharField(required=False, max_length=120)
    form.base_fields[f"{side}_aim_modifier"] = forms.TypedChoiceField(
        coerce=int, choices=AIM_MODIFIERS, required=False, empty_value=None
    )
    form.base_fields[f"{side}_aim_needs"] = forms.TypedChoiceField(
        coerce=int, choices=AIM_NEEDS, required=False, empty_value=None
    )


def _aim(data: dict[str, Any], side: str) -> tuple[Aim | None, str]:
    note = data[f"{side}_aim"]
    modifier, needs = data[f"{side}_aim_modifier"] or 0, data[f"{side}_aim_needs"] or 0
    if not (note.strip() or modifier or needs):
        return None, ""
    return Aim(modifier, needs), note


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
    # A pulled punch: the worst level of the wound track the blow may deal (blank: full force).
    attacker_pull = forms.IntegerField(required=False, min_value=0, max_value=20)
    defender_pull = forms.IntegerField(required=False, min_value=0, max_value=20)
    attacker_stun = forms.BooleanField(required=False)
    defender_stun = forms.BooleanField(required=False)
    secret = forms.BooleanField(required=False)
    key = forms.CharField(max_length=64, min_length=8)


FROM_AREAS = ("scene", gettext_lazy("From the areas"))
# A field left empty that the GM must pick, asked for as its picker asks.
WANTED = {
    "shooter_weapon": gettext_lazy(
        "pick the weapon shot or thrown: a gun, or a bow or the like marked so on the sheet"
    ),
    "shooter_trait": gettext_lazy("pick what the shooter shoots with, or untrained"),
}


class RangedForm(forms.Form):
    shooter = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    shooter_trait = forms.CharField(max_length=20)
    shooter_weapon = forms.IntegerField(min_value=1, max_value=MAX_ID)
    target = forms.IntegerField(required=False, min_value=1, max_value=MAX_ID)
    # Blank: the target does not evade (and rolls nothing); else the trait it evades with.
    evade = forms.CharField(required=False, max_length=20)
    # "scene": from the shooter's and the target's areas in the scene (``shot_from_areas``).
    range = forms.ChoiceField(choices=[*choices_of(ranged.RANGES), FROM_AREAS], initial="S")
    light = forms.ChoiceField(choices=[*choices_of(ranged.LIGHT), FROM_AREAS], initial="good")
    cover = forms.ChoiceField(choices=[*choices_of(ranged.COVER), FROM_AREAS], initial="none")
    # Blank: the helper's difficulty from range, light and cover; else the GM's own.
    difficulty = forms.IntegerField(required=False, min_value=-4, max_value=10)
    shift_die = forms.BooleanField(required=False)  # damage option 4 for this shot
    secret = forms.BooleanField(required=False)
    key = forms.CharField(max_length=64, min_length=8)


class ManoeuvreForm(forms.Form):
    side = forms.ChoiceField(choices=[(rules.ATTACKER, "attacker"), (rules.DEFENDER, "defender")])
    trait = forms.IntegerField(min_value=1, max_value=MAX_ID)
    key = forms.CharField(max_length=64, min_length=8)


for _form, _sides in ((FightForm, (rules.ATTACKER, rules.DEFENDER)), (RangedForm, ("shooter",))):
    for _side in _sides:
        _aim_fields(_form, _side)


def _trait(campaign_id: int, trait_id: str) -> Trait | None:
    """A trait of a sheet at this table, by the id a form sent; None if there is none."""
    if not trait_id.isdigit() or int(trait_id) > MAX_ID:
        return None
    found = Trait.objects.select_related("character")
    return found.filter(pk=int(trait_id), character__campaign_id=campaign_id).first()


def _side_words(side: str) -> tuple[str, str, str]:
    """What a side's pickers ask for, refused: its character, its trait, a name when untrained."""
    if side == "attacker":
        return (
            _("pick the attacker from this table"),
            _("pick the attacker's trait from a sheet at this table"),
            _("an untrained attacker still needs a name: pick who fights"),
        )
    if side == "defender":
        return (
            _("pick the defender from this table"),
            _("pick the defender's trait from a sheet at this table"),
            _("an untrained defender still needs a name: pick who fights"),
        )
    if side == "shooter":
        return (
            _("pick the shooter from this table"),
            _("pick the shooter's trait from a sheet at this table"),
            _("an untrained shooter still needs a name: pick who fights"),
        )
    return (
        _("pick the target from this table"),
        _("pick the target's trait from a sheet at this table"),
        _("an untrained target still needs a name: pick who fights"),
    )


def _fighter(
    campaign_id: int, data: dict[str, Any], side: str, trait_field: str = ""
) -> tuple[Character, Trait | None, Gear | None]:
    """The side's character, trait (None: untrained) and weapon (None: bare hands), each
    looked up at this table only."""
    character = None
    if data[side]:
        character = Character.objects.filter(pk=data[side], campaign_id=campaign_id).first()
        if character is None:
            raise RulesError(side, _side_words(side)[0])
    trait = None
    trait_id = data[trait_field or f"{side}_trait"]
    if trait_id != UNTRAINED:
        trait = _trait(campaign_id, trait_id)
        if trait is None:
            raise RulesError(f"{side}_trait", _side_words(side)[1])
        if character is None:
            character = trait.character
    elif character is None:
        raise RulesError(side, _side_words(side)[2])
    gear = None
    if data[f"{side}_weapon"]:
        gear = character.gear.filter(pk=data[f"{side}_weapon"], kind=Gear.Kind.WEAPON).first()
        if gear is None:
            raise RulesError(
                f"{side}_weapon",
                _("that is not one of %(name)s's weapons") % {"name": character.name},
            )
    return character, trait, gear


def _exchange(membership: Membership, data: dict[str, Any]) -> Roll:
    if campaign_ruleset(membership.campaign).wound_track is None:
        raise RulesError("wound_track", str(NO_WOUND_TRACK))
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
        attacker_announced=Announced(
            data["attacker_pull"], *_aim(data, rules.ATTACKER), stun=data["attacker_stun"]
        ),
        defender_announced=Announced(
            data["defender_pull"], *_aim(data, rules.DEFENDER), stun=data["defender_stun"]
        ),
        secret=data["secret"],
        key=data["key"],
    )


def _shot(membership: Membership, data: dict[str, Any]) -> Roll:
    ruleset = campaign_ruleset(membership.campaign)
    if ruleset.wound_track is None:
        raise RulesError("wound_track", str(NO_WOUND_TRACK))
    unarmed = {**data, "shooter_weapon": None, "target_weapon": None}  # the gun is looked up below
    shooter, shooter_trait, _bare = _fighter(membership.campaign_id, unarmed, "shooter")
    weapon = shooter.gear.filter(pk=data["shooter_weapon"], kind=Gear.Kind.WEAPON).first()
    if weapon is None:
        raise RulesError(
            "shooter_weapon", _("that is not one of %(name)s's weapons") % {"name": shooter.name}
        )
    evades = bool(data["evade"])
    evade_trait = None
    if evades:
        target, evade_trait, _bare = _fighter(membership.campaign_id, unarmed, "target", "evade")
    else:
        here = Character.objects.filter(campaign_id=membership.campaign_id)
        found = here.filter(pk=data["target"]).first() if data["target"] else None
        if found is None:
            raise RulesError("target", _("pick the target from this table"))
        target = found
    options = [o for o in ruleset.damage_options if o != 4] + ([4] if data["shift_die"] else [])
    aim, note = _aim(data, "shooter")
    conditions, where = _conditions(membership, shooter, target, data)
    return ranged_exchange(
        membership=membership,
        shooter=shooter,
        shooter_trait=shooter_trait,
        weapon=weapon,
        target=target,
        evades=evades,
        evade_trait=evade_trait,
        conditions=conditions,
        where=where,
        difficulty=data["difficulty"],
        aim=aim,
        aim_note=note,
        options=options,
        secret=data["secret"],
        key=data["key"],
    )


def _conditions(
    membership: Membership, shooter: Character, target: Character, data: dict[str, Any]
) -> tuple[ranged.Conditions, str]:
    """Range, light and cover as the form says, each "scene" one read from the areas: the
    range between the shooter's and the target's, the light and cover of the target's."""
    chosen = {name: data[name] for name in ("range", "light", "cover")}
    if "scene" not in chosen.values():
        return ranged.Conditions(**chosen), ""
    found = shot_from_areas(membership.campaign, shooter.pk, target.pk)
    if found is None:
        words = _(
            "%(shooter)s and %(target)s must both stand in areas of the scene the table sees "
            "to take the range from them: place them, or pick the range"
        )
        raise RulesError("range", words % {"shooter": shooter.name, "target": target.name})
    from_areas = {"range": found.range, "light": found.target_area.light}
    from_areas["cover"] = found.target_area.cover
    for name, value in chosen.items():
        if value == "scene":
            chosen[name] = from_areas[name]
    return ranged.Conditions(**chosen), found.words


def _kept(made: Roll, data: dict[str, Any]) -> str:
    """Says so when the line went to the GMs alone though the GM did not ask: it names an NPC
    the players have not met (``fight.kept_from_players``; the form marks such NPCs too)."""
    if not made.secret or data["secret"]:
        return ""
    return _(
        "An NPC in this line is hidden from the players, so the line went to the GMs only. "
        "Reveal the NPC first to show the players such a line."
    )


def _unfilled(form: forms.Form, what: str) -> str:
    """A refused form's problem, said in the panel's words: the fields named as the GM sees
    them, the weapon's asked for as the picker asks for it."""
    said = [str(WANTED[name]) for name in form.errors if name in WANTED]
    others = [name.replace("_", " ") for name in form.errors if name not in WANTED]
    if others:
        fields = ", ".join(others)
        said.append(_("check the %(what)s form: %(fields)s") % {"what": what, "fields": fields})
    return " ".join(sentence(words) for words in said)


def _answer(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    *,
    made: Roll | None = None,
    problem: str = "",
    message: str = "",
    opened: str = "",
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
        "fight_open": opened,  # the form to show again with its problem
        # A refused roll keeps every choice the GM made in that form: nothing is asked twice.
        "fight_values": {opened: request.POST} if problem and opened else {},
    }
    return render(request, PANEL, context)


@require_POST
@login_required
def fight(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = FightForm(request.POST)
    if not form.is_valid():
        problem = _unfilled(form, _("fight"))
        return _answer(request, membership, problem=problem, opened="melee")
    try:
        made = _exchange(membership, form.cleaned_data)
    except RulesError as error:
        return _answer(request, membership, problem=refusal_words(error), opened="melee")
    return _answer(request, membership, made=made, message=_kept(made, form.cleaned_data))


@require_POST
@login_required
def shoot(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    form = RangedForm(request.POST)
    if not form.is_valid():
        problem = _unfilled(form, _("ranged"))
        return _answer(request, membership, problem=problem, opened="ranged")
    try:
        made = _shot(membership, form.cleaned_data)
    except RulesError as error:
        return _answer(request, membership, problem=refusal_words(error), opened="ranged")
    return _answer(request, membership, made=made, message=_kept(made, form.cleaned_data))


@require_POST
@login_required
def manoeuvre(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    exchange = log_selectors.entry_or_404(membership, roll_id)
    form = ManoeuvreForm(request.POST)
    if not form.is_valid():
        fields = ", ".join(form.errors)
        return _answer(
            request,
            membership,
            problem=_("Check the manoeuvre form: %(fields)s.") % {"fields": fields},
        )
    data = form.cleaned_data
    trait = _trait(campaign_id, str(data["trait"]))
    try:
        if trait is None:
            raise RulesError("trait", _("pick the role to test from a sheet at this table"))
        made = fight_manoeuvre(
            membership=membership,
            exchange=exchange,
            side=data["side"],
            trait=trait,
            key=data["key"],
        )
    except RulesError as error:
        return _answer(request, membership, problem=refusal_words(error))
    return _answer(request, membership, made=made)


@require_POST
@login_required
def confirm(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    exchange = log_selectors.entry_or_404(membership, roll_id)
    already = confirmation_of(exchange) is not None
    try:
        done = fight_confirm(membership=membership, roll=exchange)
    except RulesError as error:
        return _answer(request, membership, problem=refusal_words(error))
    label = entry_label(done)
    message = _("Already marked: %(label)s.") % {"label": label} if already else f"{label}."
    return _answer(request, membership, message=message)
