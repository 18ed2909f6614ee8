"""Request bodies bounded at the edge, before anything reads them: a body over
``MAX_BODY_BYTES`` is answered 413 in words and never held in memory.

Two parts, because daphne has no limit of its own. ``BodyLimit`` is the ASGI middleware that
decides and answers: at once from a ``Content-Length`` over the limit, or by counting a body
sent without one (chunked) as the application reads it. But daphne reads a whole body (into a
temporary file) and then puts all of it in the application's queue in one go, before any ASGI
code runs: an application that read none of a 100 MB body still grew by 108 MB. So
``BoundedRequest``, daphne's request with two changes, keeps none of a body declared over the
limit and no more than the limit and a byte of one sent without a length; the middleware then
sees it is over. Installed by ``fudgetable.asgi`` (``bound_daphne_bodies``), the module
daphne imports, so ``daphne fudgetable.asgi:application`` is all a server needs.
"""

from collections.abc import Awaitable, Callable
from typing import Any

from daphne import http_protocol
from django.conf import settings
from django.utils.translation import gettext

Scope = dict[str, Any]
Message = dict[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def too_large_text() -> str:
    megabytes = settings.MAX_BODY_BYTES // (1024 * 1024)
    return gettext(
        "That is more than this server takes at once (%(megabytes)s MB). Nothing was saved."
    ) % {"megabytes": megabytes}


def declared_length(scope: Scope) -> int | None:
    for name, value in scope.get("headers", ()):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


class BodyLimit:
    """HTTP requests whose body is over ``settings.MAX_BODY_BYTES`` are answered 413 in
    words, with nothing of them read past the limit: live.js shows a plain-text answer as the
    page's notice, and a plain form's page shows the words."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = settings.MAX_BODY_BYTES
        declared = declared_length(scope)
        if declared is not None and declared > limit:
            await _too_large(send)
            return
        received = 0
        over = answered = False

        async def counted() -> Message:
            nonlocal received, over
            message: Message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    # To Django a client that left: it stops reading and answers nothing.
                    over = True
                    return {"type": "http.disconnect"}
            return message

        async def watched(message: Message) -> None:
            nonlocal answered
            answered = answered or message["type"] == "http.response.start"
            await send(message)

        await self.app(scope, counted, watched)
        if over and not answered:
            await _too_large(send)


async def _too_large(send: Any) -> None:
    headers = [(b"content-type", b"text/plain; charset=utf-8")]
    await send({"type": "http.response.start", "status": 413, "headers": headers})
    await send({"type": "http.response.body", "body": too_large_text().encode()})


class BoundedRequest(http_protocol.WebRequest):
    """daphne's request, keeping at most the limit and a byte of a body: none of one whose
    ``Content-Length`` is over the limit (``BodyLimit`` answers from the header), and the
    start of one sent without a length, enough for ``BodyLimit`` to count past the limit.
    The rest is read off the connection and dropped, so the client still gets the 413.

    Nor does it parse a form body itself: Twisted's request reads a whole multipart body into
    memory and parses it into ``args``, which daphne never looks at (Django parses the body
    again). For a 100 MB multipart POST that was most of the 1.3 GB it took, and it is a
    copy of every restored backup too."""

    room = 0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, parsePOSTFormSubmission=False, **kwargs)

    def gotLength(self, length: int | None) -> None:
        limit = settings.MAX_BODY_BYTES
        if length is not None and length > limit:
            self.room = 0
            super().gotLength(0)  # an empty in-memory file: nothing will be written to it
        else:
            self.room = limit + 1
            super().gotLength(length)

    def handleContentChunk(self, data: bytes) -> None:
        if self.room > 0:
            kept = data[: self.room]
            self.room -= len(kept)
            super().handleContentChunk(kept)


def bound_daphne_bodies() -> None:
    """Makes daphne build ``BoundedRequest`` for each HTTP request. daphne takes no request
    class as an option: its HTTP factory names its module's ``WebRequest``, so that name is
    what is set."""
    http_protocol.WebRequest = BoundedRequest
