"""The scene's commands at the table: showing a scene, moving a figure, a fight's rounds,
bringing figures in, cards and handouts, and the pictures themselves.

Each command's change is pushed to every screen at the table (the sender's too), so an htmx
command is answered with nothing to swap (204) or its refusal in words (422, shown in the
page's notice); a plain POST goes back to the table with a message. Outsiders get a 404,
players a 403 on a GM's command. A scene's parts are named by the ids pages show
(``rolls.scene.ids``); one naming no part of the scene, or none at all, is a 404 alike."""

from collections.abc import Callable

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import is_ratelimited

from campaigns.access import gm_or_403, membership_or_404
from campaigns.models import Membership
from characters.models import Character
from characters.services import npc_set_revealed
from fudgetable.http import AuthenticatedHttpRequest, refusal
from fudgetable.shown_ids import AREA, CARD, FIGURE, SCENE
from rolls.gm_cards import attempt, first_error
from rolls.scene import cards as scene_cards
from rolls.scene import moves as scene_moves
from rolls.scene import party, pictures, pings
from rolls.scene import services as scenes
from rolls.scene.ids import named
from rolls.scene.models import Area, Card, Figure, Picture, Scene
from rolls.scene.selectors import current_scene

MAX_ID = 2**31 - 1


class MoveForm(forms.Form):
    figure = forms.CharField()
    area = forms.CharField()
    # The area the page showed the figure in ("0": not placed); blank from a page without it.
    seen_in = forms.CharField(required=False)
    override = forms.BooleanField(required=False)


class CardForm(forms.Form):
    title = forms.CharField(max_length=scene_cards.TITLE_LENGTH)
    text = forms.CharField(max_length=scene_cards.TEXT_LENGTH, required=False)
    area = forms.CharField(required=False)
    shown = forms.ChoiceField(choices=[(Card.Shown.GM, ""), (Card.Shown.EVERYONE, "")])
    picture = forms.FileField(required=False)


class PingForm(forms.Form):
    kind = forms.ChoiceField(choices=[(kind, kind) for kind in pings.KINDS])
    part = forms.CharField(max_length=64)
    look = forms.BooleanField(required=False)


class RevealForm(forms.Form):
    shown = forms.ChoiceField(choices=Card.Shown.choices)
    people = forms.TypedMultipleChoiceField(coerce=int, required=False, choices=[])
    area = forms.CharField(required=False)

    def __init__(self, *args: object, people: list[int], **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["people"].choices = [(pk, pk) for pk in people]  # type: ignore[attr-defined]


def _done(request: AuthenticatedHttpRequest, campaign_id: int, problem: str = "") -> HttpResponse:
    """Nothing to swap (every screen hears of it), or the refusal in words."""
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("rolls:table", campaign_id)
    return refusal(problem) if problem else HttpResponse(status=204)


def kept(action: Callable[[], object]) -> str:
    """Runs a command in one transaction (a picture and its card are kept together, or
    neither is): its refusal as a sentence, or "" when it is kept."""

    def atomically() -> None:
        with transaction.atomic():
            action()

    return attempt(atomically)


def _scene_here(campaign_id: int) -> Scene:
    scene = current_scene(campaign_id)
    if scene is None:
        raise Http404(_("No scene is shown"))
    return scene


def _area(scene: Scene, shown: str) -> Area | None:
    """The area of ``scene`` a form's value names (blank: none)."""
    if not shown:
        return None
    return get_object_or_404(Area, pk=named(AREA, shown), scene=scene)


@require_POST
@login_required
def scene_switch(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    chosen = request.POST.get("scene", "")
    scene = None
    if chosen:
        scene = get_object_or_404(Scene, pk=named(SCENE, chosen), campaign_id=campaign_id)
    problem = kept(lambda: scenes.scene_switch(campaign=membership.campaign, scene=scene))
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def figure_move(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    form = MoveForm(request.POST)
    if not form.is_valid():
        return _done(request, campaign_id, _("Pick who moves and where to."))
    data = form.cleaned_data
    figure_id, area_id = named(FIGURE, data["figure"]), named(AREA, data["area"])
    seen = data["seen_in"]
    seen_in = None if not seen else 0 if seen == "0" else named(AREA, seen)
    try:
        problem = kept(
            lambda: scene_moves.figure_move(
                membership=membership,
                figure_id=figure_id,
                area_id=area_id,
                seen_in=seen_in,
                override=data["override"],
            )
        )
    except (Figure.DoesNotExist, Area.DoesNotExist) as missing:
        raise Http404(_("No such figure or area in the scene")) from missing
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def scene_ping(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """Anyone at the table points at a part of the scene they see (``rolls.scene.pings``)."""
    membership = membership_or_404(request.user, campaign_id)
    form = PingForm(request.POST)
    if not form.is_valid():
        return _done(request, campaign_id, _("Pick what to point at."))
    if is_ratelimited(
        request, group="ping", key="user", rate=f"{settings.PINGS_PER_MINUTE}/m", increment=True
    ):
        return _done(request, campaign_id, _("That is a lot of pointing; wait a moment."))
    data = form.cleaned_data
    kind = {"area": AREA, "figure": FIGURE, "card": CARD}[data["kind"]]
    try:
        pings.scene_ping(
            membership=membership,
            kind=data["kind"],
            part_id=named(kind, data["part"]),
            look=data["look"],
        )
    except pings.NotSeen as unseen:
        raise Http404(_("Nothing of the scene by that id")) from unseen
    return _done(request, campaign_id)


@require_POST
@login_required
def scene_round(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    gm_or_403(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    step, at = request.POST.get("step", ""), request.POST.get("at", "")[:20]
    problem = kept(lambda: scene_moves.round_step(scene=scene, step=step, at=at))
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def figure_add(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    gm_or_403(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    character = _id_of(request.POST.get("character", ""))
    found = get_object_or_404(Character, pk=character, campaign_id=campaign_id)
    area = _area(scene, request.POST.get("area", ""))
    problem = kept(lambda: scenes.figure_add(scene=scene, character=found, area=area))
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def party_here(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The GM's "Everyone here" on an area: every PC not placed yet stands there."""
    gm_or_403(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    area = _area(scene, request.POST.get("area", ""))
    if area is None:
        return _done(request, campaign_id, _("Pick the area the party stands in."))
    problem = kept(lambda: party.party_here(scene=scene, area=area))
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def figure_reveal(
    request: AuthenticatedHttpRequest, campaign_id: int, figure_id: int
) -> HttpResponse:
    """A GM's tap on an NPC's figure: the players see it now (``revealed=1``), or no longer.
    Every screen hears of it (``scenes.npc_shown``), the roster's tap's alike."""
    gm_or_403(request.user, campaign_id)
    found = Figure.objects.select_related("character")
    figure = get_object_or_404(found, pk=figure_id, scene__campaign_id=campaign_id)
    revealed = request.POST.get("revealed") == "1"
    problem = kept(lambda: npc_set_revealed(npc=figure.character, revealed=revealed))
    return _done(request, campaign_id, problem)


def _id_of(value: str) -> int:
    """A character's id from a GM's form (characters go by their database ids)."""
    if not value.isdigit() or int(value) > MAX_ID:
        raise Http404(_("No such row"))
    return int(value)


@require_POST
@login_required
def player_cards(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    gm_or_403(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    allow = request.POST.get("allow") == "1"
    scenes.scene_set_player_cards(scene=scene, allow=allow)
    return _done(request, campaign_id)


def picture_of(
    request: AuthenticatedHttpRequest, membership: Membership, upload: object
) -> pictures.Encoded | None:
    """The uploaded picture, checked and drawn again (None: none sent). Drawing costs up to
    a second of CPU, so what costs nothing is checked first: the person's pictures this hour
    (``UPLOADS_PER_HOUR``), the file's size, then the campaign's room
    (``pictures.picture_draw``). A 113 KB file of 40 million pixels, sent two at a time to a
    campaign whose pictures were full, was drawn and refused again and again (issue 37)."""
    if upload is None:
        return None
    if is_ratelimited(
        request,
        group="picture",
        key="user",
        rate=f"{settings.UPLOADS_PER_HOUR}/h",
        increment=True,
    ):
        raise pictures.PictureRefused(
            _("You may send %(count)s pictures an hour; try again later.")
            % {"count": settings.UPLOADS_PER_HOUR}
        )
    data = pictures.read_upload(upload)  # type: ignore[arg-type]
    return pictures.picture_draw(campaign=membership.campaign, data=data)


def with_picture(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    upload: object,
    keep: Callable[[Picture | None], object],
) -> str:
    """Runs ``keep`` with the uploaded picture (None: none sent) in one transaction, so the
    picture and what shows it are kept together, or neither is: the refusal in words, or "".
    The picture is drawn before, outside it: on SQLite a transaction holds the one write
    lock, and a picture drawn inside one held every table's rolls for the second it took."""
    drawn: list[pictures.Encoded | None] = []
    problem = attempt(lambda: drawn.append(picture_of(request, membership, upload)))
    if problem:
        return problem

    def keep_both() -> None:
        picture = None
        if drawn[0] is not None:
            picture = pictures.picture_keep(
                campaign=membership.campaign, uploaded_by_id=membership.user_id, encoded=drawn[0]
            )
        keep(picture)

    return kept(keep_both)


@require_POST
@login_required
def card_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    if not membership.is_gm and not scene.player_cards:
        return _done(request, campaign_id, _("Only the GMs add cards to this scene."))
    return _done(request, campaign_id, card_from_form(request, membership, scene))


def card_from_form(request: AuthenticatedHttpRequest, membership: Membership, scene: Scene) -> str:
    """A new card as its form (at the table, or on the scene's page) says, its picture with
    it: kept together, or neither is. The refusal in words, or ""."""
    form = CardForm(request.POST, request.FILES)
    if not form.is_valid():
        return first_error(form)
    data = form.cleaned_data

    def make(picture: Picture | None) -> None:
        scene_cards.card_create(
            membership=membership,
            scene=scene,
            title=data["title"],
            text=data["text"],
            area=_area(scene, data["area"]),
            shown=data["shown"],
            picture=picture,
        )

    return with_picture(request, membership, data["picture"], make)


@require_POST
@login_required
def card_reveal(request: AuthenticatedHttpRequest, campaign_id: int, card_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    card = get_object_or_404(Card, pk=card_id, scene__campaign_id=campaign_id)
    people = list(
        Membership.objects.filter(campaign_id=campaign_id).values_list("user_id", flat=True)
    )
    form = RevealForm(request.POST, people=people)
    if not form.is_valid():
        return _done(request, campaign_id, _("Pick who sees the card."))
    data = form.cleaned_data
    area = _area(card.scene, data["area"])
    problem = kept(
        lambda: scene_cards.card_reveal(
            membership=membership, card=card, shown=data["shown"], people=data["people"], area=area
        )
    )
    return _done(request, campaign_id, problem)


def _on_card(
    request: AuthenticatedHttpRequest,
    campaign_id: int,
    card_id: int,
    command: Callable[..., object],
) -> HttpResponse:
    """A GM's command on one card of the campaign's."""
    membership = gm_or_403(request.user, campaign_id)
    card = get_object_or_404(Card, pk=card_id, scene__campaign_id=campaign_id)
    problem = kept(lambda: command(membership=membership, card=card))
    return _done(request, campaign_id, problem)


@require_POST
@login_required
def card_delete(request: AuthenticatedHttpRequest, campaign_id: int, card_id: int) -> HttpResponse:
    return _on_card(request, campaign_id, card_id, scene_cards.card_delete)


@require_POST
@login_required
def handout_show(request: AuthenticatedHttpRequest, campaign_id: int, card_id: int) -> HttpResponse:
    return _on_card(request, campaign_id, card_id, scene_cards.handout_show)


@require_POST
@login_required
def handout_hide(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    scene = _scene_here(campaign_id)
    problem = kept(lambda: scene_cards.handout_hide(membership=membership, scene=scene))
    return _done(request, campaign_id, problem)


@require_safe
@login_required
@cache_control(private=True, max_age=86400)
def picture(request: AuthenticatedHttpRequest, campaign_id: int, token: str) -> HttpResponse:
    """A picture by its token, to a member while something shown to them shows it; anyone
    else a 404. A picture never changes (a new one is a new row and token), so the browser
    keeps it a day, privately."""
    membership = membership_or_404(request.user, campaign_id)
    found = Picture.objects.filter(token=token, campaign_id=campaign_id).first()
    if found is None or not pictures.may_see(membership, found):
        raise Http404(_("No such picture"))
    etag = f'"{found.digest}"'
    if request.headers.get("If-None-Match") == etag:
        return HttpResponse(status=304, headers={"ETag": etag})
    data = Picture.objects.filter(pk=found.pk).values_list("data", flat=True).get()
    response = HttpResponse(bytes(data), content_type=found.content_type)
    response["ETag"] = etag
    response["Content-Disposition"] = "inline"
    return response
