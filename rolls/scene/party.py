"""The party on the stage: the PCs stand in a scene from the moment it is shown (in the area the
GM picked to start in, or brought in not placed yet), and the GM's one tap, "Everyone here",
puts every PC not placed yet into an area. The players are told in the log and see their
tokens arrive on their boards.

PCs are always the players' to see, so every change here is pushed to every audience."""

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from characters.models import Character
from rolls.entry_words import Said, said
from rolls.scene.fragments import publish_scene
from rolls.scene.models import Area, Figure, Scene
from rolls.services import roll_announce

# The most figures a scene holds (``services.MAX_FIGURES`` keeps the same number; this module
# sits below ``services``, which calls it, so it cannot import it).
MAX_FIGURES = 60


def _pcs(scene: Scene) -> list[Character]:
    return list(
        Character.objects.filter(campaign_id=scene.campaign_id, kind=Character.Kind.PC).order_by(
            "name", "pk"
        )
    )


def bring_in(scene: Scene, area: Area | None) -> list[Character]:
    """Every PC of the campaign not yet a figure of ``scene`` comes in, standing in ``area``
    (None, or one hidden from the players: not placed yet, since the players see every PC).
    As many as the scene still holds; the caller pushes and tells. Returns who came in."""
    if area is not None and (area.hidden or area.scene_id != scene.pk):
        area = None
    present = set(Figure.objects.filter(scene=scene).values_list("character_id", flat=True))
    room = MAX_FIGURES - len(present)
    coming = [pc for pc in _pcs(scene) if pc.pk not in present][: max(room, 0)]
    Figure.objects.bulk_create(
        [Figure(scene=scene, character=pc, area=area) for pc in coming],
        ignore_conflicts=True,  # one brought in meanwhile by another tap stays as it is
    )
    return coming


def checked_start(scene: Scene, area: Area | None) -> Area | None:
    """The area a GM picked for the PCs to start in, refused in words if it cannot be."""
    if area is not None and area.scene_id != scene.pk:
        raise ValidationError(_("That area is not in this scene."))
    if area is not None and area.hidden:
        raise ValidationError(_("The players see every PC: they cannot start in a hidden area."))
    return area


def stands_at(names: list[str], area: Area, *, everyone: bool) -> Said:
    """The log's line: "The party stands at the Ford." when every PC stands there now, the
    names of those who came otherwise."""
    if everyone:
        return said("party-stands", area=area.name)
    return said("pcs-stand", names=", ".join(names), area=area.name, count=len(names))


def all_there(scene: Scene, area: Area) -> bool:
    """Whether every PC of the scene stands in ``area``."""
    pcs = Figure.objects.filter(scene=scene, character__kind=Character.Kind.PC)
    return not pcs.exclude(area=area).exists()


@transaction.atomic
def party_here(*, scene: Scene, area: Area) -> list[str]:
    """The GM's "Everyone here": every PC not placed yet in the scene the table sees (brought
    in first if they are not in it) now stands in ``area``. Told in the log to the whole
    table; every board shows them there. Refused in words when nobody is waiting."""
    scene = (
        Scene.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=scene.pk)
    )
    if area.scene_id != scene.pk:
        raise ValidationError(_("That area is not in this scene."))
    if area.hidden:
        raise ValidationError(_("The players see every PC: they cannot stand in a hidden area."))
    came = bring_in(scene, area)
    unplaced = Figure.objects.filter(
        scene=scene, area__isnull=True, character__kind=Character.Kind.PC
    ).select_related("character")
    moved = [figure.character.name for figure in unplaced]
    unplaced.update(area=area)
    names = sorted([pc.name for pc in came] + moved)
    if not names:
        raise ValidationError(_("Every PC stands in an area already."))
    publish_scene(scene.campaign, "scene.figure", parts=("board",), tool=bool(came))
    line = stands_at(names, area, everyone=all_there(scene, area))
    roll_announce(campaign=scene.campaign, lines=[line], players=True)
    return names
