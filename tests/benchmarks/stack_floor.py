"""The stack's own floor: the broadcast floor's job done by daphne, Channels and FudgeTable's
channel layer, with no Django request, database or template in it.

    python -m tests.benchmarks.stack_floor PORT

A socket at /table/<n> joins table n's group, and whatever a socket sends goes to every socket
of its table (the sender's too) through the channel layer of the embedded default, each
socket's consumer forwarding it as the table's consumer forwards an event. What the live
table costs above this is FudgeTable's work; what this costs above the plain websockets floor
(broadcast_floor) is daphne's and Channels'. The live-table benchmark runs it with
--stack-floor.
"""

import os
import sys
from typing import Any

import django
from channels.generic.websocket import AsyncWebsocketConsumer
from channels.routing import URLRouter
from django.urls import path

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")
django.setup(set_prefix=False)


class Broadcast(AsyncWebsocketConsumer):
    """The least a table socket does on this stack: join its group, pass on what its table
    sends. Like the table's consumer, it skips Channels' hop to close stale database
    connections before each message (there is no database here to close)."""

    async def connect(self) -> None:
        self.group_name = f"table-{self.scope['url_route']['kwargs']['table']}"
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def dispatch(self, message: dict[str, Any]) -> None:
        if message["type"] == "websocket.receive":
            await self.channel_layer.group_send(
                self.group_name, {"type": "table.event", "text": message["text"]}
            )
        elif message["type"] == "table.event":
            await self.send(text_data=message["text"])
        else:
            await super().dispatch(message)


application = URLRouter([path("table/<int:table>", Broadcast.as_asgi())])

if __name__ == "__main__":
    from daphne.cli import CommandLineInterface

    CommandLineInterface().run(
        ["-b", "127.0.0.1", "-p", sys.argv[1], "tests.benchmarks.stack_floor:application"]
    )
