"""The ids pages show for a scene's parts (``fudgetable.shown_ids``): its areas, figures and
cards, and the scene itself. The database counts each across the whole server, so card-12
then card-15 on a player's page would tell them the GMs made cards they have not been shown,
and a GM how busy the server's other tables are. Every id of a scene's part that reaches a
page is enciphered here, and every one a page sends back is read here."""

from django.db.models import Model
from django.http import Http404
from django.utils.translation import gettext

from fudgetable.shown_ids import AREA, CARD, FIGURE, SCENE, Kind
from rolls.scene.models import Area, Card, Figure, Scene

KIND_OF: dict[type[Model], Kind] = {Scene: SCENE, Area: AREA, Figure: FIGURE, Card: CARD}


def shown_id(part: Scene | Area | Figure | Card) -> str:
    """The id pages show for ``part``: one that carries no order and no count."""
    return KIND_OF[type(part)].encode(part.pk)


def named(kind: Kind, value: str) -> int:
    """The database's id of the part of ``kind`` a page's ``value`` names. A value naming
    none (forged, mistyped, another kind's) is answered as an id naming no row: a 404."""
    pk = kind.decode(value)
    if pk is None:
        raise Http404(gettext("No such %(kind)s") % {"kind": kind.name})
    return pk
