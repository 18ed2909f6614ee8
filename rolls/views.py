from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_POST

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Trait
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules import checks
from fudgetable.rules.errors import RulesError
from rolls import fragments, selectors, services
from rolls.forms import FudgePointForm, NoteForm, RollForm, SessionEndForm, new_key
from rolls.models import Roll
from rolls.odds_chart import odds_context


def _rollable(membership: Membership) -> list[Character]:
    """The characters this person may roll for: their own PCs; a GM, everyone's."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id).prefetch_related(
        "traits"
    )
    if not membership.is_gm:
        characters = characters.filter(owner_id=membership.user_id, kind=Character.Kind.PC)
    return list(characters)


def _table_context(membership: Membership, form: RollForm | None = None) -> dict[str, object]:
    campaign = membership.campaign
    ruleset = campaign_ruleset(campaign)
    audience: fragments.Audience = "gm" if membership.is_gm else "everyone"
    rolls = selectors.roll_log(campaign)[: selectors.LOG_LENGTH]
    return {
        "campaign": campaign,
        "membership": membership,
        "ruleset": ruleset,
        "session": selectors.latest_session(campaign),
        "session_pcs": selectors.player_characters(campaign) if membership.is_gm else [],
        "entries": [fragments.roll_entry(roll, audience) for roll in rolls],
        "present": selectors.present_usernames(campaign.pk),
        "characters": _rollable(membership),
        "opponents": list(Character.objects.filter(campaign=campaign).prefetch_related("traits"))
        if membership.is_gm
        else [],
        "difficulties": [
            (value, ruleset.ladder.describe(value))
            for value in range(ruleset.default_difficulty - 4, ruleset.default_difficulty + 5)
        ],
        "form": form,
        "key": new_key(),
        "gm_moves": campaign.gm_moves,
    }


@require_GET
@login_required
def table(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    return render(request, "rolls/table.html", _table_context(membership))


def _character_and_level(
    membership: Membership, data: dict[str, Any]
) -> tuple[Character | None, str, int]:
    """Which character rolls, which trait, at what level; refuses what this person may not
    roll for, and ids from another sheet or campaign."""
    character = None
    if data.get("character"):
        character = next((c for c in _rollable(membership) if c.pk == data["character"]), None)
        if character is None:
            raise RulesError("character", "you cannot roll for that character")
    ruleset = campaign_ruleset(membership.campaign)
    trait_id = str(data.get("trait") or "")
    if trait_id == "untrained":
        level = checks.untrained_level(ruleset, commonness=str(data.get("commonness") or "some"))
        return character, "untrained", level
    if character is None:
        raise RulesError("character", "pick the character whose trait is rolled")
    trait = next((t for t in character.traits.all() if str(t.pk) == trait_id), None)
    if trait is None:
        raise RulesError("trait", "no such trait on this sheet")
    return character, trait.name, trait.level + trait.modifier


def roll_from(membership: Membership, data: dict[str, Any]) -> Roll:
    """Makes the roll a valid roll form asks for. Secret and hidden rolls are the GM's."""
    if membership.role == Membership.Role.OBSERVER:
        raise PermissionDenied("Observers watch; they do not roll.")
    gm = membership.is_gm
    secret, hidden = bool(data.get("secret")) and gm, bool(data.get("hidden_difficulty")) and gm
    key, kind = str(data["key"]), data["kind"]
    if kind in ("situational", "reaction"):
        return services.roll_reading(
            membership=membership,
            key=key,
            reaction=kind == "reaction",
            label=str(data.get("label") or ""),
            modifiers=data["modifiers"],
            secret=secret,
        )
    character, trait_name, level = _character_and_level(membership, data)
    if kind == "contest":
        opponent = Character.objects.filter(
            campaign_id=membership.campaign_id, pk=data.get("opponent") or 0
        ).first()
        opposing = Trait.objects.filter(
            character=opponent, pk=data.get("opponent_trait") or 0
        ).first()
        trait = Trait.objects.filter(character=character, name=trait_name).first()
        if opponent is None or opposing is None or character is None or trait is None:
            raise RulesError("opponent", "pick an opponent at this table and one of their traits")
        return services.roll_contest(
            membership=membership,
            key=key,
            character=character,
            trait=trait,
            opponent=opponent,
            opponent_trait=opposing,
            modifiers=data["modifiers"],
            opponent_modifiers=data["opponent_modifiers"],
            secret=secret,
        )
    return services.roll_check(
        membership=membership,
        key=key,
        level=level,
        trait_name=trait_name,
        character=character,
        modifiers=data["modifiers"],
        difficulty=data.get("difficulty"),
        advantage=int(data.get("advantage") or 0),
        disadvantage=int(data.get("disadvantage") or 0),
        hidden_difficulty=hidden,
        secret=secret,
    )


@require_POST
@login_required
def roll(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    form = RollForm(request.POST)
    made = None
    if form.is_valid():
        try:
            made = roll_from(membership, form.cleaned_data)
        except RulesError as error:
            form.add_error(None, error.message)
    if not request.htmx:
        for problems in form.errors.values():
            messages.error(request, " ".join(map(str, problems)))
        return redirect("rolls:table", campaign_id)
    context = _table_context(membership, form if form.errors else None)
    context["made"] = (
        fragments.roll_entry(made, "gm" if membership.is_gm else "everyone") if made else ""
    )
    return render(request, "rolls/table.html#roller", context)


@require_GET
@login_required
def odds(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The exact chance of success, and the chart of margins, before the dice are rolled."""
    membership = membership_or_404(request.user, campaign_id)
    form = RollForm({**request.GET.dict(), "key": "odds-preview"})
    context: dict[str, object] = {"campaign": membership.campaign}
    if form.is_valid() and form.cleaned_data["kind"] == "check":
        try:
            _, _, level = _character_and_level(membership, form.cleaned_data)
            context.update(odds_context(membership, level, form.cleaned_data))
        except RulesError as error:
            context["odds_error"] = error.message
    return render(request, "rolls/table.html#odds", context)


@require_POST
@login_required
def fudge_point(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    spent_on = get_object_or_404(Roll, pk=roll_id, campaign_id=campaign_id)
    owner_id = spent_on.character.owner_id if spent_on.character else None
    if not membership.is_gm and owner_id != membership.user_id:
        raise PermissionDenied("Only the character's player or a GM spends its Fudge points.")
    form = FudgePointForm(request.POST)
    if form.is_valid():
        try:
            services.roll_fudge_point(
                membership=membership,
                key=form.cleaned_data["key"],
                roll=spent_on,
                use=form.cleaned_data["use"],
            )
        except RulesError as error:
            messages.error(request, error.message)
    return redirect("rolls:table", campaign_id)


@require_POST
@login_required
def note(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    gm_or_403(request.user, campaign_id)
    noted = get_object_or_404(Roll, pk=roll_id, campaign_id=campaign_id)
    form = NoteForm(request.POST)
    if form.is_valid():
        services.roll_note(roll=noted, note=form.cleaned_data["note"])
    return redirect("rolls:table", campaign_id)


@require_POST
@login_required
def session_start(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    try:
        services.session_start(campaign=campaign)
    except RulesError as error:
        messages.error(request, error.message)
    return redirect("rolls:table", campaign_id)


@require_POST
@login_required
def session_end(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    session = selectors.running_session(campaign)
    if session is None:
        messages.error(request, "No session is running.")
        return redirect("rolls:table", campaign_id)
    pcs = list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PC))
    form = SessionEndForm(request.POST, characters=pcs)
    if not form.is_valid():
        messages.error(request, "Extra XP is a whole number from 0 to 20.")
        return redirect("rolls:table", campaign_id)
    services.session_end(session=session, extra_xp=form.extra_xp())
    messages.success(request, f"Session {session.number} has ended.")
    return redirect("rolls:table", campaign_id)
