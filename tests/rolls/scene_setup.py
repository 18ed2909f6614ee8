"""What the scene tests share: an EZFudge table with a second player (and the rolls tests'
observer), a scene
of three areas (the Vault hidden from the players) shown to the table, Jason Free in the Hall,
a Brute the players have met in the Gallery and a Lurker they have not in the Vault, and the
scene's commands posted as the table page posts them. Test modules take the fixtures with
``from tests.rolls.scene_setup import *``."""

import io

import pytest
from django.urls import reverse
from PIL import Image

from characters.services import character_create
from rolls import scenes
from rolls.scene_models import Area, Scene
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
