"""The table sockets' heartbeat: one per process, it keeps every socket marked present and
catches up the ones that missed the table's last event."""

import asyncio
import contextlib
import logging
from typing import Protocol

from channels.db import database_sync_to_async
from channels.exceptions import ChannelFull
from channels.layers import BaseChannelLayer
from django.utils import timezone

from fudgetable import live
from rolls.table.models import TableConnection

HEARTBEAT_SECONDS = 30
# Channel names per UPDATE, well under SQLite's limit on the parameters of one query.
HEARTBEAT_BATCH = 500
logger = logging.getLogger(__name__)


class Socket(Protocol):
    """What the heartbeat reads of a table socket (``TableConsumer``)."""

    channel_name: str
    channel_layer: BaseChannelLayer
    campaign_id: int
    user_id: int
    seq: int
    mine: int

    @property
    def audience(self) -> live.Audience: ...


_numbers = database_sync_to_async(live.current_seqs)
_people_numbers = database_sync_to_async(live.current_person_seqs)


@database_sync_to_async
def _still_here(channel_names: list[str]) -> None:
    now = timezone.now()
    for start in range(0, len(channel_names), HEARTBEAT_BATCH):
        batch = channel_names[start : start + HEARTBEAT_BATCH]
        TableConnection.objects.filter(channel_name__in=batch).update(seen_at=now)


class Heartbeat:
    """Keeps every table socket of this process marked present with one UPDATE per beat, and
    catches up the sockets that missed the table's last event (``catch_up_behind``).

    A beat per socket was one write per socket every HEARTBEAT_SECONDS: 800 sockets made 27
    writes a second, each queueing for SQLite's single write lock in front of the rolls.
    """

    def __init__(self) -> None:
        self.channels: dict[str, Socket] = {}
        self.task: asyncio.Task[None] | None = None

    def join(self, socket: Socket) -> None:
        self.channels[socket.channel_name] = socket
        loop = asyncio.get_running_loop()
        if self.task is None or self.task.done() or self.task.get_loop() is not loop:
            self.task = loop.create_task(self._beat())

    def leave(self, channel_name: str) -> None:
        self.channels.pop(channel_name, None)
        if not self.channels and self.task is not None:
            # A test's event loop may be gone by now; its tasks went with it.
            if not self.task.get_loop().is_closed():
                self.task.cancel()
            self.task = None

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)
            try:
                await _still_here(sorted(self.channels))
                await self.catch_up_behind()
            except Exception:
                # The database or the channel layer (Redis) away: the next beat tries again,
                # and presence only expires after several missed. A beat that ended here
                # would leave the sockets that missed pushes meanwhile uncaught for good.
                logger.exception("table heartbeat failed")

    async def catch_up_behind(self) -> None:
        """Redis skips a full channel without a word, and a socket finds a gap only at the
        next event, which at a quiet table may be long in coming. One query reads the numbers
        of this process's tables; a socket short of its audience's is told to catch up. Told
        through its channel, so it reads the word in turn with its events: one that arrived
        meanwhile leaves it nothing to do (``TableConsumer.table_behind``)."""
        sockets = list(self.channels.values())
        numbers = await _numbers({socket.campaign_id for socket in sockets})
        # And each person's own number (their whispers), in a second query.
        mine = await _people_numbers({(s.campaign_id, s.user_id) for s in sockets})
        for socket in sockets:
            seq = numbers.get(socket.campaign_id, {}).get(socket.audience, 0)
            own = mine.get((socket.campaign_id, socket.user_id), 0)
            if socket.seq < seq or socket.mine < own:
                # A full channel is a busy one: its next event shows the gap soon enough.
                with contextlib.suppress(ChannelFull):
                    await socket.channel_layer.send(
                        socket.channel_name, {"type": "table.behind", "seq": seq, "mine": own}
                    )


heartbeat = Heartbeat()
