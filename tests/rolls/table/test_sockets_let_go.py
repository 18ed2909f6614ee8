"""A log-out, a campaign deleted and a member removed close the sockets they concern at once,
saying why: before, a tab logged out still heard the GM's secret rolls 34 s later, its sheet
socket the sheet's changes, and a deleted campaign's sockets stayed open. And a socket leaves
the table however it ends: one closed while its consumer was busy was cancelled without
leaving, and eight of them locked their person out of the table until a restart."""

import asyncio
import threading

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from campaigns.models import Membership
from rolls.models import TableConnection
from rolls.table import people_sockets
from rolls.table.heartbeat import heartbeat
from tests.rolls.conftest import post_roll, roll_form, trait
from tests.rolls.table.test_socket_commands import command, roll_path
from tests.rolls.test_sheet_socket import sheet_socket
from tests.rolls.test_sign_in_changes import open_sockets
from tests.table_sockets import closed, joined, until

pytestmark = pytest.mark.django_db(transaction=True)

LOGGED_OUT = "You are not logged in any more. Log in again to play."


async def closed_saying(socket, words: str) -> None:
    """The socket's last frames: the page's notice with ``words``, then the close."""
    frames = []
    while True:
        output = await socket.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
        frames.append(output.get("text", ""))
    assert 'id="notice"' in frames[-1] and words in frames[-1]
    await socket.disconnect()


def browser(user) -> tuple[Client, tuple[bytes, bytes]]:
    """A logged-in browser: its client for HTTP and the cookie its sockets send."""
    client = Client()
    client.force_login(user)
    return client, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def settled(*sockets) -> None:
    for socket in sockets:  # the arrivals' presence frames
        while not await socket.receive_nothing(timeout=0.2):
            await socket.receive_from()


@pytest.fixture
def browsers(owner, member):
    return {"owner": browser(owner), "member": browser(member)}


@pytest.mark.parametrize("person", ["owner", "member"])
async def test_a_log_out_closes_that_browsers_table_and_sheet_sockets_at_once(
    campaign, hero, browsers, cookies, person
):
    client, cookie = browsers[person]
    table = await joined(campaign, cookie)
    sheet = sheet_socket(campaign, hero, cookie)
    assert (await sheet.connect())[0]
    other_device = await joined(campaign, cookies[person])  # the same person, logged in elsewhere
    await settled(table, sheet, other_device)
    assert (await sync_to_async(client.post)(reverse("logout"))).status_code == 302
    await closed_saying(table, LOGGED_OUT)
    await closed_saying(sheet, LOGGED_OUT)
    # The other device hears the tab leave the table, and stays.
    assert "presence" in await other_device.receive_from(timeout=5)
    assert await other_device.receive_nothing(timeout=0.3)
    await other_device.disconnect()


async def test_after_a_log_out_the_gms_secret_rolls_reach_no_socket_of_that_tab(
    campaign, villain, browsers, owner, client_for
):
    client, cookie = browsers["owner"]
    table = await joined(campaign, cookie)
    await settled(table)
    await sync_to_async(client.post)(reverse("logout"))
    await closed_saying(table, LOGGED_OUT)
    gm = await sync_to_async(client_for)(owner)
    poison = await sync_to_async(roll_form)(villain, None, kind="reaction", secret="on")
    assert (await sync_to_async(post_roll)(gm, campaign, poison)).status_code == 200
    assert await table.receive_nothing(timeout=0.3)


async def test_a_deleted_campaign_closes_every_socket_at_its_table(
    campaign, hero, cookies, client_for, owner
):
    gm, player, sheet = await open_sockets(campaign, cookies, hero)
    gm_client = await sync_to_async(client_for)(owner)
    url = reverse("campaigns:delete", args=[campaign.pk])
    deleted = await sync_to_async(gm_client.post)(url, {"typed_name": campaign.name})
    assert deleted.status_code == 302
    for socket in (gm, player, sheet):
        await closed_saying(socket, "This campaign was deleted: its table is closed.")


async def test_a_member_removed_by_the_gm_loses_their_sockets_and_no_one_else_does(
    campaign, hero, cookies, client_for, owner, member
):
    gm, player, sheet = await open_sockets(campaign, cookies, hero)
    gm_client = await sync_to_async(client_for)(owner)
    membership = await Membership.objects.aget(campaign=campaign, user=member)
    url = reverse("campaigns:member_remove", args=[campaign.pk, membership.pk])
    assert (await sync_to_async(gm_client.post)(url)).status_code == 302
    for socket in (player, sheet):
        assert await closed(socket)
        await socket.disconnect()
    # The GM's socket stays, and hears that the player left the table.
    frame = (await until(gm, 'id="presence"'))[-1]
    assert "gm-owner" in frame and "player-member" not in frame
    await gm.disconnect()


async def test_an_outsiders_log_out_touches_no_socket_of_the_table(
    campaign, browsers, outsider, client_for
):
    gm = await joined(campaign, browsers["owner"][1])
    await settled(gm)
    client = await sync_to_async(client_for)(outsider)
    await sync_to_async(client.post)(reverse("logout"))
    assert await gm.receive_nothing(timeout=0.3)
    await gm.disconnect()


@pytest.fixture
def ready(campaign, hero):
    return roll_form(hero, trait(hero, "Stealth", 1))


async def test_a_socket_killed_mid_command_leaves_the_table(campaign, cookies, ready, settings):
    """The page closes while its roll waits for the shared thread (busy with someone else's
    work); the consumer never hears the close in time and is cancelled, as daphne cancels it
    ``application_close_timeout`` after the close. It leaves all the same: the person may
    open as many pages as before, and is not listed at the table."""
    settings.SOCKETS_PER_PERSON = 2
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    for _ in range(settings.SOCKETS_PER_PERSON):
        player = await joined(campaign, cookies["member"])
        busy = threading.Event()
        holding = asyncio.ensure_future(sync_to_async(busy.wait, thread_sensitive=True)())
        await command(player, roll_path(campaign), ready)
        threading.Timer(1.5, busy.set).start()  # long after the close, as a slow command
        await player.disconnect(timeout=0.5)  # its consumer cancelled, the command unfinished
        await holding
    frame = (await until(gm, 'id="presence"'))[-1]
    while not await gm.receive_nothing(timeout=0.5):
        frame = await gm.receive_from()
    assert "gm-owner" in frame and "player-member" not in frame
    assert await TableConnection.objects.filter(user__username="player-member").acount() == 0
    # Not locked out: a page of theirs opens as many sockets as before.
    pages = [await joined(campaign, cookies["member"]) for _ in range(2)]
    for socket in (*pages, gm):
        await socket.disconnect()
    assert people_sockets.people.counts == {}
    assert heartbeat.channels == {}
