"""HTTP requests take turns in Django instead of all running at once."""

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from fudgetable.middleware import BUSY_TEXT, RETRY_SECONDS

Scope = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]
WAIT_SECONDS = 10.0


class RequestQueue:
    """At most ``limit`` HTTP requests run in Django at a time; the others wait, in the order
    they came. Each running request has a thread of its own, and a process's threads share
    one core (the GIL): forty requests at once each took forty times as long, handing the core
    back and forth, and queued for SQLite's one writer anyway. Taking turns, each is done as
    soon as its own work is (docs/performance.md). Sockets do not wait here.

    A request that waited ``wait`` seconds for its turn is answered 503 with the busy text
    instead: past that the server is behind, and the person is better told to try again
    than kept waiting while the queue grows."""

    def __init__(self, app: ASGIApp, limit: int, wait: float = WAIT_SECONDS) -> None:
        self.app = app
        self.turns = asyncio.Semaphore(limit)
        self.wait = wait

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        try:
            await asyncio.wait_for(self.turns.acquire(), self.wait)
        except TimeoutError:
            await _busy(send)
            return
        try:
            await self.app(scope, receive, send)
        finally:
            self.turns.release()


async def _busy(send: Any) -> None:
    headers = [
        (b"content-type", b"text/plain; charset=utf-8"),
        (b"retry-after", RETRY_SECONDS.encode()),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": BUSY_TEXT.encode()})
