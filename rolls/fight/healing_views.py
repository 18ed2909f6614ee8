"""Healing from a sheet: its healing buttons and the medical care page. Each answers as the
sheet's other forms do (htmx gets the sheet back, a plain POST goes back to it) and writes the
log through ``rolls.fight.healing``."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.access import character_or_404, editable_or_403
from characters.models import Character, Trait
from characters.selectors import sheet_queryset
from characters.views import render_sheet
from fudgetable.http import AuthenticatedHttpRequest, form_errors, new_key
from fudgetable.rules import wounds
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules_words import said
from rolls import fragments
from rolls.entry_words import entry_label
from rolls.fight import healing

KEY_LENGTH = 56  # room left for the "-care" of the line after a roll (keys are 64 at most)


class HealForm(forms.Form):
    track = forms.CharField(max_length=20)
    action = forms.CharField(max_length=20)
    key = forms.CharField(max_length=KEY_LENGTH, min_length=8)


class MedicalCareForm(forms.Form):
    trait = forms.IntegerField(label=gettext_lazy("Healer"))
    level = forms.IntegerField(label=gettext_lazy("Wound"), min_value=1, max_value=99)
    hospital = forms.BooleanField(
        required=False,
        label=format_lazy(
            gettext_lazy("In a hospital (+{bonus}, high quality equipment)"),
            bonus=wounds.HOSPITAL_BONUS,
        ),
    )
    key = forms.CharField(max_length=KEY_LENGTH, min_length=8)


class KeyForm(forms.Form):
    key = forms.CharField(max_length=KEY_LENGTH, min_length=8)


@require_POST
@login_required
def heal(request: AuthenticatedHttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """A healing button in a track's fold: after the fight, a week of rest, tending, a rest."""
    membership, character = editable_or_403(request.user, campaign_id, character_id)
    form = HealForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
    else:
        try:
            entry = healing.heal_logged(
                membership=membership, character=character, **form.cleaned_data
            )
        except RulesError as error:
            messages.error(request, said(said(error.message)))
        else:
            messages.success(request, entry_label(entry))
    if not request.htmx:
        return redirect("characters:sheet", campaign_id, character_id)
    character = sheet_queryset(character.campaign).get(pk=character.pk)
    return render_sheet(request, character, membership)


def _patient_or_404(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> tuple[Membership, Character]:
    """A patient the member may treat: a PC, or (for a GM) an NPC; observers watch."""
    membership, patient = character_or_404(request.user, campaign_id, character_id, whole=False)
    if patient.is_npc and not membership.is_gm:
        raise Http404(gettext("No such character"))  # players see an NPC's name, never its wounds
    if membership.role == Membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Observers watch; they do not roll."))
    return membership, patient


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def medical_care(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    """The page of a patient's medical care: the wounds, this week's rolls on them, and the
    healer's roll. A roll comes back here, saying what it did to which wound."""
    membership, patient = _patient_or_404(request, campaign_id, character_id)
    ruleset = campaign_ruleset(membership.campaign)
    try:
        care = healing.care_of(patient, ruleset)
    except RulesError as error:
        raise Http404(said(error.message)) from None
    traits = healing.healers(membership)
    form = MedicalCareForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            trait = next((t for t in traits if t.pk == data["trait"]), None)
            try:
                if trait is None:
                    raise RulesError("trait", gettext("choose a healer's trait you may roll"))
                roll = healing.medical_care(
                    membership=membership,
                    key=data["key"],
                    patient=patient,
                    trait=trait,
                    level=data["level"],
                    hospital=data["hospital"],
                )
            except RulesError as error:
                form.add_error(None, said(said(error.message)))
            else:
                messages.info(request, fragments.roll_summary(roll, gm_view=membership.is_gm))
                follow = roll.followed_by.order_by("pk").first()
                if follow is not None and (membership.is_gm or not follow.secret):
                    messages.success(request, entry_label(follow))
                return redirect("rolls:medical_care", campaign_id, character_id)
        status = 400
    return render(
        request,
        "rolls/fight/medical_care.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "patient": patient,
            "care": care,
            "healers": _by_healer(traits, ruleset),
            "tries": [t for t in care.tries if membership.is_gm or not t.secret],
            "form": form,
            "chosen_trait": _chosen(form, traits),
            "chosen_level": str(form["level"].value() or _worst_open(care)),
            "open_levels": [row for row in care.levels if row.left],
            "fresh_key": new_key(),
            "week_key": new_key(),
        },
        status=status,
    )


# What a healer's role is often called ("Doctor, Nurse, Physicker, EMT, etc."): the first
# trait so named is offered first.
HEALER_WORDS = ("doctor", "nurse", "physick", "medic", "emt", "heal", "surgeon", "first aid")


def _chosen(form: MedicalCareForm, traits: list[Trait]) -> str:
    given = form["trait"].value()
    if given:
        return str(given)
    named = next((t for t in traits if any(w in t.name.lower() for w in HEALER_WORDS)), None)
    return str(named.pk) if named else ""


def _worst_open(care: healing.Care) -> int | str:
    """The worst wound that may still be treated this week, offered first."""
    return next((row.level for row in reversed(care.levels) if row.left), "")


def _by_healer(traits: list[Trait], ruleset: Ruleset) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each healer's name and their traits as (id, "Doctor, Good"), for the select's groups."""
    groups: dict[int, tuple[str, list[tuple[str, str]]]] = {}
    for trait in traits:
        level = ruleset.ladder.name(trait.level + trait.modifier)
        _, rows = groups.setdefault(trait.character_id, (trait.character.name, []))
        rows.append((str(trait.pk), f"{trait.name}, {level}"))
    return list(groups.values())


@require_POST
@login_required
def new_week(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    """The GM starts a new week of care for a patient who has not rested."""
    membership, patient = _patient_or_404(request, campaign_id, character_id)
    if not membership.is_gm:
        raise PermissionDenied(gettext("Only the campaign's GMs can do that."))
    form = KeyForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
    else:
        entry = healing.care_new_week(
            membership=membership, patient=patient, key=form.cleaned_data["key"]
        )
        messages.success(request, entry_label(entry))
    return redirect("rolls:medical_care", campaign_id, character_id)
