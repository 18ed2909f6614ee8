"""The embedded default's channel layer: channels' in-memory layer with a cheaper sweep."""

from fudgetable import live


async def test_a_group_message_reaches_every_member():
    layer = live.InMemoryLayer()
    await layer.group_add("campaign-1", "specific.a")
    await layer.group_add("campaign-1", "specific.b")
    await layer.group_send("campaign-1", {"type": "table.event", "everyone": "<p>hi</p>"})
    for channel in ("specific.a", "specific.b"):
        assert (await layer.receive(channel))["everyone"] == "<p>hi</p>"


async def test_expired_messages_are_still_swept_out():
    layer = live.InMemoryLayer(expiry=-1)  # every message is stale the moment it is sent
    await layer.group_add("campaign-1", "specific.a")
    await layer.send("specific.a", {"type": "table.event"})
    layer._swept_at = 0.0  # a second has passed since the last sweep
    layer._clean_expired()
    assert "specific.a" not in layer.channels
    assert "specific.a" not in layer.groups.get("campaign-1", {})


async def test_sweeps_wait_a_second_between_them():
    layer = live.InMemoryLayer(expiry=-1)
    layer._clean_expired()  # the first sweep
    await layer.send("specific.a", {"type": "table.event"})
    layer._clean_expired()  # within the second: the stale message stays for now
    assert "specific.a" in layer.channels
