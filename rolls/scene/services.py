"""Scenes and their areas: a GM prepares them before play and shows one to the table, which
sees it change as it is edited. Who stands where and the fight's rounds are in
``moves``; cards and handouts in ``cards``.

Each command writes in one transaction and, when it changes what the table sees (the current
scene), pushes the parts it changed, numbered, per audience (``fragments``). Refusals
are ``ValidationError`` or ``RulesError`` in the GM's words; nothing is half-saved."""

from collections.abc import Mapping

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.models import Character
from characters.signals import npc_shown_changed, sheet_changed
from fudgetable.row_lock import hold
from fudgetable.rules import areas as area_rules
from fudgetable.rules import ranged
from rolls.entry_words import said
from rolls.scene import party, pictures
from rolls.scene.fragments import publish_areas, publish_scene
from rolls.scene.models import BOARD_COLUMNS, BOARD_ROWS, Area, Figure, Picture, Scene
from rolls.scene.selectors import current_scene, on_players_board
from rolls.scene.signals import round_moved
from rolls.services import roll_announce

MAX_SCENES = 100
MAX_AREAS = 30
MAX_FIGURES = 60
TITLE_LENGTH = 120
DESCRIPTION_LENGTH = 2000
AREA_NAME_LENGTH = 60
NOTES_LENGTH = 500
KEEP = object()  # "leave the backdrop as it is"


def _text(value: str, limit: int, what: str, *, required: bool = False) -> str:
    value = value.strip()
    if required and not value:
        raise ValidationError(_("%(what)s is needed.") % {"what": what})
    if len(value) > limit:
        raise ValidationError(
            _("%(what)s fits in %(limit)d characters.") % {"what": what, "limit": limit}
        )
    return value


def _publish_if_current(
    scene: Scene, event: str, *, tool: bool = False, players: bool = True
) -> None:
    """``players=False``: a change the players may not see (a hidden area, an NPC they have
    not met) goes to the GMs alone, so the players' count does not move either."""
    if scene.current:
        publish_scene(scene.campaign, event, tool=tool, players=players)
    elif tool:  # the GMs' list of scenes to show
        publish_scene(scene.campaign, event, parts=(), players=False, tool=True)


@transaction.atomic
def scene_create(
    *, campaign: Campaign, title: str, description: str = "", backdrop: Picture | None = None
) -> Scene:
    hold(campaign)  # two scenes made at once cannot both squeeze under the limit
    if Scene.objects.filter(campaign=campaign).count() >= MAX_SCENES:
        raise ValidationError(_("A campaign keeps at most %(most)d scenes.") % {"most": MAX_SCENES})
    scene = Scene.objects.create(
        campaign=campaign,
        title=_text(title, TITLE_LENGTH, _("A title"), required=True),
        description=_text(description, DESCRIPTION_LENGTH, _("The description")),
        backdrop=backdrop,
    )
    _publish_if_current(scene, "scene.created", tool=True)
    return scene


def locked(scene: Scene) -> Scene:
    """The scene's row, locked for the command, with its campaign."""
    return Scene.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=scene.pk)


@transaction.atomic
def scene_update(
    *,
    scene: Scene,
    title: str,
    description: str,
    player_cards: bool,
    backdrop: object = KEEP,
    start_area: object = KEEP,
) -> Scene:
    """The scene's words, whether players may add cards, its backdrop (``KEEP``, a new
    picture, or None to take it away), and the area the PCs stand in when it is shown
    (``KEEP``, an area of the scene the players see, or None: brought in not placed)."""
    scene = locked(scene)
    scene.title = _text(title, TITLE_LENGTH, _("A title"), required=True)
    scene.description = _text(description, DESCRIPTION_LENGTH, _("The description"))
    scene.player_cards = player_cards
    if start_area is not KEEP:
        assert start_area is None or isinstance(start_area, Area)
        scene.start_area = party.checked_start(scene, start_area)
    old = scene.backdrop
    if backdrop is not KEEP:
        assert backdrop is None or isinstance(backdrop, Picture)
        scene.backdrop = backdrop
    scene.save()
    if backdrop is not KEEP and old is not None and old != backdrop:
        pictures.picture_forget(old)
    _publish_if_current(scene, "scene.changed", tool=True)
    return scene


@transaction.atomic
def scene_set_player_cards(*, scene: Scene, allow: bool) -> Scene:
    scene = locked(scene)
    scene.player_cards = allow
    scene.save(update_fields=["player_cards"])
    _publish_if_current(scene, "scene.changed", tool=True)
    return scene


@transaction.atomic
def scene_delete(*, scene: Scene) -> None:
    scene = locked(scene)
    was_current, campaign = scene.current, scene.campaign
    used = [scene.backdrop, *(card.picture for card in scene.cards.select_related("picture"))]
    scene.delete()
    for picture in used:
        pictures.picture_forget(picture)
    if was_current:
        publish_scene(campaign, "scene.switched", tool=True)
    else:
        publish_scene(campaign, "scene.deleted", parts=(), players=False, tool=True)


@transaction.atomic
def scene_switch(*, campaign: Campaign, scene: Scene | None) -> Scene | None:
    """Shows ``scene`` to the table (None: no scene), told in the log. A fight running in the
    scene left behind ends. Every PC not in the scene yet comes in, standing in its starting
    area if it has one (``party.bring_in``)."""
    Campaign.objects.select_for_update().filter(pk=campaign.pk).first()
    before = Scene.objects.filter(campaign=campaign, current=True).first()
    if before is not None and scene is not None and before.pk == scene.pk:
        return scene
    if before is not None:
        Scene.objects.filter(pk=before.pk).update(current=False, round=0, phase="", rolled={})
        Figure.objects.filter(scene=before).update(moved=0)
    if scene is not None:
        if scene.campaign_id != campaign.pk:
            raise ValidationError(_("That scene is not this campaign's."))
        scene.current = True
        scene.shown_at = scene.shown_at or timezone.now()
        scene.save(update_fields=["current", "shown_at"])
        lines = [said("scene-shown", title=scene.title)]
        # The party is on the stage from the start: nobody waits on three taps to be seen.
        start = Area.objects.filter(scene=scene, hidden=False, pk=scene.start_area_id or 0).first()
        came = party.bring_in(scene, start)
        if came and start is not None:
            names = [pc.name for pc in came]
            lines.append(party.stands_at(names, start, everyone=party.all_there(scene, start)))
    else:
        lines = [said("scene-cleared")]
    publish_scene(campaign, "scene.switched", tool=True)
    roll_announce(campaign=campaign, lines=lines, players=True)
    round_moved.send(sender=Scene, campaign=campaign)
    return scene


def _checked_area(
    name: str, notes: str, light: str, cover: str, place: tuple[int, int, int, int]
) -> tuple[str, str]:
    if light not in ranged.LIGHT or cover not in ranged.COVER:
        raise ValidationError(_("Pick the area's light and cover from the lists."))
    column, row, width, height = place
    if not (1 <= column <= BOARD_COLUMNS and 1 <= width <= BOARD_COLUMNS - column + 1):
        raise ValidationError(
            _("An area sits within the board's %(columns)d columns.") % {"columns": BOARD_COLUMNS}
        )
    if not (1 <= row <= BOARD_ROWS and 1 <= height <= BOARD_ROWS - row + 1):
        raise ValidationError(
            _("An area sits within the board's %(rows)d rows.") % {"rows": BOARD_ROWS}
        )
    return (
        _text(name, AREA_NAME_LENGTH, _("An area's name"), required=True),
        _text(notes, NOTES_LENGTH, _("An area's notes")),
    )


def next_place(count: int) -> tuple[int, int, int, int]:
    """Where a new area goes unless the GM says: three to a row, left to right."""
    return (count % 3) * 4 + 1, min((count // 3) * 2 + 1, BOARD_ROWS - 1), 4, 2


@transaction.atomic
def area_create(
    *,
    scene: Scene,
    name: str,
    notes: str = "",
    light: str = "good",
    cover: str = "none",
    hidden: bool = False,
    place: tuple[int, int, int, int] | None = None,
) -> Area:
    scene = locked(scene)
    count = Area.objects.filter(scene=scene).count()
    if count >= MAX_AREAS:
        raise ValidationError(_("A scene has at most %(most)d areas.") % {"most": MAX_AREAS})
    place = place or next_place(count)
    name, notes = _checked_area(name, notes, light, cover, place)
    last = Area.objects.filter(scene=scene).aggregate(last=Max("position"))["last"]
    column, row, width, height = place
    area = Area.objects.create(
        scene=scene,
        name=name,
        notes=notes,
        light=light,
        cover=cover,
        hidden=hidden,
        column=column,
        row=row,
        width=width,
        height=height,
        position=(last or 0) + 1,
    )
    _publish_if_current(scene, "scene.area", tool=True, players=not hidden)
    return area


@transaction.atomic
def area_update(
    *,
    area: Area,
    name: str,
    notes: str,
    light: str,
    cover: str,
    hidden: bool,
    place: tuple[int, int, int, int],
) -> Area:
    """An area's words, terrain, box, and whether the players see it. Someone the players
    see cannot stand in an area hidden from them."""
    scene = locked(area.scene)
    name, notes = _checked_area(name, notes, light, cover, place)
    unseen = hidden and area.hidden  # hidden before and after: the players saw nothing
    if hidden and not area.hidden:
        seen = [f for f in area.figures.select_related("character") if _shown(f.character)]
        if seen:
            raise ValidationError(
                _("%(name)s stands there, and the players see them: move them out first.")
                % {"name": seen[0].character.name}
            )
    area.name, area.notes, area.light, area.cover, area.hidden = name, notes, light, cover, hidden
    area.column, area.row, area.width, area.height = place
    area.save()
    _publish_if_current(scene, "scene.area", tool=True, players=not unseen)
    return area


def _shown(character: Character) -> bool:
    return not character.is_npc or character.revealed


@transaction.atomic
def area_delete(*, area: Area) -> None:
    """Removes an area; who stood there is not placed any more, and its ranges go."""
    scene = locked(area.scene)
    prefix, suffix = f"{area.pk}-", f"-{area.pk}"
    scene.ranges = {
        pair: key
        for pair, key in scene.ranges.items()
        if not (pair.startswith(prefix) or pair.endswith(suffix))
    }
    scene.save(update_fields=["ranges"])
    # Who stood in a hidden area is hidden too (``area_update``): the players lose nothing.
    hidden = area.hidden
    area.delete()
    _publish_if_current(scene, "scene.area", tool=True, players=not hidden)


@transaction.atomic
def ranges_set(*, scene: Scene, ranges: Mapping[tuple[int, int], str]) -> Scene:
    """The ranges between pairs of the scene's areas ("" leaves a pair unset, at the
    default). A pair of areas not in this scene, or a range the game does not measure in,
    is refused."""
    scene = locked(scene)
    scale = area_rules.ranges_for(campaign_ruleset(scene.campaign).key)
    hidden_of = dict(Area.objects.filter(scene=scene).values_list("pk", "hidden"))
    ids = set(hidden_of)
    before = dict(scene.ranges)
    chosen = dict(before)
    for (first, second), key in ranges.items():
        if first == second or not {first, second} <= ids:
            raise ValidationError(_("A range is set between two different areas of the scene."))
        pair = area_rules.pair_key(first, second)
        if not key:
            chosen.pop(pair, None)
            continue
        chosen[pair] = area_rules.check_range(scale, key).key
    scene.ranges = chosen
    scene.save(update_fields=["ranges"])
    changed = {
        pair for pair in before.keys() | chosen.keys() if before.get(pair) != chosen.get(pair)
    }
    # The players' board lists only the ranges between areas they see.
    seen = any(not any(hidden_of.get(int(pk), True) for pk in pair.split("-")) for pair in changed)
    _publish_if_current(scene, "scene.ranges", players=seen)
    return scene


@transaction.atomic
def figure_add(*, scene: Scene, character: Character, area: Area | None = None) -> Figure:
    """Brings a character into the scene, standing in ``area`` (None: not placed yet)."""
    scene = locked(scene)
    if character.campaign_id != scene.campaign_id:
        raise ValidationError(_("That character is not at this table."))
    if area is not None and area.scene_id != scene.pk:
        raise ValidationError(_("That area is not in this scene."))
    if area is not None and area.hidden and _shown(character):
        raise ValidationError(
            _("The players see %(name)s: they cannot stand in a hidden area.")
            % {"name": character.name}
        )
    if Figure.objects.filter(scene=scene).count() >= MAX_FIGURES:
        raise ValidationError(_("A scene holds at most %(most)d figures.") % {"most": MAX_FIGURES})
    figure, made = Figure.objects.get_or_create(
        scene=scene, character=character, defaults={"area": area}
    )
    if made:
        _publish_if_current(scene, "scene.figure", tool=True, players=on_players_board(figure))
    return figure


@transaction.atomic
def figure_remove(*, figure: Figure) -> None:
    scene = locked(figure.scene)
    seen = on_players_board(figure)
    figure.delete()
    _publish_if_current(scene, "scene.figure", tool=True, players=seen)


def npc_shown(*, npc: Character) -> None:
    """The players met the NPC, or lost sight of it (``characters.npc_set_revealed``, from
    the roster or a tap on its figure): its figure in the scene the table sees appears on
    the players' boards, or leaves them, at once, numbered with the table's other events.
    A figure they would not see anyway (not placed, or in a hidden area) sends them nothing;
    the GMs' board and tool mark it either way."""
    scene = current_scene(npc.campaign_id)
    if scene is None:
        return
    figure = Figure.objects.filter(scene=scene, character=npc).select_related("area").first()
    if figure is None:  # the GMs' list of whom to bring in says "hidden" or not
        publish_scene(scene.campaign, "npc.shown", parts=(), players=False, tool=True)
        return
    seen = figure.area is not None and not figure.area.hidden
    publish_scene(scene.campaign, "npc.shown", parts=("board", "round"), players=seen, tool=True)


def _npc_shown_changed(sender: object, *, npc: Character, **kwargs: object) -> None:
    npc_shown(npc=npc)


def figure_vitals_changed(*, character: Character) -> None:
    """A sheet changed: if its character stands in the scene the table sees, that area's box is
    drawn again once the change commits, so its token shows the wound and Fudge points saved.
    One query when the character has no figure there."""
    figure = (
        Figure.objects.filter(
            scene__campaign_id=character.campaign_id, scene__current=True, character=character
        )
        .select_related("area", "character")
        .first()
    )
    if figure is None or figure.area is None:
        return
    players = on_players_board(figure)
    campaign, area_id = figure.scene.campaign, figure.area.pk

    def push() -> None:
        ruleset = campaign_ruleset(campaign)
        publish_areas(campaign, [area_id], "figure.vitals", players=players, ruleset=ruleset)

    transaction.on_commit(push)


def _sheet_changed(sender: object, *, character: Character, **kwargs: object) -> None:
    figure_vitals_changed(character=character)


def connect() -> None:
    """Has the table hear of an NPC shown or hidden, and of a sheet's change
    (``characters.signals``)."""
    npc_shown_changed.connect(_npc_shown_changed, dispatch_uid="table-npc-shown")
    sheet_changed.connect(_sheet_changed, dispatch_uid="table-figure-vitals")
