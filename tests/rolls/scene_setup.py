"""What the scene tests share: an EZFudge table with a second player (and the rolls tests'
observer), a scene
of three areas (the Vault hidden from the players) shown to the table, Jason Free in the Hall,
a Brute the players have met in the Gallery and a Lurker they have not in the Vault, and the
scene's commands posted as the table page posts them. Test modules take the fixtures with
``from tests.rolls.scene_setup import *``."""

import io
import re

import pytest
from django.urls import reverse
from PIL import Image

from characters.services import character_create
from fudgetable.shown_ids import AREA, CARD, FIGURE, SCENE
from rolls.scene import services as scenes
from rolls.scene.models import Area, Scene
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.fight_setup import *  # noqa: F403

HTMX = {"HX-Request": "true"}


@pytest.fixture
def other(campaign):
    """A second player at the table."""
    user = UserFactory(username="player-other")
    MembershipFactory(campaign=campaign, user=user)
    return user


@pytest.fixture
def scene(ez, jason, brute) -> Scene:
    """The Mill, shown to the table: Hall and Gallery at Long range, the hidden Vault."""
    made = scenes.scene_create(campaign=ez, title="The Mill", description="Flour in the air.")
    hall = scenes.area_create(scene=made, name="Hall", light="dim")
    gallery = scenes.area_create(scene=made, name="Gallery", cover="partial")
    vault = scenes.area_create(scene=made, name="Vault", hidden=True, notes="The secret stair")
    scenes.ranges_set(scene=made, ranges={(hall.pk, gallery.pk): "L"})
    brute.revealed = True
    brute.save(update_fields=["revealed"])
    lurker = character_create(campaign=ez, owner=None, name="Lurker", kind="npc", npc_boxes=3)
    scenes.figure_add(scene=made, character=jason, area=hall)
    scenes.figure_add(scene=made, character=brute, area=gallery)
    scenes.figure_add(scene=made, character=lurker, area=vault)
    scenes.scene_switch(campaign=ez, scene=made)
    made.refresh_from_db()
    return made


def area(scene: Scene, name: str) -> Area:
    return scene.areas.get(name=name)


def figure_of(scene: Scene, name: str):
    return scene.figures.get(character__name=name)


def post(client, campaign, name: str, data: dict | None = None, *args, htmx: bool = True):
    url = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    return client.post(url, data or {}, headers=HTMX if htmx else {})


def picture_bytes(size=(64, 48), fmt="PNG", **save) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", size, (200, 30, 30)).save(out, fmt, **save)
    return out.getvalue()


# Where a page names a scene's part: each kind's ids, by the attributes, form values and
# addresses that carry them. An id is the 22 characters pages show, or (what they must never
# show) the database's digits.
_ID = r"([\w-]{22}|\d+)"
_NAMES = {
    "area": (
        rf'id="area-{_ID}"',
        rf'(?:id="|#)figures-{_ID}"',
        rf'data-(?:area|pin)="{_ID}"',
        rf'name="area" value="{_ID}"',
    ),
    "figure": (
        rf'id="figure-{_ID}"',
        rf'data-figure="{_ID}"',
        rf'name="figure" value="{_ID}"',
        rf"/scene/figures/{_ID}/",
    ),
    "card": (
        rf'id="card-(?:area-)?{_ID}"',
        rf'data-shown="{_ID}-\d+"',
        rf"/scene/cards/{_ID}/",
        rf'name="card" value="{_ID}"',
    ),
    "scene": (rf"/scenes/{_ID}/",),
}
_OPTION = re.compile(rf'<option value="{_ID}"')
_RANGE = re.compile(rf'name="range-{_ID}-{_ID}"')


def scene_ids_in(html: str) -> dict[str, list[str]]:
    """Every id of a scene's part ``html`` names, kind by kind, as written there."""
    found: dict[str, list[str]] = {kind: [] for kind in _NAMES}
    for kind, patterns in _NAMES.items():
        for pattern in patterns:
            found[kind] += re.findall(pattern, html)
    for kind in ("area", "figure", "scene"):
        for options in re.findall(rf'<select [^>]*name="{kind}">(.*?)</select>', html, re.S):
            found[kind] += _OPTION.findall(options)
    for pair in _RANGE.findall(html):
        found["area"] += pair
    return found


def parts_named(html: str) -> tuple[dict[str, set[int]], list[str]]:
    """The database ids of the scene's parts ``html`` names, kind by kind, and every id it
    shows that names no part of its kind (a database id shown as it is, say)."""
    kinds = {"area": AREA, "figure": FIGURE, "card": CARD, "scene": SCENE}
    named: dict[str, set[int]] = {kind: set() for kind in kinds}
    unread = []
    for kind, ids in scene_ids_in(html).items():
        for shown in ids:
            pk = kinds[kind].decode(shown)
            if pk is None:
                unread.append(f"{kind} {shown!r}")
            else:
                named[kind].add(pk)
    return named, unread
