"""The embedded default's channel layer: Channels' in-memory layer with a cheaper sweep and a
mailbox per channel."""

import asyncio

import pytest
from channels.exceptions import ChannelFull

from fudgetable import memory_layer


async def test_a_group_message_reaches_every_member():
    layer = memory_layer.InMemoryLayer()
    await layer.group_add("campaign-1", "specific.a")
    await layer.group_add("campaign-1", "specific.b")
    await layer.group_send("campaign-1", {"type": "table.event", "everyone": "<p>hi</p>"})
    for channel in ("specific.a", "specific.b"):
        assert (await layer.receive(channel))["everyone"] == "<p>hi</p>"


async def test_expired_messages_are_still_swept_out():
    layer = memory_layer.InMemoryLayer(expiry=-1)  # every message is stale the moment it is sent
    await layer.group_add("campaign-1", "specific.a")
    await layer.send("specific.a", {"type": "table.event"})
    layer._swept_at = 0.0  # a second has passed since the last sweep
    layer._clean_expired()
    assert "specific.a" not in layer.channels
    assert "specific.a" not in layer.groups.get("campaign-1", {})


async def test_sweeps_wait_a_second_between_them():
    layer = memory_layer.InMemoryLayer(expiry=-1)
    layer._clean_expired()  # the first sweep
    await layer.send("specific.a", {"type": "table.event"})
    layer._clean_expired()  # within the second: the stale message stays for now
    assert "specific.a" in layer.channels


async def test_a_waiting_receive_wakes_when_its_message_comes_and_the_channel_is_then_forgotten():
    layer = memory_layer.InMemoryLayer()
    waiting = asyncio.create_task(layer.receive("specific.a"))
    await asyncio.sleep(0)
    assert isinstance(layer.channels["specific.a"], memory_layer.Mailbox)
    await layer.send("specific.a", {"type": "table.event", "n": 1})
    assert await waiting == {"type": "table.event", "n": 1}
    assert "specific.a" not in layer.channels  # an empty channel keeps nothing


async def test_a_socket_that_goes_while_waiting_leaves_its_channel_usable():
    layer = memory_layer.InMemoryLayer()
    waiting = asyncio.create_task(layer.receive("specific.a"))
    await asyncio.sleep(0)
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    assert "specific.a" not in layer.channels
    await layer.send("specific.a", {"type": "table.event"})
    assert await layer.receive("specific.a") == {"type": "table.event"}


async def test_a_full_channel_refuses_a_direct_send():
    layer = memory_layer.InMemoryLayer(capacity=1)
    await layer.send("specific.a", {"type": "table.event"})
    with pytest.raises(ChannelFull):
        await layer.send("specific.a", {"type": "table.event"})
