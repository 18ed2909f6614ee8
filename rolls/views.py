"""A roll at the table: a check, a contest or a reading made from the roller, its odds before it
is made, a Fudge point spent on it and the GM's note on it."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST, require_safe

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Trait
from fudgetable.http import AuthenticatedHttpRequest, back_to_table, new_key
from fudgetable.live import audience_of
from fudgetable.rows import row
from fudgetable.rules import checks
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution.action import ModifierPolicy
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules_words import refusal_words, said
from rolls import (
    fragments,
    fudge_points,
    log_selectors,
    roll_lines,
    selectors,
    services,
)
from rolls.challenges.services import challenge_roll
from rolls.forms import FudgePointForm, NoteForm, RollForm
from rolls.gm_cards import first_error
from rolls.models import Roll
from rolls.odds_chart import contest_context, odds_context, reading_context


def _may_roll_for(membership: Membership, character: Character) -> bool:
    """The same rule as ``selectors.rollable``, for a character already loaded."""
    if character.campaign_id != membership.campaign_id:
        return False
    return membership.is_gm or (
        character.owner_id == membership.user_id and character.kind == Character.Kind.PC
    )


def _character_and_trait(
    membership: Membership, data: dict[str, Any]
) -> tuple[Character | None, Trait | None]:
    """Which character rolls and with which trait (None: untrained); refuses what this person
    may not roll for, and ids from another sheet or campaign. A trait names its own character,
    so "who rolls" matters only for an untrained roll (or must agree with the trait)."""
    named, trait_id = data.get("character"), str(data.get("trait") or "")
    trait = None
    if trait_id.isdigit():
        # Every roll comes this way: the trait and its character read by their keys
        # (fudgetable.rows), and the rule checked here.
        trait = row(Trait, "main.id = %s", [int(trait_id)], joined=["character"])
        if trait is not None and not _may_roll_for(membership, trait.character):
            trait = None
    character = trait.character if trait else None
    if named and (character is None or character.pk != named):
        character = selectors.rollable(membership).filter(pk=named).first()
        if character is None:
            raise RulesError("character", gettext("you cannot roll for that character"))
        trait = None
    if trait_id == "untrained":
        return character, None
    if trait is None:
        raise RulesError("trait", gettext("no such trait on a sheet you may roll for"))
    return character, trait


def _character_and_level(
    membership: Membership, data: dict[str, Any]
) -> tuple[Character | None, str, int]:
    """Who rolls, the trait's name ("untrained" for none) and the level rolled at."""
    character, trait = _character_and_trait(membership, data)
    if trait is None:
        ruleset = campaign_ruleset(membership.campaign)
        commonness = str(data.get("commonness") or "some")
        level = checks.untrained_level(ruleset, commonness=commonness, helped=_helped(data))
        return character, "untrained", level
    return character, trait.name, trait.level + trait.modifier


def _helped(data: dict[str, Any]) -> bool:
    return bool(data.get("helped")) and data.get("trait") == "untrained"


def _untrained_helped(membership: Membership, data: dict[str, Any]) -> bool:
    """Whether a high attribute raised this untrained roll's level (only Fudge 1995 says so)."""
    if not _helped(data):
        return False
    ruleset = campaign_ruleset(membership.campaign)
    commonness = str(data.get("commonness") or "some")
    plain = checks.untrained_level(ruleset, commonness=commonness)
    return checks.untrained_level(ruleset, commonness=commonness, helped=True) != plain


def _helper(character: Character | None, data: dict[str, Any]) -> Trait | None:
    """The second trait the roller says helps (F95 3.3): one of the rolling character's own."""
    if not data.get("helper"):
        return None
    found = None
    if character is not None:
        found = Trait.objects.filter(pk=data["helper"], character=character).first()
    if found is None:
        raise RulesError("helper", gettext("a second trait helps only the character who has it"))
    return found


def _contest(membership: Membership, data: dict[str, Any]) -> Roll:
    character, trait = _character_and_trait(membership, data)
    if character is None or trait is None:
        raise RulesError("trait", gettext("an opposed roll needs a trait on the roller's sheet"))
    opposing = _opposing(membership, data)
    return services.roll_contest(
        membership=membership,
        key=str(data["key"]),
        character=character,
        trait=trait,
        opponent=opposing.character,
        opponent_trait=opposing,
        modifiers=data["modifiers"],
        opponent_modifiers=data["opponent_modifiers"],
        secret=bool(data.get("secret")) and membership.is_gm,
        minimum=data.get("minimum"),
        helper=_helper(character, data),
    )


def _opposing(membership: Membership, data: dict[str, Any]) -> Trait:
    """The opponent's trait an opposed roll names, if this person may roll against it."""
    opposing = (
        Trait.objects.filter(
            pk=data["opponent_trait"],
            character_id=data["opponent"],
            character__in=selectors.opponents(membership),
        )
        .select_related("character")
        .first()
    )
    if opposing is None:
        raise RulesError(
            "opponent", gettext("pick an opponent you may roll against and one of its traits")
        )
    return opposing


def roll_from(membership: Membership, data: dict[str, Any]) -> Roll:
    """Makes the roll a valid roll form asks for. Secret and hidden rolls are the GM's."""
    if membership.role == Membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Observers watch; they do not roll."))
    gm = membership.is_gm
    secret, hidden = bool(data.get("secret")) and gm, bool(data.get("hidden_difficulty")) and gm
    key, kind = str(data["key"]), data["kind"]
    if data.get("challenge"):
        # The check and the challenge's mark (by its margin) are one transaction.
        if kind != "check":
            raise RulesError("challenge", gettext("only a trait check marks a challenge"))
        plain = {**data, "challenge": None}
        return challenge_roll(
            membership=membership,
            challenge_id=data["challenge"],
            key=key,
            roll=lambda: roll_from(membership, plain),
        )
    faces = str(data.get("faces") or "").strip() or None
    if kind in ("situational", "reaction"):
        return services.roll_reading(
            membership=membership,
            key=key,
            reaction=kind == "reaction",
            label=str(data.get("label") or ""),
            modifiers=data["modifiers"],
            secret=secret,
            faces=faces,
        )
    if kind == "contest":
        if faces:
            raise RulesError(
                "faces", gettext("dice in hand count for a check or a situational roll")
            )
        return _contest(membership, data)
    character, trait_name, level = _character_and_level(membership, data)
    return services.roll_check(
        membership=membership,
        key=key,
        level=level,
        trait_name=trait_name,
        character=character,
        ticks=roll_lines.ticks(data),
        modifiers=data["modifiers"],
        difficulty=data.get("difficulty"),
        advantage=int(data.get("advantage") or 0),
        disadvantage=int(data.get("disadvantage") or 0),
        hidden_difficulty=hidden,
        secret=secret,
        helper=_helper(character, data),
        untrained_helped=_untrained_helped(membership, data),
        faces=faces,
    )


def may_spend_for(membership: Membership, roll: Roll) -> bool:
    """A PC's Fudge points are spent by its player or a GM; a secret roll is the GM's alone."""
    if membership.is_gm:
        return True
    character = roll.character
    return (
        not roll.secret
        and character is not None
        and not character.is_npc
        and character.owner_id == membership.user_id
    )


def _made(membership: Membership, made: Roll) -> str:
    """The roller's own "You rolled" entry, with the spend buttons this person may use. Only
    htmx asks for it, and htmx sends the CSRF token in a header: the forms need no token."""
    return fragments.roll_entry(made, audience_of(membership), spend=own_spends(membership, made))


def own_spends(membership: Membership, roll: Roll) -> list[tuple[str, str]]:
    """The spend buttons this person gets on a roll of theirs: a PC's they may spend for
    (``may_spend_for``), with the campaign's uses that fit the roll (``fragments.spendable``)."""
    if not may_spend_for(membership, roll):
        return []
    allowed = fragments.allowed_uses(membership.campaign)
    return fragments.spendable(roll, allowed, gm_view=membership.is_gm)


def _outcome(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    *,
    made: Roll | None,
    form: RollForm | None = None,
    problem: str = "",
) -> HttpResponse:
    """The htmx answer to a roll or a spend: what was rolled (or what was wrong) under the roll
    form, and once a roll is made a fresh idempotency key for the form's next tap. The form
    itself stays as its person left it: a player often rolls the same trait again, and
    rebuilding it cost more than the roll (docs/performance.md)."""
    context = {
        "made": _made(membership, made) if made else "",
        "form": form,
        "problem": problem,
        "fresh_key": new_key() if made else "",
        "secret_made": made is not None and made.secret and made.kind != Roll.Kind.FUDGE_POINT,
        "by_hand_made": made is not None and made.snapshot.get("by_hand"),
    }
    return render(request, "rolls/table.html#roll-outcome", context)


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
            form.add_error(None, said(error.message))
    if not request.htmx:
        for problems in form.errors.values():
            messages.error(request, " ".join(map(str, problems)))
        if made is not None:
            messages.info(request, fragments.roll_summary(made, gm_view=membership.is_gm))
        return redirect("rolls:table", campaign_id)
    return _outcome(request, membership, made=made, form=form)


@require_safe
@login_required
def odds(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The exact odds, and the chart of every result, before the dice are rolled: of success
    for a check (with the sheet's lines to tick), of winning an opposed roll, of each result of
    a situational or reaction roll."""
    membership = membership_or_404(request.user, campaign_id)
    data = request.GET.copy()
    data["key"] = "odds-preview"
    form = RollForm(data)
    context: dict[str, object] = {"campaign": membership.campaign}
    if form.is_valid():
        try:
            context.update(_odds(membership, form.cleaned_data))
        except RulesError as error:
            context["odds_error"] = said(error.message)
    else:
        context["odds_error"] = first_error(form)
    return render(request, "rolls/table.html#odds", context)


def _odds(membership: Membership, data: dict[str, Any]) -> dict[str, object]:
    ruleset = campaign_ruleset(membership.campaign)
    kind = data["kind"]
    if kind in ("situational", "reaction"):
        return reading_context(ruleset, data["modifiers"], npc_reaction=kind == "reaction")
    character, trait_name, level = _character_and_level(membership, data)
    helper = _helper(character, data)
    bonus: tuple[int, ...] = ()
    helped_by = ""
    if helper is not None:
        amount, _ = services.helper_line(ruleset, character, trait_name, helper)
        bonus, helped_by = (amount,), f"{helper.name}'s {amount:+d}"
    if kind == "contest":
        opposing = _opposing(membership, data)
        return contest_context(
            ruleset,
            level,
            opposing,
            (*data["modifiers"], *bonus),
            data["opponent_modifiers"],
            minimum=data.get("minimum"),
            helped_by=helped_by,
        )
    sheet = roll_lines.offered(ruleset, character, trait_name)
    chosen = sheet.chosen(roll_lines.ticks(data))
    modifiers = (*data["modifiers"], *(line.amount for line in chosen), *bonus)
    return {
        "sheet_lines": [(line, line in chosen) for line in sheet.lines],
        "sheet_lines_for": data["trait"],
        "no_action": sheet.no_action
        and gettext("%(name)s is %(state)s") % {"name": character, "state": sheet.no_action},
        "policy": _policy_words(ruleset),
        **odds_context(membership, level, {**data, "modifiers": modifiers, "helped_by": helped_by}),
    }


def _policy_words(ruleset: Ruleset) -> str:
    """How the ruleset adds a roll's modifiers up, said beside the sheet's lines."""
    rules = ruleset.static_rules
    if rules.modifiers is ModifierPolicy.LARGEST:
        return gettext("Only the largest bonus and the largest penalty count.")
    if rules.modifiers is ModifierPolicy.CAPPED:
        return gettext("All of them count, up to %(bonus)s or %(penalty)s in all.") % {
            "bonus": f"{rules.modifier_cap:+d}",
            "penalty": f"-{rules.modifier_cap}",
        }
    return ""


def spend_fudge_point(membership: Membership, roll_id: int, data: Any) -> tuple[Roll | None, str]:
    """A Fudge point spent on the entry ``roll_id`` as a spend form posts it (``data``): the
    new entry, or the words of why not. Raises 404 for an entry this person may not read and
    403 for a PC that is not theirs (a GM spends for any). The roller's answer and the
    composer's (rolls.talk) both spend this way."""
    spent_on = log_selectors.entry_or_404(membership, roll_id, in_full=True)
    if not may_spend_for(membership, spent_on):
        raise PermissionDenied(
            gettext("Only the character's player or a GM spends its Fudge points.")
        )
    form = FudgePointForm(data)
    if not form.is_valid():
        return None, gettext("Pick how to spend the Fudge point.")
    if (
        spent_on.hidden_difficulty
        and not membership.is_gm
        and form.cleaned_data["use"] in fragments.ON_A_FAILURE
    ):
        # Whether it failed is what the hidden difficulty hides; the GM decides this one.
        return None, gettext("Only the GM turns a roll against a hidden difficulty into a success.")
    try:
        made = fudge_points.roll_fudge_point(
            membership=membership,
            key=form.cleaned_data["key"],
            roll=spent_on,
            use=form.cleaned_data["use"],
            faces=form.cleaned_data["faces"].strip() or None,
        )
    except RulesError as error:
        return None, refusal_words(error)
    return made, ""


@require_POST
@login_required
def fudge_point(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    made, problem = spend_fudge_point(membership, roll_id, request.POST)
    if not request.htmx:
        return spent_on_a_page(request, membership, made, problem)
    return _outcome(request, membership, made=made, problem=problem)


def spent_on_a_page(
    request: AuthenticatedHttpRequest, membership: Membership, made: Roll | None, problem: str
) -> HttpResponse:
    """A spend sent without htmx (no JavaScript): back to the table, told in a message."""
    if problem:
        messages.error(request, problem)
    elif made is not None:
        messages.info(request, fragments.roll_summary(made, gm_view=membership.is_gm))
    return back_to_table(request, membership.campaign_id)


@require_POST
@login_required
def note(request: AuthenticatedHttpRequest, campaign_id: int, roll_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    noted = log_selectors.entry_or_404(membership, roll_id)
    if noted.kind in (Roll.Kind.MESSAGE, Roll.Kind.ANNOUNCEMENT):
        # A note is on a roll (its form is offered there alone): a message or a whisper that
        # changed would go to its own audience, and none of them shows one.
        raise Http404(gettext("A GM note goes on a roll"))
    form = NoteForm(request.POST)
    if form.is_valid():
        services.roll_note(roll=noted, note=form.cleaned_data["note"])
    elif not request.htmx:
        messages.error(request, gettext("A GM note fits in 500 characters."))
    if request.htmx:
        # The table's sockets get the annotated entry; nothing else on the page changes.
        return HttpResponse(status=204 if form.is_valid() else 422)
    return back_to_table(request, campaign_id)
