"""The board's attack over the table's socket, as the page sends it (live.js): the player's own
PC's shot is answered on her socket and its line pushed to the table; another player's attack
with her PC is a 403, a hidden figure a 404, and an outsider's socket never opens."""

import pytest
from django.urls import reverse

from characters.services import gear_add
from rolls.scene.ids import shown_id
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import figure_of
from tests.table_sockets import answered, joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def taps(scene, jason, other, cookies, client_for):
    """What the page's taps send: Jason's bow at the Brute, and at the hidden Lurker."""
    from django.test import Client

    login = Client()
    login.force_login(other)
    cookies["other"] = (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())
    bow = gear_add(character=jason, kind="weapon", name="Short bow", damage_factor=1, ranged=True)
    jason_id = shown_id(figure_of(scene, "Jason Free"))
    return {
        "path": reverse("rolls:fight_attack", args=[scene.campaign.pk]),
        "brute": {
            "attacker": jason_id,
            "target": shown_id(figure_of(scene, "Brute")),
            "range_weapon": bow.pk,
        },
        "lurker": {
            "attacker": jason_id,
            "target": shown_id(figure_of(scene, "Lurker")),
            "range_weapon": bow.pk,
        },
    }


async def test_a_players_attack_over_the_socket_by_role(scene, cookies, taps):
    campaign = scene.campaign
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    them = await joined(campaign, cookies["other"], "player-other")
    try:
        # The other player may not shoot with her PC; nobody may aim at a hidden figure.
        refused = await answered(them, taps["path"], taps["brute"], 1)
        assert refused["status"] == 403
        hidden = await answered(her, taps["path"], taps["lurker"], 2)
        assert hidden["status"] == 404
        # Her own PC's shot: answered on her socket, its line pushed to every screen.
        answer = await answered(her, taps["path"], taps["brute"], 3)
        assert answer["status"] == 200, answer
        assert "Shot: Jason Free at Brute" in answer["body"]
        assert "Shot: Jason Free at Brute" in (await until(gm, "Shot: Jason Free"))[-1]
        seen = await until(them, "Shot: Jason Free")
        assert "Lurker" not in "".join(seen)
    finally:
        for socket in (gm, her, them):
            await socket.disconnect()


async def test_an_outsiders_socket_never_opens(scene, cookies, taps):
    socket = socket_for(scene.campaign, cookies["outsider"])
    connected, _ = await socket.connect()
    assert not connected
    await socket.disconnect()
