"""A call for a roll reaches the called player's sockets and the GMs', and no one else's; it is
part of the table state, so it survives a reconnect."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from rolls.models import RollCall
from tests.rolls.test_sheet_socket import sheet_socket
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HX-Request": "true"}


@pytest.fixture
def rival_cookie(rival):
    client = Client()
    client.force_login(rival[0])
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def test_only_the_called_player_and_the_gms_hear_the_call(
    campaign, cookies, client_for, owner, hero, rival_cookie
):
    gm_client = await sync_to_async(client_for)(owner)
    called = await joined(campaign, cookies["member"], "player-member")
    other = await joined(campaign, rival_cookie, "second-player")
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    await until(called, "gm-owner")
    await until(other, "gm-owner")
    url = reverse("rolls:call_create", args=[campaign.pk])
    data = {"characters": [hero.pk], "difficulty": 2, "trait": "Stealth", "secret": "on"}
    await sync_to_async(gm_client.post)(url, data, headers=HX)

    banner = (await until(called, 'id="my-calls"'))[-1]
    assert "Roll Stealth for Louie" in banner
    card = (await until(gm, 'id="roll-call-list"'))[-1]
    assert "Louie" in card and "waiting" in card
    assert await other.receive_nothing(timeout=0.5)  # not called: not a frame

    # A new socket of the called player gets the call with the table state.
    again = socket_for(campaign, cookies["member"])
    assert (await again.connect())[0]
    state = (await until(again, 'id="roll-log"'))[-1]
    assert "Roll Stealth for Louie" in state
    call = await RollCall.objects.aget()
    assert call.open
    for socket in (called, other, gm, again):
        await socket.disconnect()


async def test_the_call_shows_on_the_players_open_sheet_too(
    campaign, cookies, client_for, owner, hero
):
    gm_client = await sync_to_async(client_for)(owner)
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]
    url = reverse("rolls:call_create", args=[campaign.pk])
    data = {"characters": [hero.pk], "difficulty": 2, "trait": "Stealth"}
    await sync_to_async(gm_client.post)(url, data, headers=HX)
    assert "Roll Stealth for Louie" in await sheet.receive_from(timeout=5)
    await sheet.disconnect()
    reopened = sheet_socket(campaign, hero, cookies["member"])
    assert (await reopened.connect())[0]
    assert "Roll Stealth for Louie" in await reopened.receive_from(timeout=5)
    await reopened.disconnect()
