"""What a campaign's two sockets (the table's and an open sheet's, ``rolls.consumers``) share:
joining the campaign's group as one of their person's sockets, leaving it, going when the
table lets them go (a log-out, the campaign deleted) with the page told why, and living
through a Redis outage in scaled mode."""

import contextlib
import logging
from typing import Any

from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils.functional import Promise as StrPromise
from django.utils.translation import gettext, gettext_lazy

from fudgetable import live, socket_commands
from fudgetable.middleware import redis_away
from rolls.people_sockets import Person, people

logger = logging.getLogger(__name__)

# What a page hears when its person's socket is let go: removed from the campaign, say.
NO_LONGER_AT_THE_TABLE = gettext_lazy(
    "You can no longer play at this table from here: reload the page to see why."
)
NO_LONGER_YOUR_SHEET = gettext_lazy("This sheet is no longer open to you: reload the page.")
POLICY = 1008  # a close htmx does not retry: the page is not to try again


def too_many() -> str:
    return gettext(
        "This table is open in %(most)s of your pages already, the most one person may have "
        "here: close one of them, then reload this page."
    ) % {"most": settings.SOCKETS_PER_PERSON}


class CampaignSocket(AsyncWebsocketConsumer):
    """What both of a campaign's sockets share: joining and leaving the campaign's group, and
    going when the table lets them go (a log-out of the session that opened them, the
    campaign deleted): the page is told why, then the socket closes, cleanly, so that htmx
    does not try it again."""

    group_name: str
    person: Person

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        """The socket's life, as Channels runs it; but with Redis away (scaled mode) the
        socket is turned down at its handshake, or closed as a server restarting would close
        it (1011), so the page tries again within seconds instead of the socket dying with a
        traceback. The pub/sub layer subscribes a socket's own channel before anything else,
        so the handshake is where an outage shows first."""
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

    async def join_table(self, campaign_id: int, user_id: int) -> bool:
        """Joins the campaign's group as one of the person's sockets (``people_sockets``).
        False when it may not, and the socket is then gone: past the person's limit it is
        accepted only to be told so and closed (cleanly: their page does not try again); with
        the channel layer away (Redis in scaled mode) the handshake is turned down, and the
        page tries again within seconds, as after any dropped connection."""
        person = (campaign_id, user_id)
        if not people.arrive(person):
            await self.accept()
            await self.leave_saying(too_many(), code=POLICY)
            return False
        try:
            await self.channel_layer.group_add(live.group_name(campaign_id), self.channel_name)
        except Exception as error:
            people.leave(person)
            logger.warning("table %s: a socket could not join (%s)", campaign_id, error)
            await self.close()
            return False
        self.group_name, self.person = live.group_name(campaign_id), person
        return True

    async def leave_table(self) -> None:
        people.leave(self.person)
        try:
            await self.channel_layer.group_discard(self.group_name, self.channel_name)
        except Exception as error:
            logger.warning("%s: a socket could not leave (%s)", self.group_name, error)

    async def leave_saying(self, text: str | StrPromise, code: int | None = None) -> None:
        await self.send(text_data=live.notice(str(text)))
        await self.close(code)

    async def table_signed_out(self, event: dict[str, Any]) -> None:
        if event["session_key"] == self.scope["session"].session_key:
            await self.leave_saying(socket_commands.LOGGED_OUT)

    async def table_closed(self, event: dict[str, Any]) -> None:
        await self.leave_saying(gettext("This campaign was deleted: its table is closed."))
