"""A socket's command holds its pushes until it is back on the event loop
(``live.held_pushes``, ``live.send_held``): none is sent from the worker thread, none is lost,
and they leave in the order they were committed."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction

from fudgetable import live

pytestmark = pytest.mark.django_db(transaction=True)


def _command_that_pushes_twice(campaign_id: int) -> live.Held:
    with live.held_pushes() as held:
        with transaction.atomic():
            live.publish(campaign_id, "first", everyone="<p>one</p>")
        with transaction.atomic():
            live.publish(campaign_id, "second", everyone="<p>two</p>")
        rolled_back = transaction.atomic()
        with pytest.raises(RuntimeError), rolled_back:
            live.publish(campaign_id, "never", everyone="<p>no</p>")
            raise RuntimeError
        return list(held)


async def test_a_commands_pushes_wait_for_the_loop_then_leave_in_order():
    layer = get_channel_layer()
    channel = await layer.new_channel()
    await layer.group_add(live.group_name(7), channel)
    held = await sync_to_async(_command_that_pushes_twice)(7)
    # Nothing reached the socket while the command ran: it was all held.
    assert [message["event"] for _, message in held] == ["first", "second"]
    await layer.send(channel, {"type": "marker"})
    assert (await layer.receive(channel))["type"] == "marker"  # nothing went before it
    await live.send_held(held)
    got = [await layer.receive(channel) for _ in held]
    assert [(m["event"], m["everyone"], m["seq"]["everyone"]) for m in got] == [
        ("first", "<p>one</p>", 1),
        ("second", "<p>two</p>", 2),
    ]
    await layer.group_discard(live.group_name(7), channel)
