"""The floor for the live table's pushed events: a plain `websockets` broadcast server.

    python -m tests.benchmarks.broadcast_floor PORT

One process, no database, no Django, no channel layer: a socket at /table/<n> joins table n,
and whatever a socket sends goes to every socket of its table (the sender's too), as a
FudgeTable event goes to every browser at the table. The live-table benchmark (--events)
runs it on the same load as FudgeTable, so the two sets of figures sit side by side.
"""

import asyncio
import sys
import time
from collections import defaultdict

from websockets.asyncio.client import ClientConnection
from websockets.asyncio.server import ServerConnection, broadcast, serve

from tests.benchmarks.load import Table
from tests.benchmarks.table_events import note, words

tables: dict[str, set[ServerConnection]] = defaultdict(set)


async def _table(socket: ServerConnection) -> None:
    members = tables[socket.request.path if socket.request else ""]
    members.add(socket)
    try:
        async for message in socket:
            broadcast(members, message)
    finally:
        members.discard(socket)


async def _serve(port: int) -> None:
    async with serve(_table, "127.0.0.1", port, compression=None, max_queue=None):
        await asyncio.Future()


async def send_event(socket: ClientConnection, table: Table, number: int, size: int) -> None:
    """The GM's socket sends what the event's fragment would say, padded to the size of
    FudgeTable's frames."""
    note(table, number, time.perf_counter())
    text = words(table, number)
    await socket.send(text + " " * max(0, size - len(text)))


if __name__ == "__main__":
    asyncio.run(_serve(int(sys.argv[1])))
