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


async def test_a_sheet_back_from_a_drop_loses_a_call_that_ended_while_it_was_away(
    campaign, cookies, client_for, owner, hero
):
    """The phone had the call on its sheet when it dropped; the GM closed the call meanwhile.
    Back on, the page asks to catch up and its call is taken away."""
    gm_client = await sync_to_async(client_for)(owner)
    url = reverse("rolls:call_create", args=[campaign.pk])
    data = {"characters": [hero.pk], "difficulty": 2, "trait": "Stealth"}
    await sync_to_async(gm_client.post)(url, data, headers=HX)
    call = await RollCall.objects.aget()
    close = reverse("rolls:call_cancel", args=[campaign.pk, call.pk])
    assert (await sync_to_async(gm_client.post)(close, headers=HX)).status_code == 200

    phone = sheet_socket(campaign, hero, cookies["member"])
    assert (await phone.connect())[0]
    assert await phone.receive_nothing(timeout=0.3)  # no call open: nothing on connecting
    await phone.send_to(text_data='{"catch_up": true}')
    frames = await until(phone, 'id="my-calls"')
    assert "Roll Stealth" not in frames[-1] and "The GM calls for a roll" not in frames[-1]
    await phone.disconnect()


async def test_a_sheets_catch_up_shows_its_persons_calls_and_no_one_elses(
    campaign, cookies, client_for, owner, hero, rival, rival_cookie
):
    phone = sheet_socket(campaign, hero, cookies["member"])
    assert (await phone.connect())[0]
    others = sheet_socket(campaign, rival[1], rival_cookie)
    assert (await others.connect())[0]
    gm_client = await sync_to_async(client_for)(owner)
    url = reverse("rolls:call_create", args=[campaign.pk])
    data = {"characters": [hero.pk], "difficulty": 2, "trait": "Stealth"}
    await sync_to_async(gm_client.post)(url, data, headers=HX)
    assert "Roll Stealth" in await phone.receive_from(timeout=5)
    for socket in (phone, others):
        await socket.send_to(text_data='{"catch_up": true}')
    assert "Roll Stealth for Louie" in (await until(phone, 'id="my-calls"'))[-1]
    theirs = (await until(others, 'id="my-calls"'))[-1]
    assert "Louie" not in theirs and "Roll Stealth" not in theirs
    for socket in (phone, others):
        await socket.disconnect()
