"""One person's sockets at a campaign are limited, and what they ask to catch up on is built
once for them all: 30 sockets of one player asking to catch up moved another player's rolls
from 0.05 s to 0.2-1.3 s, since every socket's database work waits on one shared thread."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from fudgetable.entry_ids import encode
from rolls import consumers, people_sockets
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, post_roll
from tests.rolls.test_sheet_socket import sheet_socket
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

CATCH_UP = json.dumps({"catch_up": True})


@pytest.fixture
def builds(monkeypatch):
    """How many times the table was built for a catch-up, per person."""
    counted: list[int] = []
    real = consumers._state_of

    async def counting(user, campaign_id, *seen):
        counted.append(user.pk)
        return await real(user, campaign_id, *seen)

    monkeypatch.setattr(consumers, "_state_of", counting)
    return counted


async def settled(*sockets) -> None:
    for socket in sockets:
        while not await socket.receive_nothing(timeout=0.2):
            await socket.receive_from()


async def test_past_the_limit_a_persons_next_page_is_told_so_and_let_go(
    campaign, cookies, hero, settings
):
    settings.SOCKETS_PER_PERSON = 3
    mine = [await joined(campaign, cookies["member"]) for _ in range(2)]
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]
    mine.append(sheet)
    one_too_many = socket_for(campaign, cookies["member"])
    assert (await one_too_many.connect())[0]  # accepted only to be told why it goes
    notice = await one_too_many.receive_from(timeout=5)
    assert 'id="notice"' in notice and "open in 3 of your pages already" in notice
    closed = await one_too_many.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 1008}  # htmx does not try again
    await one_too_many.disconnect()
    # Someone else's are theirs to count; an outsider is refused at the handshake as before.
    gm = await joined(campaign, cookies["owner"])
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    # A page closed makes room for the next.
    await mine.pop(0).disconnect()
    again = await joined(campaign, cookies["member"])
    for socket in (*mine, again, gm):
        await socket.disconnect()
    assert people_sockets.people.counts == {}


@pytest.mark.parametrize("person", ["owner", "member"])
async def test_a_persons_sockets_asking_at_once_share_one_build(campaign, cookies, builds, person):
    sockets = [await joined(campaign, cookies[person]) for _ in range(6)]
    await settled(*sockets)
    builds.clear()
    for socket in sockets:
        await socket.send_to(text_data=CATCH_UP)
    for socket in sockets:
        assert "data-state" in (await until(socket, "data-state"))[-1]
    assert len(builds) == 1
    # Asked again at once: they wait out the rest of the second, and share the next build.
    started = asyncio.get_running_loop().time()
    for socket in sockets:
        await socket.send_to(text_data=CATCH_UP)
    for socket in sockets:
        await until(socket, "data-state")
    assert len(builds) == 2
    assert asyncio.get_running_loop().time() - started >= 0.5
    for socket in sockets:
        await socket.disconnect()


async def test_each_person_gets_their_own_table_when_both_ask_at_once(
    campaign, cookies, client_for, owner, builds, villain
):
    """Shared per person, never between people: the GM's secret roll is in the GM's catch-up
    and not in the player's, asked in the same moment."""
    gm_client = await sync_to_async(client_for)(owner)
    secret = {"kind": "reaction", "key": fresh_key(), "secret": "on", "label": "Ambush"}
    assert (await sync_to_async(post_roll)(gm_client, campaign, secret)).status_code == 200
    roll = await Roll.objects.aget()
    gm = await joined(campaign, cookies["owner"])
    player = await joined(campaign, cookies["member"])
    await settled(gm, player)
    await gm.send_to(text_data=CATCH_UP)
    await player.send_to(text_data=CATCH_UP)
    gm_state = (await until(gm, "data-state"))[-1]
    player_state = (await until(player, "data-state"))[-1]
    assert "Ambush" in gm_state and "Ambush" not in player_state
    assert f'id="roll-{encode(roll.pk)}"' in player_state  # the entry is there, its content is not
    assert len(builds) == 2
    for socket in (gm, player):
        await socket.disconnect()


async def test_copies_of_a_sheet_in_one_browser_asking_at_once_share_one_draw(
    campaign, cookies, hero, monkeypatch
):
    drawn = []
    real = consumers._as_it_stands

    def counting(*args, **kwargs):
        drawn.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(consumers, "_as_it_stands", counting)
    copies = [sheet_socket(campaign, hero, cookies["member"]) for _ in range(4)]
    for copy in copies:
        assert (await copy.connect())[0]
    await settled(*copies)
    for copy in copies:
        await copy.send_to(text_data=CATCH_UP)
    for copy in copies:
        assert 'id="vitals"' in await copy.receive_from(timeout=5)
    assert len(drawn) == 1
    for copy in copies:
        await copy.disconnect()
