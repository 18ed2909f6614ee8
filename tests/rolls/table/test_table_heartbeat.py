"""Presence stays fresh through one heartbeat per process, whatever its number of sockets."""

import asyncio
from datetime import timedelta

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from fudgetable.asgi import application
from rolls.models import TableConnection
from rolls.table import heartbeat
from tests.table_sockets import HOST, ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)


def _age_every_connection() -> None:
    TableConnection.objects.update(seen_at=timezone.now() - timedelta(minutes=5))


def _stale_connections() -> int:
    return TableConnection.objects.filter(seen_at__lt=timezone.now() - timedelta(minutes=1)).count()


async def test_one_beat_refreshes_every_socket_of_the_process(campaign, cookies, monkeypatch):
    monkeypatch.setattr(heartbeat, "HEARTBEAT_SECONDS", 0.05)
    beats = []
    real_still_here = heartbeat._still_here

    async def counting(channel_names):
        beats.append(list(channel_names))
        await real_still_here(channel_names)

    monkeypatch.setattr(heartbeat, "_still_here", counting)
    sockets = [
        WebsocketCommunicator(
            application, f"/ws/campaigns/{campaign.pk}/", headers=[HOST, ORIGIN, c]
        )
        for c in (cookies["owner"], cookies["member"])
    ]
    for socket in sockets:
        assert (await socket.connect())[0]
        await socket.receive_from(timeout=5)  # the table state
    # A socket joins the beat just after it sends its state, and a beat may come between the
    # two connections (on a slow machine both happened): once both have joined, each beat
    # covers both.
    for _ in range(100):
        if len(heartbeat.heartbeat.channels) == 2:
            break
        await asyncio.sleep(0.01)
    beats.clear()
    await sync_to_async(_age_every_connection)()

    for _ in range(100):
        await asyncio.sleep(0.05)
        if await sync_to_async(_stale_connections)() == 0:
            break
    assert await sync_to_async(_stale_connections)() == 0
    assert beats and all(len(beat) == 2 for beat in beats)  # both sockets, one UPDATE

    for socket in sockets:
        await socket.disconnect()
    assert heartbeat.heartbeat.task is None and not heartbeat.heartbeat.channels
