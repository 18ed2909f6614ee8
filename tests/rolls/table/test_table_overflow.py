"""No silent gaps, caught by the server: a socket whose channel filled up, or whose event a
layer dropped, is sent the table as it stands without its screen asking; so is one the
process's heartbeat finds short of its table's number. Every screen ends showing the log."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from fudgetable import live, memory_layer
from rolls.models import Roll
from rolls.table import heartbeat
from tests.rolls.conftest import fresh_key
from tests.rolls.table.test_table_sequence import numbers, post
from tests.rolls.test_sheet_socket import sheet_socket
from tests.table_sockets import entry_pks, gm_and_player, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def tiny_channels(settings):
    # Changing the setting drops Channels' cached layer: the sockets get this one.
    settings.CHANNEL_LAYERS = {
        "default": {"BACKEND": "fudgetable.memory_layer.InMemoryLayer", "CONFIG": {"capacity": 2}}
    }


@pytest.fixture
def held(monkeypatch) -> list[tuple[int, dict]]:
    """The table's messages, kept back once their change commits, for ``burst``."""
    messages: list[tuple[int, dict]] = []

    def hold(campaign_id: int, message: dict) -> None:
        transaction.on_commit(lambda: messages.append((campaign_id, message)))

    monkeypatch.setattr(live, "_send_on_commit", hold)
    return messages


async def burst(messages: list[tuple[int, dict]]) -> None:
    """Sends them all with no socket reading in between (the in-memory layer's group_send
    never waits): a process sending faster than its sockets read."""
    layer = get_channel_layer()
    for campaign_id, message in messages:
        await layer.group_send(live.group_name(campaign_id), message)


async def until_quiet(socket) -> list[str]:
    frames = []
    while not await socket.receive_nothing(timeout=0.5):
        frames.append(await socket.receive_from(timeout=5))
    return frames


def rolls_shown(frames: list[str]) -> set[int]:
    """The log's rolls on a screen that got ``frames``: the last table state's, and the ones
    added after it."""
    last_state = max(i for i, frame in enumerate(frames) if "data-state" in frame)
    return {pk for frame in frames[last_state:] for pk in entry_pks(frame)}


async def test_a_full_channel_gets_one_word_in_place_of_what_it_held():
    layer = memory_layer.InMemoryLayer(capacity=2)
    await layer.group_add("campaign-1", "specific.test!a")
    for n in range(4):
        await layer.group_send("campaign-1", {"type": "table.event", "n": n})
    assert await layer.receive("specific.test!a") == {"type": "table.overflow"}
    assert await layer.receive("specific.test!a") == {"type": "table.event", "n": 3}


async def test_every_screen_shows_the_whole_log_after_its_channel_overflowed(
    campaign, cookies, client_for, owner, hero, tiny_channels, held
):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await gm_and_player(campaign, cookies)
    players_sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await players_sheet.connect())[0]
    for n in range(10):
        roll = {"kind": "situational", "label": f"Squall {n}", "key": fresh_key()}
        await post(gm_client, "roll", campaign, data=roll)
        if n == 4:  # an event only the GMs get: the two counts part
            plot = {"name": "Plot", "boxes": "4", "visibility": "gm"}
            await post(gm_client, "countdown_create", campaign, data=plot)
    await burst(held)

    logged = set(await sync_to_async(list)(Roll.objects.values_list("pk", flat=True)))
    assert len(logged) == 10
    for socket, audience in ((gm, "gm"), (player, "everyone")):
        frames = await until_quiet(socket)
        assert rolls_shown(frames) == logged
        assert numbers(frames)[-1] == await sync_to_async(live.current_seq)(campaign.pk, audience)
    assert numbers(frames)[-1] == 10  # the player's: the rolls, not the GMs' countdown
    # The sheet's channel filled with the table's events too: it is sent its parts, and its
    # person's calls for a roll as they stand (none here).
    sheet_frames = await until_quiet(players_sheet)
    assert any('id="tracks"' in frame for frame in sheet_frames)
    assert any('id="my-calls"' in frame for frame in sheet_frames)
    for socket in (gm, player, players_sheet):
        await socket.disconnect()


async def test_a_dropped_event_is_answered_with_the_table_unasked(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await gm_and_player(campaign, cookies)
    await sync_to_async(live.next_seq)(campaign.pk, players=True)  # its message went missing
    roll = {"kind": "situational", "label": "Weather", "key": fresh_key()}
    await post(gm_client, "roll", campaign, data=roll)
    for socket in (gm, player):
        (frame,) = await until(socket, "Weather")
        assert 'data-seq="2" data-state' in frame and 'id="roll-log"' in frame

    # An event the state showed already is not sent again.
    stale = {"type": "table.event", "event": "roll.created", "entry": None}
    stale |= {"everyone": "Stale", "gm": "Stale", "seq": {"everyone": 2, "gm": 2}}
    await get_channel_layer().group_send(live.group_name(campaign.pk), stale)
    for socket in (gm, player):
        assert await socket.receive_nothing(timeout=0.3)
    for socket in (gm, player):
        await socket.disconnect()


async def test_the_heartbeat_catches_up_a_socket_whose_last_event_was_dropped(campaign, cookies):
    gm, player = await gm_and_player(campaign, cookies)
    await sync_to_async(live.next_seq)(campaign.pk, players=False)  # a GMs' event, lost
    await heartbeat.heartbeat.catch_up_behind()
    assert 'data-seq="1" data-state' in await gm.receive_from(timeout=5)
    assert await player.receive_nothing(timeout=0.3)  # the players' count did not move
    await heartbeat.heartbeat.catch_up_behind()  # caught up: the next beat leaves it be
    assert await gm.receive_nothing(timeout=0.3)
    for socket in (gm, player):
        await socket.disconnect()


async def test_an_outsider_is_refused_whatever_the_channel(campaign, cookies, tiny_channels):
    outsider = socket_for(campaign, cookies["outsider"])
    assert not (await outsider.connect())[0]
