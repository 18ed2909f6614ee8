"""One person's sockets are limited, at all their campaigns together, and what they ask to
catch up on is built at most once a second for them all, whatever each ask says it saw: 30
sockets of one player asking to catch up moved another player's rolls from 0.05 s to 0.2-1.3
s, since every socket's database work waits on one shared thread; one person's 4 campaigns x
8 sockets to 4 s; and one socket's asks each naming a new ``since`` got 17-20 whole tables
built in 2.5 s."""

import asyncio
import json

import pytest
from asgiref.sync import sync_to_async

from fudgetable.entry_ids import encode
from rolls.models import Roll
from rolls.table import consumers, people_sockets
from tests.factories import CampaignFactory
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
    assert 'id="notice"' in notice and "3 table and sheet pages open already" in notice
    closed = await one_too_many.receive_output(timeout=5)
    assert closed == {"type": "websocket.close", "code": 4008}  # htmx does not try again
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


@pytest.fixture
def own_campaigns(member):
    """Campaigns the member made themselves: anyone may make as many as they like."""
    return [CampaignFactory(owner=member, name=f"Lighthouse {n}") for n in range(3)]


async def test_a_persons_sockets_at_all_their_campaigns_count_together(
    campaign, own_campaigns, cookies, settings
):
    settings.SOCKETS_PER_PERSON = 3
    mine = [await joined(table, cookies["member"]) for table in (campaign, *own_campaigns[:2])]
    # A fourth campaign of theirs is no way round the limit.
    one_too_many = socket_for(own_campaigns[2], cookies["member"])
    assert (await one_too_many.connect())[0]
    notice = await one_too_many.receive_from(timeout=5)
    assert "3 table and sheet pages open already" in notice
    assert await one_too_many.receive_output(timeout=5) == {
        "type": "websocket.close",
        "code": 4008,
    }
    await one_too_many.disconnect()
    # Someone else's sockets at the same tables are theirs to count.
    gm = await joined(campaign, cookies["owner"])
    await mine.pop().disconnect()
    again = await joined(own_campaigns[2], cookies["member"])
    for socket in (*mine, again, gm):
        await socket.disconnect()
    assert people_sockets.people.counts == {}


def ask(since: int) -> str:
    """A catch-up ask as a page would word it, saying it saw the table at ``since``."""
    return json.dumps({"catch_up": True, "since": str(since), "first": "0", "last": "0"})


async def test_asks_each_naming_another_since_get_one_build_a_second(
    campaign, own_campaigns, cookies, builds
):
    """Every ask names a number of its own, so no two of them could share a build: the
    person's builds are paced all the same, at all their campaigns' sockets together."""
    sockets = [await joined(table, cookies["member"]) for table in (campaign, *own_campaigns)]
    sockets.append(await joined(campaign, cookies["member"]))
    await settled(*sockets)
    builds.clear()
    started = asyncio.get_running_loop().time()
    since = iter(range(1, 1000))
    for _ in range(5):
        for socket in sockets:
            await socket.send_to(text_data=ask(next(since)))
    await asyncio.sleep(2.5)
    assert len(builds) <= 4  # of 25 asks; 20-25 whole tables before
    # And each socket's answers still come, one build a second after the one before.
    for socket in sockets:
        assert "data-state" in (await until(socket, "data-state"))[-1]
    took = asyncio.get_running_loop().time() - started
    assert len(builds) <= took + 1
    for socket in sockets:
        await socket.disconnect()
    assert people_sockets.people.counts == {}
