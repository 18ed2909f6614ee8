import json
from typing import Any
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncWebsocketConsumer
from django.conf import settings
from django.utils import timezone

from campaigns.models import Campaign, Membership
from campaigns.selectors import membership_for
from characters.sheet_page import Audience, Parts, copy_audience, live_parts
from fudgetable import live, socket_commands
from rolls import fragments
from rolls.calls.fragments import calls_for_person
from rolls.log.pane import Seen
from rolls.table.campaign_socket import NO_LONGER_AT_THE_TABLE, NO_LONGER_YOUR_SHEET, CampaignSocket
from rolls.table.heartbeat import heartbeat
from rolls.table.models import TableConnection
from rolls.table.people_sockets import people
from rolls.table.socket_takes import TakesCommands
from rolls.table.state import table_state


@database_sync_to_async
def _arrive(
    membership: Membership, channel_name: str, seen: Seen | None = None
) -> tuple[str, frozenset[int], int, int, str]:
    TableConnection.objects.update_or_create(
        channel_name=channel_name,
        defaults={
            "campaign_id": membership.campaign_id,
            "user_id": membership.user_id,
            "seen_at": timezone.now(),
        },
    )
    return (*_state(membership, seen), fragments.presence(membership.campaign))


def _state(
    membership: Membership, seen: Seen | None = None
) -> tuple[str, frozenset[int], int, int]:
    """The table as it stands, or what a page that saw ``seen`` lacks of it, with the number of
    the last event it shows: read first, so an event after it is one the state may lack, never
    one it would miss; and so is the person's own number (their whispers)."""
    seq = live.current_seq(membership.campaign_id, live.audience_of(membership))
    mine = live.current_person_seq(membership.campaign_id, membership.user_id)
    state, entries = table_state(membership, seq=seq, mine=mine, seen=seen)
    marks = live.seq_mark(seq, state=True) + live.person_mark(mine)
    return state + marks, entries, seq, mine


@database_sync_to_async
def _state_of(
    user: Any, campaign_id: int, seen: Seen | None = None
) -> tuple[bool, str, frozenset[int], int, int] | None:
    """Whether the person is a GM, and the table as they see it now; None once they left."""
    membership = membership_for(user, campaign_id)
    return None if membership is None else (membership.is_gm, *_state(membership, seen))


def _seen(scope: dict[str, Any]) -> Seen | None:
    """What the page opening this socket says it shows (live.js adds it to the address)."""
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    return Seen.read({name: values[-1] for name, values in query.items()})


_person = database_sync_to_async(socket_commands.person)


@database_sync_to_async
def _membership_now(scope: dict[str, Any], campaign_id: int) -> Membership | None:
    """The connection's person's membership as an HTTP request from their browser would find
    it now: None once they left, or their sign-in changed (``socket_commands.person``)."""
    user = socket_commands.person(scope)
    return None if user is None else membership_for(user, campaign_id)


def _as_it_stands(
    user: Any, campaign_id: int, character_id: int, *, csrf_secret: str, with_calls: bool
) -> tuple[str, str]:
    """A sheet's live parts for its viewer, and with them (``with_calls``) the viewer's calls
    for a roll: one hop for a sheet page catching up."""
    parts = live_parts(user, campaign_id, character_id, csrf_secret=csrf_secret)
    if not (with_calls and parts):  # no parts: the sheet is no longer theirs to open
        return parts, ""
    return parts, calls_for_person(Campaign.objects.get(pk=campaign_id), user.pk, oob=True)


@database_sync_to_async
def _leave(campaign_id: int, channel_name: str) -> str:
    TableConnection.objects.filter(channel_name=channel_name).delete()
    return fragments.presence(campaign_id)


class TableConsumer(CampaignSocket, TakesCommands):
    """One socket per browser at a campaign's table: it pushes the table's events, and runs
    the commands the page sends over it (``socket_commands``; without a socket, over HTTP).

    On every (re)connect it first sends the whole current table state, so a phone that dropped
    off catches up without a reload and nothing depends on having seen every message.
    """

    campaign_id: int
    user_id: int
    is_gm: bool
    # The log entries of the table state this socket sent. The socket joins its group before
    # reading that state, so that nothing committed meanwhile is missed; an entry committed
    # in between is then both in the state and queued as an event, and must be shown once.
    entries_sent: frozenset[int] = frozenset()
    # The number of the last event this socket passed on, or of the table state it sent: an
    # event past the next one means one went missing on its way here.
    seq = 0
    # The same for the person's own number: the whispers to them (``live.publish_whisper``).
    mine = 0

    @property
    def audience(self) -> live.Audience:
        return "gm" if self.is_gm else "everyone"

    async def connect(self) -> None:
        campaign_id = self.scope["url_route"]["kwargs"]["campaign_id"]
        membership = await database_sync_to_async(membership_for)(self.scope["user"], campaign_id)
        if membership is None:
            # Closing before accept turns the handshake down (HTTP 403) for anonymous users
            # and outsiders alike, so a refusal says nothing about whether the campaign exists.
            await self.close()
            return
        self.campaign_id, self.user_id, self.is_gm = (
            campaign_id,
            membership.user_id,
            membership.is_gm,
        )
        if not await self.join_table(campaign_id, membership.user_id):
            return
        await self.accept()
        state, self.entries_sent, self.seq, self.mine, presence = await _arrive(
            membership, self.channel_name, _seen(self.scope)
        )
        await self.send(text_data=state)
        await live.publish_now(campaign_id, "presence.changed", everyone=presence)
        heartbeat.join(self)

    async def disconnect(self, code: int) -> None:
        await self.leave_table()

    def let_go(self) -> None:
        if self.counted:
            heartbeat.leave(self.channel_name)
        super().let_go()

    async def left_table(self) -> None:
        presence = await _leave(self.campaign_id, self.channel_name)
        await live.publish_now(self.campaign_id, "presence.changed", everyone=presence)

    async def dispatch(self, message: dict[str, Any]) -> None:
        # Channels closes stale database connections before every handler, a hop to a worker
        # thread each time: eight per roll at a table of eight, and one more for the command.
        # A table event only forwards a string, and what a received message runs goes through
        # database_sync_to_async, which closes them itself.
        if message["type"] == "table.event":
            await self.table_event(message)
        elif message["type"] == "websocket.receive":
            await self.websocket_receive(message)
        else:
            await super().dispatch(message)

    async def table_event(self, event: dict[str, Any]) -> None:
        """A typed table event (``roll.created``, ``session.started``, ``presence.changed``…)
        carrying one fragment per audience; this socket forwards only what its person may see."""
        html = live.for_person(event, self.user_id, gm=self.is_gm)
        # Each event carries its number in this person's audience (a player's count skips the
        # GMs' own events): a screen that sees a number skipped knows it missed one (live.js).
        seq = event.get("seq", {}).get(self.audience)
        if seq:
            if seq <= self.seq:
                return  # the table state this socket sent shows it already
            if seq > self.seq + 1:
                # One went missing on its way here (a layer dropped it): the table as it
                # stands shows both, and the screen need not ask.
                await self._send_state()
                return
            self.seq = seq
        mark = live.seq_mark(seq) if seq else ""
        if html and event["entry"] not in self.entries_sent:
            await self.send(text_data=html + mark)
        elif mark:
            await self.send(text_data=mark)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page's messages: a table command (``socket_commands``), or, when it saw an
        event's number skipped, an ask for the table as it stands. Anything else is ignored.
        Channels hands a consumer one message at a time, so one socket's commands are run
        in the order they were sent."""
        try:
            asked = json.loads(text_data or "")
        except ValueError:
            return
        command = socket_commands.read(asked)
        if command is not None:
            await self.take(command)
        elif isinstance(asked, dict) and asked.get("catch_up") is True:
            await self._catch_up(Seen.read(asked))

    async def _catch_up(self, seen: Seen | None) -> None:
        """The page asks for what it lacks, saying what it saw. Asked within a second of the
        last build, it waits out the rest of it (the page counts on an answer), and all of the
        person's sockets asking the same meanwhile share that one build (``people_sockets``)."""

        async def build() -> tuple[bool, str, frozenset[int], int, int] | None:
            return await _state_of(self.scope["user"], self.campaign_id, seen)

        key = ("table", *self.person, seen)
        await self._show_state(await people.shared(self.user_id, key, build))

    async def _send_state(self) -> None:
        """The table as it stands, unasked and at once. Unasked, the socket cannot say which
        entries its page holds, so the page gets the log whole."""
        await self._show_state(await _state_of(self.scope["user"], self.campaign_id))

    async def _show_state(self, found: tuple[bool, str, frozenset[int], int, int] | None) -> None:
        """The person is looked up again with the table, as a member event would have them
        be: the event missed may have been that one."""
        if found is None:
            await self.leave_saying(NO_LONGER_AT_THE_TABLE)
            return
        self.is_gm, state, self.entries_sent, self.seq, self.mine = found
        await self.send(text_data=state)

    async def table_overflow(self, event: dict[str, Any]) -> None:
        """This socket's channel filled up and what it held was dropped
        (``memory_layer.overflowed``)."""
        await self._send_state()

    async def table_behind(self, event: dict[str, Any]) -> None:
        """The heartbeat saw the table past this socket's number (``Heartbeat.catch_up_behind``),
        or its person's own."""
        if event["seq"] > self.seq or event.get("mine", 0) > self.mine:
            await self._send_state()

    async def table_whisper(self, event: dict[str, Any]) -> None:
        """A whisper (``live.publish_whisper``): passed on only to its own people's sockets,
        each with its number in that person's own count; every other socket sends nothing."""
        seq = event["seqs"].get(str(self.user_id))
        if seq is None or seq <= self.mine:
            return
        if seq > self.mine + 1:  # one went missing on its way here
            await self._send_state()
            return
        self.mine = seq
        html = (event.get("people") or {}).get(str(self.user_id), event["html"])
        await self.send(text_data=html + live.person_mark(seq))

    async def table_personal(self, event: dict[str, Any]) -> None:
        """Something for one person's screens only (their hand control)."""
        if event["user_id"] == self.user_id:
            await self.send(text_data=event["html"])

    async def table_member(self, event: dict[str, Any]) -> None:
        """Someone's role or sign-in changed, or they left: that person's sockets look
        themselves up again, as an HTTP request from their browser would."""
        if event["user_id"] != self.user_id:
            return
        membership = await _membership_now(self.scope, self.campaign_id)
        if membership is None:
            await self.leave_saying(NO_LONGER_AT_THE_TABLE)
            return
        self.is_gm = membership.is_gm
        state, self.entries_sent, self.seq, self.mine, _ = await _arrive(
            membership, self.channel_name
        )
        await self.send(text_data=state)

    async def table_sheet(self, event: dict[str, Any]) -> None:
        """A sheet changed: the table hears of it through ``party.changed`` instead."""


class SheetConsumer(CampaignSocket, TakesCommands):
    """An open sheet page's socket: when its sheet changes elsewhere it sends the sheet's live
    parts as its viewer's audience sees them, by the page's own rules: drawn by the change's
    request for the GMs, or else drawn here (``characters.sheet_page``). A player's private
    notes never travel to another player's socket, and each copy's Roll buttons get keys of
    their own. A page back from a dropped connection asks for the parts as they stand. It
    sends no table state, and counts nobody as at the table."""

    campaign_id: int
    character_id: int
    is_gm: bool
    audience: Audience
    table_events = False  # a sheet's socket forwards no table event

    async def _opener(
        self, campaign_id: int, character_id: int
    ) -> tuple[Membership, Audience] | None:
        """The membership that may open this sheet and whom its copy is drawn for, or None
        (an outsider, a player and an NPC not yet met)."""
        membership = await database_sync_to_async(membership_for)(self.scope["user"], campaign_id)
        if membership is None:
            return None
        audience = await database_sync_to_async(copy_audience)(membership, character_id)
        return None if audience is None else (membership, audience)

    async def connect(self) -> None:
        kwargs = self.scope["url_route"]["kwargs"]
        campaign_id, character_id = kwargs["campaign_id"], kwargs["character_id"]
        opened = await self._opener(campaign_id, character_id)
        if opened is None:
            await self.close()  # refused at the handshake, as an outsider is
            return
        membership, self.audience = opened
        self.campaign_id, self.character_id = campaign_id, character_id
        self.user_id, self.is_gm = membership.user_id, membership.is_gm
        if not await self.join_table(campaign_id, membership.user_id):
            return
        await self.accept()
        # A call for a roll shows on the sheet too: the open ones come with the connection.
        calls = await database_sync_to_async(calls_for_person)(
            membership.campaign, membership.user_id, oob=True, only_if_called=True
        )
        if calls:
            await self.send(text_data=calls)

    async def disconnect(self, code: int) -> None:
        await self.leave_table()

    async def dispatch(self, message: dict[str, Any]) -> None:
        # The table's own events are not this page's business; a call for a roll is.
        if message["type"] != "table.event":
            await super().dispatch(message)

    async def table_personal(self, event: dict[str, Any]) -> None:
        # A call for a roll, and a change someone else made to this person's character.
        if event["user_id"] == self.user_id and event["event"] in ("call.changed", "sheet.news"):
            await self.send(text_data=event["html"])

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        """The page's messages: a tap on the sheet (a command, as on the table's socket), or,
        after its socket was down, an ask to catch up (live.js), answered with the live parts
        and its person's calls for a roll as they stand. Anything else is ignored."""
        try:
            asked = json.loads(text_data or "")
        except ValueError:
            return
        command = socket_commands.read(asked)
        if command is not None:
            await self.take(command)
        elif isinstance(asked, dict) and asked.get("catch_up") is True:
            await self._send_own_parts(with_calls=True, shared=True)

    async def table_whisper(self, event: dict[str, Any]) -> None:
        """A whisper, or a card shown to some players alone (``live.publish_to_people``): the
        table's business, which a sheet page does not show. Without this handler the socket
        died on one (Channels raises on a message type nobody handles)."""

    async def table_sheet(self, event: dict[str, Any]) -> None:
        if event["character_id"] != self.character_id or not (event["players"] or self.is_gm):
            return
        drawn = event["parts"].get(self.audience)
        if drawn is not None:
            await self.send(text_data=Parts(**drawn).for_copy(self._csrf_secret()))
            return
        await self._send_own_parts()

    def _csrf_secret(self) -> str:
        return str(self.scope["cookies"].get(settings.CSRF_COOKIE_NAME, ""))

    async def _send_own_parts(self, *, with_calls: bool = False, shared: bool = False) -> None:
        """The sheet's live parts as they stand, drawn for this viewer; ``with_calls``: and
        the person's calls for a roll, none included, so that a page back from a drop loses a
        call that ended while it was away. ``shared``: a page's ask, drawn once for every copy
        of that browser asking within the second (``people_sockets``)."""

        async def draw() -> tuple[str, str]:
            # On the shared thread, as every other hop of the consumers. On a thread of the
            # loop's own pool (thread_sensitive=False) each draw left its database connection
            # open, out of the PostgreSQL pool for good: the socket tests ran the pool dry.
            return await database_sync_to_async(_as_it_stands)(
                self.scope["user"],
                self.campaign_id,
                self.character_id,
                csrf_secret=self._csrf_secret(),
                with_calls=with_calls,
            )

        copy = ("sheet", *self.person, self.character_id, self._csrf_secret(), with_calls)
        parts, calls = await (people.shared(self.user_id, copy, draw) if shared else draw())
        for frame in (parts, calls):
            if frame:
                await self.send(text_data=frame)

    async def table_member(self, event: dict[str, Any]) -> None:
        """Someone's role or sign-in changed, or they left: look again, and go if the sheet
        is gone or an HTTP request from this browser would be refused."""
        if event["user_id"] != self.user_id:
            return
        if await _person(self.scope) is None:  # their password changed, or their account went
            await self.leave_saying(socket_commands.LOGGED_OUT)
            return
        await self._look_again()

    async def _look_again(self) -> bool:
        opened = await self._opener(self.campaign_id, self.character_id)
        if opened is None:
            await self.leave_saying(NO_LONGER_YOUR_SHEET)
            return False
        self.is_gm, self.audience = opened[0].is_gm, opened[1]
        return True

    async def table_overflow(self, event: dict[str, Any]) -> None:
        """This socket's channel filled up and what it held was dropped
        (``memory_layer.overflowed``): a change to the sheet, or to its viewer's role, may
        have been among it."""
        if await self._look_again():
            # A call's personal message may have been among it.
            await self._send_own_parts(with_calls=True)


class UnknownSocket(AsyncWebsocketConsumer):
    """A socket to a path that names no table: closing before accept refuses the handshake."""

    async def connect(self) -> None:
        await self.close()
