"""A player's socket gets a frame only when something that player can see changed. A run of
GM-only actions sends it nothing at all: counting identical frames told players how full a
hidden-progress countdown was, and that a GM had noted a secret roll."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import npc_create
from rolls.models import Countdown, Roll
from tests.rolls.conftest import fresh_key
from tests.table_sockets import gm_and_player, joined, until

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HX-Request": "true"}


async def gm_post(client, name: str, campaign, *args, data=None):
    url = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    response = await sync_to_async(client.post)(url, data or {}, headers=HX)
    assert response.status_code in (200, 204), response.content
    return response


def countdown(name: str, visibility: str, boxes: str = "4") -> dict:
    return {"name": name, "boxes": boxes, "visibility": visibility}


async def test_gm_only_actions_send_a_player_no_frame(campaign, cookies, client_for, owner):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await gm_and_player(campaign, cookies)
    # What players may see exists first: a hidden-progress countdown and a secret roll.
    await gm_post(gm_client, "countdown_create", campaign, data=countdown("Veil", "hidden"))
    secret = {"kind": "situational", "label": "Ambush", "secret": "on", "key": fresh_key()}
    await gm_post(gm_client, "roll", campaign, data=secret)
    await until(player, "The GM rolled (secret)")
    veil = await Countdown.objects.aget(name="Veil")
    roll = await Roll.objects.aget(label="Ambush")

    # Only GMs can see any of what follows.
    await gm_post(gm_client, "countdown_mark", campaign, veil.pk)
    await gm_post(gm_client, "countdown_mark", campaign, veil.pk)
    await gm_post(gm_client, "countdown_unmark", campaign, veil.pk)
    await gm_post(gm_client, "countdown_create", campaign, data=countdown("Plot", "gm"))
    plot = await Countdown.objects.aget(name="Plot")
    await gm_post(gm_client, "countdown_mark", campaign, plot.pk)
    await gm_post(gm_client, "note", campaign, roll.pk, data={"note": "They never saw it"})
    ladder = {"preset": "", "name": "Heist", "rungs": "0 2\n1 1", "visibility": "gm"}
    await gm_post(gm_client, "challenge_create", campaign, data=ladder)
    await sync_to_async(npc_create)(campaign=campaign, name="Zanzibar Quell")
    # Then one thing everyone sees.
    await gm_post(gm_client, "countdown_create", campaign, data=countdown("Marker", "public"))

    frames = await until(player, "Marker")
    assert len(frames) == 1  # the marker's own list, and nothing before it
    assert "Plot" not in frames[0] and "Heist" not in frames[0]
    seen_by_gm = await until(gm, "Marker")
    assert any("They never saw it" in frame for frame in seen_by_gm)
    assert any("Heist" in frame for frame in seen_by_gm)
    for socket in (gm, player):
        await socket.disconnect()


async def test_what_players_can_see_still_reaches_them(campaign, cookies, client_for, owner):
    """A public countdown's marks, and a hidden one's completion, do reach players."""
    gm_client = await sync_to_async(client_for)(owner)
    player = await joined(campaign, cookies["member"], "player-member")
    await gm_post(gm_client, "countdown_create", campaign, data=countdown("Tide", "public", "2"))
    await gm_post(gm_client, "countdown_create", campaign, data=countdown("Veil", "hidden", "1"))
    await until(player, "Veil")
    tide = await Countdown.objects.aget(name="Tide")
    veil = await Countdown.objects.aget(name="Veil")
    await gm_post(gm_client, "countdown_mark", campaign, tide.pk)
    assert "box-marked" in (await until(player, 'id="countdown-list"'))[-1]
    await gm_post(gm_client, "countdown_mark", campaign, veil.pk)
    assert "Veil is complete." in (await until(player, "Veil is complete."))[-1]
    await player.disconnect()
