"""Scaled mode survives Redis going away: with the test's own redis-server stopped, the table
page and a roll still answer 200 (sessions come from the database; the roll is saved, its push
lost), what cannot work without Redis answers 503 with Retry-After, and a socket is turned down
at its handshake for the page to try again. With Redis back, a roll answers 200 and reaches a
new socket, and a socket that missed the pushes is caught up by number. Before, every roll and
table page was a 500 while Redis was away."""

import asyncio

import pytest
from asgiref.sync import sync_to_async
from channels.layers import channel_layers
from django.test import Client
from django.urls import reverse

from fudgetable.entry_ids import encode
from fudgetable.settings import redis_services
from rolls.models import Roll
from rolls.table import heartbeat
from tests.redis_server import RedisServer
from tests.rolls.conftest import fresh_key, post_roll
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["pubsub", "core"])
def redis(settings, request):
    """Scaled mode's cache and channel layer (either kind), as settings.py configures them,
    on a Redis of the test's own."""
    server = RedisServer()
    server.start()
    settings.CHANNEL_LAYERS, settings.CACHES = redis_services(server.url, request.param)
    channel_layers.backends.clear()
    yield server
    server.remove()


def roll(client: Client, campaign) -> int:
    return post_roll(client, campaign, {"kind": "reaction", "key": fresh_key()}).status_code


async def test_the_table_plays_through_a_redis_outage_and_catches_up_after(
    redis, campaign, owner, member, client_for, cookies, settings, monkeypatch
):
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.2)
    gm = await sync_to_async(client_for)(owner)
    player = await joined(campaign, cookies["member"], "player-member")
    table = reverse("rolls:table", args=[campaign.pk])

    redis.stop()
    assert (await sync_to_async(gm.get)(table)).status_code == 200
    assert await sync_to_async(roll)(gm, campaign) == 200
    assert await Roll.objects.acount() == 1  # saved; its push is what was lost
    settings.RATELIMIT_ENABLE = True  # sign-ups are counted in Redis
    signup = await sync_to_async(Client().post)(reverse("signup"), {"username": "newcomer"})
    assert signup.status_code == 503 and signup["Retry-After"] == "2"
    connected, _ = await socket_for(campaign, cookies["owner"]).connect()
    assert not connected  # turned down, for the page to try again

    redis.start()
    assert await sync_to_async(roll)(gm, campaign) == 200
    latest = await Roll.objects.alatest("pk")
    # A socket opened now gets the table, both rolls in it, and the next roll's push.
    again = await joined(campaign, cookies["owner"])
    assert await sync_to_async(roll)(gm, campaign) == 200
    newest = await Roll.objects.alatest("pk")
    await until(again, f'id="roll-{encode(newest.pk)}"')
    # The player's socket missed pushes: the heartbeat finds it behind and sends it the
    # table as it stands (on pub/sub), or the layer closed it as a restart would and the
    # page reconnects (on core's queues, which died with Redis).
    frames = []
    for _ in range(50):
        output = await player.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            assert output["code"] == 1011
            break
        frames.append(output["text"])
        if "data-state" in frames[-1] and f'id="roll-{encode(latest.pk)}"' in frames[-1]:
            break
        await asyncio.sleep(0)
    else:
        raise AssertionError("the player's socket was neither caught up nor closed")
    for socket in (player, again):
        await socket.disconnect()
