"""Commands take turns in Django instead of all running at once: HTTP requests and the
commands sent over the table's socket alike."""

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.utils.http import parse_header_parameters
from django.utils.translation import gettext

from fudgetable.middleware import BUSY_TEXT, RETRY_SECONDS

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
WAIT_SECONDS = 10.0


class Turns:
    """At most ``limit`` at a time; the others wait, in the order they came. One that waited
    ``wait`` seconds for its turn is turned away instead: past that the server is behind, and
    the person is better told to try again than kept waiting while the queue grows."""

    def __init__(self, limit: int, wait: float = WAIT_SECONDS) -> None:
        self.semaphore = asyncio.Semaphore(limit)
        self.wait = wait

    @contextlib.asynccontextmanager
    async def taken(self) -> AsyncIterator[bool]:
        """True while this has its turn; False if it waited too long and has none."""
        try:
            await asyncio.wait_for(self.semaphore.acquire(), self.wait)
        except TimeoutError:
            yield False
            return
        try:
            yield True
        finally:
            self.semaphore.release()


_process_turns: Turns | None = None


def process_turns() -> Turns:
    """The process's one set of turns, shared by HTTP requests (``RequestQueue``) and the
    table socket's commands (``rolls.table.consumers``), ``HTTP_CONCURRENCY`` of them."""
    global _process_turns
    if _process_turns is None:
        from django.conf import settings

        _process_turns = Turns(settings.HTTP_CONCURRENCY)
    return _process_turns


@dataclass(frozen=True)
class Lane:
    """Turns of their own for one heavy kind of request (a campaign's restore, an upload), so
    that it never takes one of the turns play needs, with its own words for one that waited
    too long and its own ``Retry-After``."""

    turns: Turns
    busy_text: Callable[[], str]
    retry_after: str


UPLOAD_WAIT_SECONDS = 30.0


def upload_lane() -> Lane:
    """The uploads' own turn in a process: one at a time (a picture costs up to a second of
    CPU to draw, docs/performance.md), the next waiting up to half a minute."""
    return Lane(
        Turns(1, wait=UPLOAD_WAIT_SECONDS),
        busy_text=lambda: gettext(
            "Other files are being sent to this server right now. Nothing was saved; "
            "try again in a minute."
        ),
        retry_after="60",
    )


def sends_files(scope: Scope) -> bool:
    """Whether the request's body is a form with files, the only body Django reads files
    from: its Content-Type read as Django reads it (several such headers joined by commas)."""
    types = [value for name, value in scope.get("headers", ()) if name.lower() == b"content-type"]
    try:
        kind, _ = parse_header_parameters(b",".join(types).decode("latin-1"))
    except ValueError:
        return False
    return kind == "multipart/form-data"


class RequestQueue:
    """HTTP requests run in Django as their ``Turns`` allow, the others waiting in the order
    they came. Each running request has a thread of its own, and a process's threads share
    one core (the GIL): forty requests at once each took forty times as long, handing the core
    back and forth, and queued for SQLite's one writer anyway. Taking turns, each is done as
    soon as its own work is (docs/performance.md). A socket's handshake does not wait here;
    its commands take turns from the same ``Turns`` (``process_turns``).

    A request that waited too long for its turn is answered 503 with the busy text. A POST to
    one of ``lanes``' paths takes that lane's turns instead; any other that sends files takes
    ``uploads``' turns: two pictures at once held both of the embedded default's turns for
    seconds, and every table's rolls waited (issue 37). Files, not paths, choose it: a picture
    goes up on several pages (a card at the table, a scene's backdrop) and only with a form
    with files, which Django reads from no other request."""

    def __init__(
        self,
        app: ASGIApp,
        turns: Turns,
        lanes: Mapping[str, Lane] | None = None,
        uploads: Lane | None = None,
    ) -> None:
        self.app = app
        self.turns = turns
        self.lanes = dict(lanes or {})
        self.uploads = uploads

    def lane(self, scope: Scope) -> Lane | None:
        # Django reads a method's name in capitals: "post" is a POST to it.
        if scope.get("method", "").upper() != "POST":
            return None
        return self.lanes.get(scope["path"]) or (self.uploads if sends_files(scope) else None)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lane = self.lane(scope)
        async with (lane.turns if lane else self.turns).taken() as turn:
            if turn:
                await self.app(scope, receive, send)
            elif lane:
                await _busy(send, lane.busy_text(), lane.retry_after)
            else:
                await _busy(send, BUSY_TEXT, RETRY_SECONDS)


async def _busy(send: Any, text: object, retry_after: str) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"retry-after", retry_after.encode()),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": str(text).encode()})
