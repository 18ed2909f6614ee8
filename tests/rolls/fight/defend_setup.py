"""What the tests of an attack waiting for its defence share: the scene tests' Mill (Jason
Free, the member's PC, in the Hall; the Brute, whom the players have met, in the Gallery; the
Lurker, whom they have not, in the hidden Vault), a second player's PC in the Hall, weapons to
shoot with, and the taps as the table page sends them. Test modules take the fixtures with
``from tests.rolls.fight.defend_setup import *``."""

import pytest
from django.urls import reverse

from characters.services import character_create, gear_add, trait_add
from rolls.fight.models import DeclaredAttack
from rolls.scene import services as scenes
from rolls.scene.ids import shown_id
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of


@pytest.fixture
def wren(scene, other):
    """The second player's PC, Wren, beside Jason in the Hall, with a knife."""
    pc = character_create(campaign=scene.campaign, owner=other, name="Wren")
    trait_add(character=pc, name="Burglar", level=2, kind="role")
    gear_add(character=pc, kind="weapon", name="Knife", damage_factor=1)
    scenes.figure_add(scene=scene, character=pc, area=area(scene, "Hall"))
    return pc


@pytest.fixture
def lurker_sling(scene):
    """A sling for the Lurker, whom the players have not met."""
    lurker = figure_of(scene, "Lurker").character
    return gear_add(character=lurker, kind="weapon", name="Sling", damage_factor=1, ranged=True)


def table_page(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def declare(client, scene, attacker: str, target: str, **more):
    """The board's taps: the attacker's figure, Attack…, the target's figure."""
    data = {
        "attacker": shown_id(figure_of(scene, attacker)),
        "target": shown_id(figure_of(scene, target)),
        "key": more.pop("key", "declare-key-1"),
        **more,
    }
    url = reverse("rolls:fight_attack", args=[scene.campaign.pk])
    return client.post(url, data, headers=HTMX)


def defend(client, attack: DeclaredAttack, **data):
    url = reverse("rolls:fight_defend", args=[attack.campaign_id, attack.pk])
    return client.post(url, data, headers=HTMX)


def withdraw(client, attack: DeclaredAttack):
    url = reverse("rolls:fight_withdraw", args=[attack.campaign_id, attack.pk])
    return client.post(url, {}, headers=HTMX)


def waiting() -> DeclaredAttack:
    return DeclaredAttack.objects.get(ended_at__isnull=True)
