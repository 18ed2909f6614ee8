from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe
from django_htmx.http import reswap

from campaigns.access import membership_or_404
from campaigns.models import Membership
from characters import services, sheet_news
from characters.access import character_or_404, editable_or_403
from characters.commands import COMMANDS, Undo
from characters.forms import CharacterCreateForm, ProfileForm
from characters.live_sheets import fighters_changed, party_changed, sheet_changed
from characters.models import Character, PeoplePackage
from characters.selectors import characters_visible_to, sheet_queryset
from characters.sheet_page import LIVE, MESSAGES, draw, drawn_for_gms, page_context
from fudgetable.http import AuthenticatedHttpRequest, form_errors
from fudgetable.offline import offline_copy
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said


@offline_copy
@require_safe
@login_required
def character_list(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    visible = characters_visible_to(membership)
    return render(
        request,
        "characters/list.html",
        {
            "campaign": membership.campaign,
            "membership": membership,
            "characters": visible.filter(kind=Character.Kind.PC),
            # Revealed ones only, for GMs too: the list shows what the players see.
            "npcs": visible.filter(kind=Character.Kind.NPC, revealed=True),
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def character_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Observers watch; they do not keep characters."))
    campaign = membership.campaign
    packages = {p.pk: p for p in PeoplePackage.objects.filter(campaign=campaign)}
    form = CharacterCreateForm(
        request.POST or None,
        packages=[(pk, p.name) for pk, p in packages.items()],
        gm=membership.is_gm,
    )
    if request.method == "POST" and form.is_valid():
        package_id = form.cleaned_data.get("people_package")
        character = services.character_create(
            campaign=campaign,
            owner=None if form.cleaned_data.get("ready_made") else request.user,
            name=form.cleaned_data["name"],
            people_package=packages.get(package_id) if package_id else None,
        )
        return redirect("characters:sheet", campaign.pk, character.pk)
    return render(request, "characters/create.html", {"campaign": campaign, "form": form})


@require_POST
@login_required
def character_take(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    """A player takes a ready-made PC as theirs, and goes to its sheet."""
    membership, character = character_or_404(request.user, campaign_id, character_id, whole=False)
    try:
        services.character_take(character=character, player=membership)
    except RulesError as error:
        messages.error(request, said(error.message)[:1].upper() + said(error.message)[1:] + ".")
        return redirect("campaigns:detail", campaign_id)
    party_changed(membership.campaign)
    messages.success(request, gettext("%(name)s is yours to play.") % {"name": character.name})
    return redirect("characters:sheet", campaign_id, character_id)


def render_sheet(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    status: int = 200,
    *,
    live: bool = False,
) -> HttpResponse:
    """The sheet page; to htmx, the sheet alone, or with ``live`` (a tap that changes only
    them) its live parts and messages, each swapped in by id."""
    live = live and bool(request.htmx)
    template = "characters/sheet.html#sheet" if request.htmx else "characters/sheet.html"
    if character.is_npc and not membership.is_gm:
        template, live = "characters/npc_public.html", False
    context = page_context(character, membership, live=live, answer=live)
    response = render(request, LIVE if live else template, context, status=status)
    return reswap(response, "none") if live else response


@offline_copy
@require_safe
@login_required
def sheet(request: AuthenticatedHttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    membership, character = character_or_404(request.user, campaign_id, character_id)
    return render_sheet(request, character, membership)


@require_POST
@login_required
def sheet_command(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int, command: str
) -> HttpResponse:
    """Runs one small command on a sheet and answers with the sheet as it now stands."""
    spec = COMMANDS.get(command)
    if spec is None:
        raise Http404(gettext("No such command"))
    membership, character = editable_or_403(request.user, campaign_id, character_id)
    if spec.gm_only and not membership.is_gm:
        raise PermissionDenied(gettext("Only the GM can do that."))
    form = spec.form(request.POST)
    # A GM's change to a player's PC is told to that player, in words (``sheet_news``).
    watched = spec.live and character.owner_id not in (None, request.user.pk)
    before = sheet_news.vitals_of(character) if watched else None
    if spec.building_only and not membership.is_gm and character.stage != Character.Stage.DRAFT:
        messages.error(request, gettext("This character is finished: spend XP to raise a trait."))
    elif not form.is_valid():
        form_errors(request, form)
    else:
        try:
            done = spec.run(membership, character, form.cleaned_data)
        except RulesError as error:
            messages.error(request, said(error.message))
        else:
            if spec.fighting:
                fighters_changed(character)
            undo = done if isinstance(done, Undo) else None
            if undo:
                messages.success(request, undo.text)
            told = sheet_news.changes_told(character, before) if before else ""
            if spec.live and request.htmx:
                return _pushed_and_answered(
                    request, character, membership, spec.answers_live, undo=undo, told=told
                )
            if spec.live:
                sheet_changed(character, told=told, by=request.user.pk)
    if not request.htmx:
        return redirect("characters:sheet", campaign_id, character_id)
    character = sheet_queryset(character.campaign).get(pk=character.pk)
    return render_sheet(request, character, membership, live=spec.answers_live)


def _pushed_and_answered(
    request: AuthenticatedHttpRequest,
    character: Character,
    membership: Membership,
    live: bool,
    *,
    undo: Undo | None = None,
    told: str = "",
) -> HttpResponse:
    """A change that shows live: its parts as the GMs see them go to the open copies first;
    then the changer gets their own (``live``) or the whole sheet. ``told``: the change in
    words for the PC's player, when it was not them."""
    character = sheet_queryset(character.campaign).get(pk=character.pk)
    for_gms = drawn_for_gms(character, membership)
    sheet_changed(character, drawn={"gm": for_gms}, told=told, by=membership.user_id)
    if not live:
        return render_sheet(request, character, membership)
    mine = for_gms if membership.is_gm else draw(character, membership)
    undo_url = undo and reverse(
        "characters:command", args=[character.campaign_id, character.pk, undo.command]
    )
    answer = render(request, MESSAGES, {"live": True, "undo": undo, "undo_url": undo_url})
    answer.write(mine.for_copy(get_token(request), roll_key=mine.roll_key))
    return reswap(answer, "none")


@require_POST
@login_required
def profile(request: AuthenticatedHttpRequest, campaign_id: int, character_id: int) -> HttpResponse:
    """The one larger form on a sheet; it carries a version and a stale save is refused."""
    membership, character = editable_or_403(request.user, campaign_id, character_id)
    form = ProfileForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("characters:sheet", campaign_id, character_id)
    try:
        services.profile_update(
            character=character,
            version=form.cleaned_data["version"],
            name=form.cleaned_data["name"],
            description=form.cleaned_data["description"],
            notes=form.cleaned_data["notes"],
            mass_scale=form.cleaned_data["mass_scale"],
        )
    except services.StaleEdit:
        messages.error(
            request,
            gettext(
                "This sheet was saved on another device while you were editing, so your changes "
                "were not saved. The sheet below shows what it says now."
            ),
        )
        character = sheet_queryset(character.campaign).get(pk=character.pk)
        return render_sheet(request, character, membership, status=409)
    sheet_changed(character)
    fighters_changed(character)  # a new name, or a mass scale that changes a bow's INJ
    messages.success(request, gettext("Saved."))
    return redirect("characters:sheet", campaign_id, character_id)


@require_POST
@login_required
def character_delete(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    _, character = editable_or_403(request.user, campaign_id, character_id)
    if request.POST.get("confirm_name", "").strip() != character.name:
        messages.error(request, gettext("Type the character's name to delete it."))
        return redirect("characters:sheet", campaign_id, character_id)
    services.character_delete(character=character)
    messages.success(request, gettext("%(name)s was deleted.") % {"name": character.name})
    return redirect("characters:list", campaign_id)
