"""The GMs' pages for preparing scenes before play: the list of scenes, and one scene with its
backdrop, areas, the ranges between them, who is in it and its cards. Plain pages with plain
forms (a picture goes up with them): each form posts, is refused in words or saved, and comes
back to the page. What changes the scene the table sees reaches the table at once."""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from campaigns.access import gm_or_403
from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules import areas as area_rules
from fudgetable.rules import ranged
from fudgetable.shown_ids import AREA, LENGTH
from rolls.gm_cards import choices_of, first_error
from rolls.scene import cards as scene_cards
from rolls.scene import services as scenes
from rolls.scene.ids import KIND_OF, named
from rolls.scene.models import BOARD_COLUMNS, BOARD_ROWS, Area, Card, Figure, Picture, Scene
from rolls.scene.selectors import board
from rolls.scene.views import MAX_ID, card_from_form, kept, with_picture


class SceneForm(forms.Form):
    title = forms.CharField(max_length=scenes.TITLE_LENGTH, label=gettext_lazy("Title"))
    description = forms.CharField(
        max_length=scenes.DESCRIPTION_LENGTH, required=False, label=gettext_lazy("Description")
    )
    backdrop = forms.FileField(required=False, label=gettext_lazy("Backdrop"))
    no_backdrop = forms.BooleanField(required=False)
    player_cards = forms.BooleanField(required=False)
    # The area the PCs stand in when the scene is shown, by the id the page showed ("": none).
    start_area = forms.CharField(required=False, max_length=64)


class AreaForm(forms.Form):
    name = forms.CharField(max_length=scenes.AREA_NAME_LENGTH, label=gettext_lazy("Name"))
    notes = forms.CharField(
        max_length=scenes.NOTES_LENGTH, required=False, label=gettext_lazy("Notes")
    )
    light = forms.ChoiceField(choices=choices_of(ranged.LIGHT), label=gettext_lazy("Light"))
    cover = forms.ChoiceField(choices=choices_of(ranged.COVER), label=gettext_lazy("Cover"))
    hidden = forms.BooleanField(required=False)
    column = forms.IntegerField(min_value=1, max_value=BOARD_COLUMNS, required=False)
    row = forms.IntegerField(min_value=1, max_value=BOARD_ROWS, required=False)
    width = forms.IntegerField(min_value=1, max_value=BOARD_COLUMNS, required=False)
    height = forms.IntegerField(min_value=1, max_value=BOARD_ROWS, required=False)

    def place(self, fallback: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
        data = self.cleaned_data
        keys = ("column", "row", "width", "height")
        return tuple(  # type: ignore[return-value]
            data[key] if data[key] is not None else fallback[at] for at, key in enumerate(keys)
        )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def scene_list(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    campaign = membership.campaign
    form = SceneForm(request.POST or None, request.FILES or None)
    if request.method == "POST":
        if not form.is_valid():
            messages.error(request, first_error(form))
        else:
            made: list[Scene] = []
            data = form.cleaned_data

            def make(backdrop: Picture | None) -> None:
                made.append(
                    scenes.scene_create(
                        campaign=campaign,
                        title=data["title"],
                        description=data["description"],
                        backdrop=backdrop,
                    )
                )

            problem = with_picture(request, membership, data["backdrop"], make)
            if not problem:
                return redirect("rolls:scene_edit", campaign_id, made[0].pk)
            messages.error(request, problem)
    listed = Scene.objects.filter(campaign=campaign).prefetch_related("areas", "cards", "figures")
    context = {"campaign": campaign, "scenes": listed, "form": form}
    return render(request, "rolls/scene/list.html", context, status=400 if form.errors else 200)


def _row(model: type[Any], scene: Scene, value: str) -> Any:
    """The part of ``scene`` a form's value names by the id the page showed."""
    return get_object_or_404(model, pk=named(KIND_OF[model], value), scene=scene)


def _save_scene(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    form = SceneForm(request.POST, request.FILES)
    if not form.is_valid():
        return first_error(form)
    data = form.cleaned_data
    # A form without the field (an older page) leaves the starting area as it is.
    start: object = scenes.KEEP
    if "start_area" in request.POST:
        start = _row(Area, scene, data["start_area"]) if data["start_area"] else None

    def save(picture: Picture | None) -> None:
        backdrop: object = scenes.KEEP
        if picture is not None:
            backdrop = picture
        elif data["no_backdrop"]:
            backdrop = None
        scenes.scene_update(
            scene=scene,
            title=data["title"],
            description=data["description"],
            player_cards=data["player_cards"],
            backdrop=backdrop,
            start_area=start,
        )

    return with_picture(request, m, data["backdrop"], save)


def _area_fields(request: AuthenticatedHttpRequest, fallback: tuple[int, int, int, int]) -> Any:
    form = AreaForm(request.POST)
    if not form.is_valid():
        raise ValidationError(first_error(form))
    data = form.cleaned_data
    return {
        "name": data["name"],
        "notes": data["notes"],
        "light": data["light"],
        "cover": data["cover"],
        "hidden": data["hidden"],
        "place": form.place(fallback),
    }


def _new_area(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    fallback = scenes.next_place(scene.areas.count())
    return kept(lambda: scenes.area_create(scene=scene, **_area_fields(request, fallback)))


def _save_area(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    area = _row(Area, scene, request.POST.get("area", ""))
    fallback = (area.column, area.row, area.width, area.height)
    return kept(lambda: scenes.area_update(area=area, **_area_fields(request, fallback)))


def _delete_area(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    area = _row(Area, scene, request.POST.get("area", ""))
    return kept(lambda: scenes.area_delete(area=area))


def _range_pair(name: str) -> tuple[int, int] | None:
    """The two areas a select named "range-<id>-<id>" names (the ids pages show, which may
    hold a "-" themselves, so they are read by their length), or None."""
    pair = name.removeprefix("range-")
    if len(pair) != 2 * LENGTH + 1 or pair[LENGTH] != "-":
        return None
    first, second = AREA.decode(pair[:LENGTH]), AREA.decode(pair[LENGTH + 1 :])
    return None if first is None or second is None else (first, second)


def _ranges(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    """Each pair's select is named "range-<id>-<id>"."""
    chosen = {}
    for name in request.POST:
        value = request.POST.get(name, "")
        if not name.startswith("range-"):
            continue
        pair = _range_pair(name)
        if pair is None:
            return _("A range names two areas.")
        chosen[pair] = value
    return kept(lambda: scenes.ranges_set(scene=scene, ranges=chosen))


def _new_card(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    return card_from_form(request, m, scene)


def _delete_card(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    card = _row(Card, scene, request.POST.get("card", ""))
    return kept(lambda: scene_cards.card_delete(membership=m, card=card))


def _add_figures(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    wanted = [v for v in request.POST.getlist("character") if v.isdigit() and int(v) <= MAX_ID]
    characters = Character.objects.filter(campaign_id=scene.campaign_id, pk__in=wanted)
    area = None
    if request.POST.get("area"):
        area = _row(Area, scene, request.POST["area"])

    def add() -> None:
        for character in characters:
            scenes.figure_add(scene=scene, character=character, area=area)

    return kept(add)


def _remove_figure(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    figure = _row(Figure, scene, request.POST.get("figure", ""))
    return kept(lambda: scenes.figure_remove(figure=figure))


def _show(request: AuthenticatedHttpRequest, m: Membership, scene: Scene) -> str:
    return kept(lambda: scenes.scene_switch(campaign=m.campaign, scene=scene))


ACTIONS: dict[str, Callable[[AuthenticatedHttpRequest, Membership, Scene], str]] = {
    "save": _save_scene,
    "area-new": _new_area,
    "area-save": _save_area,
    "area-delete": _delete_area,
    "ranges": _ranges,
    "card-new": _new_card,
    "card-delete": _delete_card,
    "figures-add": _add_figures,
    "figure-remove": _remove_figure,
    "show": _show,
}


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def scene_edit(request: AuthenticatedHttpRequest, campaign_id: int, scene_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    scene = get_object_or_404(
        Scene.objects.select_related("campaign"), pk=scene_id, campaign_id=campaign_id
    )
    if request.method == "POST":
        action = request.POST.get("action", "")
        if action == "delete":
            scenes.scene_delete(scene=scene)
            messages.success(request, _("The scene %(title)s is removed.") % {"title": scene.title})
            return redirect("rolls:scenes", campaign_id)
        if action not in ACTIONS:
            raise Http404(_("No such action"))
        problem = ACTIONS[action](request, membership, scene)
        if problem:
            messages.error(request, problem)
        else:
            messages.success(request, _("Saved."))
        return redirect(f"{request.path}#{action.split('-')[0]}")
    return render(request, "rolls/scene/edit.html", _edit_context(membership, scene))


def _edit_context(membership: Membership, scene: Scene) -> dict[str, object]:
    campaign = membership.campaign
    shown = board(campaign, gm_view=True, scene=scene)
    areas = list(scene.areas.all())
    scale = area_rules.ranges_for(campaign_ruleset(campaign).key)
    pairs = [
        (first, second, area_rules.range_between(scale, scene.ranges, first.pk, second.pk))
        for at, first in enumerate(areas)
        for second in areas[at + 1 :]
    ]
    present = {f.character_id for f in scene.figures.all()}
    return {
        "campaign": campaign,
        "scene": scene,
        "board": shown,
        "gm_view": True,
        "areas": areas,
        "pairs": pairs,
        "scale": scale,
        "light": choices_of(ranged.LIGHT),
        "cover": choices_of(ranged.COVER),
        "figures": scene.figures.select_related("character", "area"),
        "absent": campaign.characters.exclude(pk__in=present).order_by("kind", "name"),
        "cards": scene.cards.select_related("area"),
    }
