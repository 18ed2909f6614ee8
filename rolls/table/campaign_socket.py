"""What a campaign's two sockets (the table's and an open sheet's, ``rolls.table.consumers``) share:
joining the campaign's group as one of their person's sockets, leaving it however the socket
ends, going when the table lets them go (a log-out, the campaign deleted) with the page told
why, and living through a Redis outage in scaled mode."""

import asyncio
import contextlib
import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext, gettext_lazy

from fudgetable import live, socket_commands
from fudgetable.middleware import redis_away
from rolls.table.people_sockets import Person, people

logger = logging.getLogger(__name__)

# What a page hears when its person's socket is let go: removed from the campaign, say.
NO_LONGER_AT_THE_TABLE = gettext_lazy(
    "You can no longer play at this table from here: reload the page to see why."
)
NO_LONGER_YOUR_SHEET = gettext_lazy("This sheet is no longer open to you: reload the page.")
# The close of a socket past its person's limit. Not 1008 (policy): daphne's websocket library
# sends only 1000 and 3000-4999, refused 1008 with a traceback and dropped the socket as 1011,
# which htmx retries, so the page came back every few seconds to be refused again. htmx
# retries none of 4000-4999 (private use), and live.js says why it stays down.
TOO_MANY = 4008


def too_many() -> str:
    return gettext(
        "You have %(most)s table and sheet pages open already, the most one person may have "
        "open at once: close one of them, then reload this page."
    ) % {"most": settings.SOCKETS_PER_PERSON}


class CampaignSocket(AsyncWebsocketConsumer):
    """What both of a campaign's sockets share: joining and leaving the campaign's group, and
    going when the table lets them go (a log-out of the session that opened them, the
    campaign deleted): the page is told why, then the socket closes, cleanly, so that htmx
    does not try it again."""

    group_name: str
    person: Person
    counted = False  # counted among its person's sockets (``people``), not yet let go
    left = False  # left the table, all of it (``leave_table``)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The socket's life, as Channels runs it; but with Redis away (scaled mode) the
        socket is turned down at its handshake, or closed as a server restarting would close
        it (1011), so the page tries again within seconds instead of the socket dying with a
        traceback. The pub/sub layer subscribes a socket's own channel before anything else,
        so the handshake is where an outage shows first.

        However its life ends, the socket leaves the table: a socket closed while its
        consumer was busy (a command waiting on the shared thread) never hears its
        disconnect, and daphne cancels it ``application_close_timeout`` later. Left counted,
        eight of those locked a person out of their table until a restart, and listed them
        at it."""
        try:
            await super().__call__(scope, receive, send)
        except Exception as error:
            if not redis_away(error):
                raise
            logger.warning("a socket lost the channel layer (%s); its page will reconnect", error)
            with contextlib.suppress(Exception):
                if hasattr(self, "group_name"):
                    await self.disconnect(1011)
                await send({"type": "websocket.close", "code": 1011})
        finally:
            self.let_go()  # at once, whatever happens to the awaits below
            if hasattr(self, "group_name") and not self.left:
                # Shielded: a second cancel (a server shutting down) ends the wait for it,
                # not the leaving.
                try:
                    await asyncio.shield(self.leave_table())
                except Exception:
                    # Whatever was on its way out (a cancel, an error) goes on out.
                    logger.exception("%s: a socket could not leave", self.group_name)

    async def join_table(self, campaign_id: int, user_id: int) -> bool:
        """Joins the campaign's group as one of the person's sockets (``people_sockets``).
        False when it may not, and the socket is then gone: past the person's limit (their
        sockets at every campaign, in this process) it is accepted only to be told so and
        closed (``TOO_MANY``: their page does not try again); with
        the channel layer away (Redis in scaled mode) the handshake is turned down, and the
        page tries again within seconds, as after any dropped connection."""
        if not people.arrive(user_id):
            await self.accept()
            await self.leave_saying(too_many(), code=TOO_MANY)
            return False
        self.person, self.counted = (campaign_id, user_id), True
        try:
            await self.channel_layer.group_add(live.group_name(campaign_id), self.channel_name)
        except Exception as error:
            self.let_go()
            logger.warning("table %s: a socket could not join (%s)", campaign_id, error)
            await self.close()
            return False
        self.group_name = live.group_name(campaign_id)
        return True

    def let_go(self) -> None:
        """What leaving the table undoes in this process's memory, at once: the person's
        count. Runs once, however often it is called."""
        if self.counted:
            self.counted = False
            people.leave(self.person[1])

    async def leave_table(self) -> None:
        """Leaves the campaign's group, and whatever else the socket's kind undoes
        (``left_table``): what a socket ending runs, on its disconnect or, missed that, when
        its consumer is cancelled (``__call__``)."""
        if not hasattr(self, "group_name") or self.left:
            return
        self.let_go()
        try:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
        except Exception as error:
            logger.warning("%s: a socket could not leave (%s)", self.group_name, error)
        await self.left_table()
        self.left = True

    async def left_table(self) -> None:
        """What a kind of socket undoes when it leaves, past the group (its presence)."""

    async def leave_saying(self, text: str | StrPromise, code: int | None = None) -> None:
        await self.send(text_data=live.notice(str(text)))
        await self.close(code)

    async def table_signed_out(self, event: dict[str, Any]) -> None:
        if event["session_key"] == self.scope["session"].session_key:
            await self.leave_saying(socket_commands.LOGGED_OUT)

    async def table_closed(self, event: dict[str, Any]) -> None:
        await self.leave_saying(gettext("This campaign was deleted: its table is closed."))
