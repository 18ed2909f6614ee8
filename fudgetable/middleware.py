"""A server too busy to write, or whose Redis is away, answers 503 with what to do, not a 500."""

import sys

from django.db import OperationalError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.deprecation import MiddlewareMixin
from django.utils.translation import gettext_lazy

BUSY_TEXT = gettext_lazy(
    "The table is too busy to save that right now. Nothing was changed; try again."
)
RETRY_SECONDS = "2"


# What the database says when it was only too busy: SQLite writes one transaction at a time,
# and a request that waited its whole timeout for its turn gets "database is locked"; on
# PostgreSQL, one that waited too long for a connection from the process's pool gets psycopg's
# "couldn't get a connection after ...".
BUSY_ERRORS = ("database is locked", "couldn't get a connection")


def busy_in_words() -> HttpResponse:
    """The busy answer for htmx, which live.js shows as the page's notice and resends after
    ``Retry-After`` with the same key."""
    response = HttpResponse(BUSY_TEXT, status=503, content_type="text/plain")
    response["Retry-After"] = RETRY_SECONDS
    return response


def busy_answer(request: HttpRequest, exception: Exception) -> HttpResponse | None:
    """The answer to a command the database was too busy for, or that needed Redis while it
    was away (scaled mode; a rate limit's count, say), or None for any other error: nothing of
    it was written (its transaction rolled back, or never began), so the person only needs to
    be told to try again, and when."""
    database_busy = isinstance(exception, OperationalError) and any(
        sign in str(exception) for sign in BUSY_ERRORS
    )
    if not (redis_away(exception) or database_busy):
        return None
    if getattr(request, "htmx", False):
        return busy_in_words()
    response = render(request, "busy.html", {"busy_text": BUSY_TEXT}, status=503)
    response["Retry-After"] = RETRY_SECONDS
    return response


def redis_away(exception: BaseException) -> bool:
    """Whether ``exception`` is Redis refusing or not answering (scaled mode)."""
    # Looked up, not imported: the embedded default never loads the Redis client (18 MB), and
    # then no error can be one of its.
    errors = sys.modules.get("redis.exceptions")
    if errors is None:
        return False
    return isinstance(exception, errors.ConnectionError | errors.TimeoutError)


class BusyMiddleware(MiddlewareMixin):
    """A request the database was too busy for is answered 503 (``busy_answer``), not 500."""

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        return busy_answer(request, exception)
