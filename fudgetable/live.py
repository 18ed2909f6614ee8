"""Pushes rendered fragments to every browser at a campaign's table.

Services call ``publish`` inside their transaction; the message leaves only once it commits.
Each event carries its fragment rendered once per audience: ``everyone`` for players and
observers, and ``gm`` for the campaign's GMs when they see more (a secret roll, a hidden
difficulty). Each socket's consumer forwards only the one its person may see, so secret
content never reaches a player's browser. htmx's ws extension swaps the fragments in by id.
"""

import asyncio
import logging
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Literal, Protocol, TypedDict

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import IntegrityError, connection, transaction
from django.utils.html import escape

logger = logging.getLogger(__name__)

# Who a fragment is rendered for: GMs, or everyone else (players and observers).
Audience = Literal["everyone", "gm"]
AUDIENCES: tuple[Audience, ...] = ("everyone", "gm")


class Member(Protocol):
    """What the platform needs of a campaign's membership, without importing the app."""

    @property
    def is_gm(self) -> bool: ...


def audience_of(membership: Member) -> Audience:
    return "gm" if membership.is_gm else "everyone"


class ByAudience(TypedDict):
    """One fragment for each audience: ``publish(..., **fragments)``."""

    everyone: str
    gm: str


def by_audience(render: Callable[[Audience], str]) -> ByAudience:
    return {"everyone": render("everyone"), "gm": render("gm")}


def group_name(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def _message(
    event: str,
    everyone: str | None,
    gm: str | None,
    entry: int | None = None,
    seq: Mapping[str, int] | None = None,
    people: Mapping[int, str] | None = None,
) -> dict[str, object]:
    message: dict[str, object] = {
        "type": "table.event",
        "event": event,
        "everyone": everyone,
        "gm": gm,
        "entry": entry,
        "seq": dict(seq or {}),
    }
    if people:  # keyed by strings: a layer's serialiser may not keep whole-number keys
        message["people"] = {str(user_id): html for user_id, html in people.items()}
    return message


def for_person(event: Mapping[str, object], user_id: int, *, gm: bool) -> str | None:
    """What a table event brings one person's socket: the GMs' fragment, this player's own
    (a card shown to them alone), or everyone's."""
    if gm:
        return event["gm"]  # type: ignore[return-value]
    people = event.get("people") or {}
    assert isinstance(people, dict)
    return people.get(str(user_id), event["everyone"])


def next_seq(campaign_id: int, *, players: bool) -> dict[str, int]:
    """The table's next event numbers, each audience's, taken in the current transaction (the
    row stays locked until it commits, so the numbers go out in the order they were taken).
    ``players=False``: an event only GMs get, which advances only their count."""
    # Imported here: this module is read before the app registry is ready (the layer class).
    from fudgetable.models import TableSequence

    # One statement, UPDATE ... RETURNING (PostgreSQL, SQLite 3.35+): the ORM's update() would
    # need a second query to read the numbers back, on every event of every command.
    table = TableSequence._meta.db_table
    step = "gm = gm + 1" + (", everyone = everyone + 1" if players else "")
    sql = f"UPDATE {table} SET {step} WHERE campaign_id = %s RETURNING everyone, gm"
    with connection.cursor() as cursor:
        cursor.execute(sql, [campaign_id])
        row = cursor.fetchone()
    if row is None:  # the table's first event
        try:
            with transaction.atomic():
                TableSequence.objects.create(campaign_id=campaign_id)
        except IntegrityError:  # another command made the row first
            pass
        with connection.cursor() as cursor:
            cursor.execute(sql, [campaign_id])
            row = cursor.fetchone()
    everyone, gm = row
    return {"everyone": everyone, "gm": gm} if players else {"gm": gm}


def current_seq(campaign_id: int, audience: Audience) -> int:
    """The number of the last event the table sent ``audience``: a table state read after it
    shows everything up to it."""
    return current_seqs([campaign_id]).get(campaign_id, {}).get(audience, 0)


def current_seqs(campaign_ids: Collection[int]) -> dict[int, dict[Audience, int]]:
    """``current_seq`` of several tables in one query, each audience's: what a process's
    heartbeat holds its sockets to."""
    from fudgetable.models import TableSequence

    rows = TableSequence.objects.filter(campaign_id__in=campaign_ids)
    return {
        campaign_id: {"everyone": everyone, "gm": gm}
        for campaign_id, everyone, gm in rows.values_list("campaign_id", "everyone", "gm")
    }


def seq_mark(seq: int, *, state: bool = False) -> str:
    """What a screen reads an event's number from (live.js): a gap means one went missing, and
    the screen asks its socket for the table as it stands. ``state``: the table as it stands."""
    return (
        f'<span id="table-seq" data-seq="{seq}"{" data-state" if state else ""} hidden'
        ' hx-swap-oob="true"></span>'
    )


def _send_on_commit(campaign_id: int, message: dict[str, object]) -> None:
    """Sends ``message`` to the table's group once the current transaction commits, so no
    screen hears of a change that was rolled back.

    A layer that cannot take it (Redis away) costs the push, not the change: the change is
    saved and its answer goes out as usual, and the sockets that missed it are caught up by
    its number (the next event shows the gap; the heartbeat finds a quiet table's)."""

    def send() -> None:
        held = _held.get()
        if held is not None:
            held.append((campaign_id, message))
            return
        try:
            async_to_sync(get_channel_layer().group_send)(group_name(campaign_id), message)
        except Exception as error:
            _push_lost(campaign_id, message, error)

    transaction.on_commit(send)


Held = list[tuple[int, dict[str, object]]]
_held: ContextVar[Held | None] = ContextVar("held_pushes", default=None)


@contextmanager
def held_pushes() -> Iterator[Held]:
    """Keeps the pushes that commit meanwhile, in order, instead of sending them: a socket's
    command runs on the worker thread, and each push sent from there crossed to the event loop
    and back while the thread waited. The consumer sends them (``send_held``) once it is back
    on the loop: one crossing each way for the whole command."""
    held: Held = []
    token = _held.set(held)
    try:
        yield held
    finally:
        _held.reset(token)


async def send_held(held: Held) -> None:
    """Sends the pushes a command held, in order. Commands' pushes leave in the order the
    commands came back to the loop, as they left the one database thread in commit order: on
    Redis a group send waits on the network, and a later command's push overtaking an earlier
    one would make every socket of the table see a number skipped and ask for its state."""
    if not held:
        return
    layer = get_channel_layer()
    async with _sending():
        for campaign_id, message in held:
            try:
                await layer.group_send(group_name(campaign_id), message)
            except Exception as error:
                _push_lost(campaign_id, message, error)


_locks: dict[asyncio.AbstractEventLoop, asyncio.Lock] = {}


def _sending() -> asyncio.Lock:
    """The running loop's lock on sending held pushes (asyncio's lock is first come, first
    served). One per loop: tests run several loops in one process."""
    loop = asyncio.get_running_loop()
    lock = _locks.get(loop)
    if lock is None:
        for old in [old for old in _locks if old.is_closed()]:
            del _locks[old]
        lock = _locks[loop] = asyncio.Lock()
    return lock


def _push_lost(campaign_id: int, message: Mapping[str, object], error: Exception) -> None:
    logger.warning(
        "table %s: %s not pushed (%s); its sockets catch up by number",
        campaign_id,
        message.get("event") or message["type"],
        error,
    )


def publish(
    campaign_id: int,
    event: str,
    *,
    everyone: str | None,
    gm: str | None = None,
    entry: int | None = None,
    numbered: bool = True,
    seq: Mapping[str, int] | None = None,
    people: Mapping[int, str] | None = None,
) -> Mapping[str, int]:
    """Sends ``event`` to the table once the current transaction commits, and returns its
    numbers. ``gm`` defaults to what everyone sees; ``everyone=None`` sends players nothing at
    all. ``people``: what some players (by user id) get instead of ``everyone`` (a card shown
    to them alone); everyone's count advances alike, so the others' numbers say only that
    something happened. ``entry`` is the roll an event adds to the log, so a socket whose
    table state already shows it skips it. ``seq``: the numbers already taken for it
    (``next_seq``), when the change had to know them first. ``numbered=False``: a moment, not
    a change a screen must catch up on (the X-card), so it takes no number and writes
    nothing."""
    if seq is None and numbered:
        seq = next_seq(campaign_id, players=everyone is not None)
    message = _message(event, everyone, everyone if gm is None else gm, entry, seq, people)
    _send_on_commit(campaign_id, message)
    return seq or {}


async def publish_now(
    campaign_id: int, event: str, *, everyone: str | None, gm: str | None = None
) -> None:
    """``publish`` for async code outside a transaction (the consumer's presence events)."""
    message = _message(event, everyone, everyone if gm is None else gm)
    try:
        await get_channel_layer().group_send(group_name(campaign_id), message)
    except Exception as error:
        _push_lost(campaign_id, message, error)


def next_person_seqs(campaign_id: int, user_ids: Collection[int]) -> dict[int, int]:
    """Each person's next number of their own at the table (a whisper to them), taken in the
    current transaction, one person after another in the order of their ids, so that two
    whispers to the same people lock their rows in one order and never wait on each other."""
    from fudgetable.models import PersonSequence

    people = sorted(set(user_ids))
    PersonSequence.objects.bulk_create(
        [PersonSequence(campaign_id=campaign_id, user_id=user_id) for user_id in people],
        ignore_conflicts=True,
    )
    table = PersonSequence._meta.db_table
    sql = f"UPDATE {table} SET seq = seq + 1 WHERE campaign_id = %s AND user_id = %s RETURNING seq"
    numbers = {}
    with connection.cursor() as cursor:
        for user_id in people:
            cursor.execute(sql, [campaign_id, user_id])
            numbers[user_id] = cursor.fetchone()[0]
    return numbers


def current_person_seq(campaign_id: int, user_id: int) -> int:
    """The number of the last thing the table sent this person alone (0: none yet)."""
    return current_person_seqs([(campaign_id, user_id)]).get((campaign_id, user_id), 0)


def current_person_seqs(people: Collection[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """``current_person_seq`` of several (campaign, person) pairs in one query: what a
    process's heartbeat holds its sockets to."""
    from fudgetable.models import PersonSequence

    campaigns = {campaign_id for campaign_id, _ in people}
    users = {user_id for _, user_id in people}
    rows = PersonSequence.objects.filter(campaign_id__in=campaigns, user_id__in=users)
    numbers = rows.values_list("campaign_id", "user_id", "seq")
    wanted = set(people)
    return {(c, u): seq for c, u, seq in numbers if (c, u) in wanted}


def person_mark(seq: int) -> str:
    """What a screen reads its person's own number from (live.js), as ``seq_mark`` the
    table's."""
    return f'<span id="my-seq" data-seq="{seq}" hidden hx-swap-oob="true"></span>'


def publish_whisper(campaign_id: int, event: str, *, html: str, seqs: Mapping[int, int]) -> None:
    """Sends ``html`` to the sockets of the people ``seqs`` names alone, once the current
    transaction commits, each with their own number for it (``next_person_seqs``). Every
    other socket of the table forwards nothing, so a whisper's words and its being sent
    reach nobody else's browser."""
    message: dict[str, object] = {
        "type": "table.whisper",
        "event": event,
        "html": html,
        # String keys: a channel layer's serialiser may not keep whole numbers as keys.
        "seqs": {str(user_id): seq for user_id, seq in seqs.items()},
    }
    _send_on_commit(campaign_id, message)


def publish_to_people(campaign_id: int, event: str, *, people: Mapping[int, str]) -> None:
    """Sends each person ``people`` names their own fragment, numbered in their own count
    (``next_person_seqs``) as a whisper is: what some players see and the rest may not (a card
    shown to them alone). Nobody else's socket forwards anything, and no other count moves,
    so the others' screens cannot tell that something happened."""
    seqs = next_person_seqs(campaign_id, people)
    message: dict[str, object] = {
        "type": "table.whisper",
        "event": event,
        "html": "",
        "people": {str(user_id): html for user_id, html in people.items()},
        "seqs": {str(user_id): seq for user_id, seq in seqs.items()},
    }
    _send_on_commit(campaign_id, message)


def publish_to_person(campaign_id: int, user_id: int, event: str, *, html: str) -> None:
    """Sends ``event`` to one person's sockets at the table once the current transaction
    commits: their own controls, such as a hand the GM's move lowered."""
    message = {"type": "table.personal", "event": event, "user_id": user_id, "html": html}
    _send_on_commit(campaign_id, message)


def member_changed(campaign_id: int, user_id: int) -> None:
    """Tells that person's sockets to look up their role again (or to leave)."""
    _send_on_commit(campaign_id, {"type": "table.member", "user_id": user_id})


def session_ended(campaign_id: int, session_key: str) -> None:
    """Closes the table's sockets opened with that session (a log-out): by its key, not by
    reading the session store, which may not have forgotten it yet."""
    _send_on_commit(campaign_id, {"type": "table.signed_out", "session_key": session_key})


def table_closed(campaign_id: int) -> None:
    """Closes every socket at the table, once the current transaction commits (the campaign
    was deleted)."""
    _send_on_commit(campaign_id, {"type": "table.closed"})


def notice(text: str) -> str:
    """The page's notice (``#notice`` in base.html) saying ``text``: what a socket sends
    before it closes for good, so the page says why."""
    return (
        '<div id="notice" class="messages" role="alert" hx-swap-oob="true">'
        f'<p class="message message-error">{escape(text)}</p></div>'
    )


def sheet_changed(
    campaign_id: int,
    character_id: int,
    *,
    players: bool,
    parts: Mapping[str, Mapping[str, str]] | None = None,
) -> None:
    """Tells the open copies of a sheet (``SheetConsumer``) that it changed, once the current
    transaction commits, with its live parts as ``parts`` drew them for some audiences; the
    others' copies draw their own. ``players=False`` (an NPC the players have not met)
    reaches only GMs' copies."""
    message = {
        "type": "table.sheet",
        "character_id": character_id,
        "players": players,
        "parts": dict(parts or {}),
    }
    _send_on_commit(campaign_id, message)
