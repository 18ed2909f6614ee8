"""The commands a page's socket takes: the table page's, and an open sheet's, each sent as the
POST it stands for and run as that view (``fudgetable.socket_commands``)."""

from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from django.urls import ResolverMatch

from fudgetable import live, socket_commands
from fudgetable.request_queue import process_turns

# The apps whose POSTs a page's socket runs, only for its own campaign.
COMMAND_APPS = ("rolls", "characters")


class TakesCommands:
    """For a consumer (``AsyncWebsocketConsumer``) of one campaign's page."""

    campaign_id: int
    scope: dict[str, Any]
    # Whether the table's events reach this socket, so that a command whose push redraws its
    # card is answered by that push (``http.over_table_socket``).
    table_events = True

    # The consumer's own (annotations only: the consumer's methods stay in charge).
    send: Callable[..., Awaitable[None]]
    close: Callable[..., Awaitable[None]]

    def takes(self, match: ResolverMatch) -> bool:
        """The commands this socket runs: the table's and the sheets', of its own campaign."""
        ours = match.kwargs.get("campaign_id") == self.campaign_id
        return ours and match.app_name in COMMAND_APPS

    async def take(self, command: socket_commands.Command) -> None:
        """Runs ``command`` and answers it on this socket; a person no longer logged in is
        refused, and the socket closes. Channels hands a consumer one message at a time, so
        one socket's commands are run in the order they were sent."""
        # A turn shared with the process's HTTP requests: past them, a command waits its
        # turn, and one that waited too long is told to try again, not queued for ever.
        async with process_turns().taken() as turn:
            held: live.Held = []
            if turn:
                run = database_sync_to_async(socket_commands.run)
                answer, still_in = await run(
                    command,
                    self.scope,
                    allowed=self.takes,
                    table_events=self.table_events,
                    held=held,
                )
            else:
                answer, still_in = socket_commands.busy(command), True
        # The table hears of the change before its maker reads the answer, as over HTTP.
        await live.send_held(held)
        await self.send(text_data=answer)
        if not still_in:
            await self.close()
