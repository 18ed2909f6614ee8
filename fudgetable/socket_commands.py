"""A command sent over a page's socket, run as the HTTP POST it stands for.

The table page's forms post over HTTP; with its socket open, live.js sends the same POST (its
path, its urlencoded body with the idempotency key, htmx's HX- headers) as one socket message
instead, and hands the answer back to htmx as if it had come over HTTP. Here that message is
turned into a request and given to the same view, so a command has one meaning whichever way
it came: the same form, services, key, refusal and answer.

The person is looked up from the connection's session before each command, as HTTP looks
them up for each request (``person``). What the socket settled at its handshake and is not done
again is the CSRF check: the handshake's Origin check (``fudgetable.same_origin``, Django's CSRF
origin check) stands in for it, since a page of another origin cannot open this socket at all
(docs/architecture.md, "Commands over the socket").
"""

import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from types import SimpleNamespace
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib import auth
from django.contrib.messages.storage.session import SessionStorage
from django.core.handlers.asgi import ASGIRequest
from django.core.handlers.exception import convert_exception_to_response
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.middleware.csrf import CsrfViewMiddleware
from django.urls import Resolver404, ResolverMatch, resolve
from django.utils import translation
from django.utils.functional import Promise
from django.utils.translation import gettext, gettext_lazy
from django_htmx.middleware import HtmxDetails

from fudgetable import live
from fudgetable.input_rule import refused as refused_input
from fudgetable.input_rule import request_problem, text_problem
from fudgetable.language import request_language
from fudgetable.middleware import busy_answer, busy_in_words
from fudgetable.same_origin import as_http

MAX_PATH = 500
MAX_BODY = 64 * 1024  # a table form is a few hundred bytes; live.js posts more over HTTP
NOT_HERE = gettext_lazy("That is not a command of this table.")
LOGGED_OUT = gettext_lazy("You are not logged in any more. Log in again to play.")
FOLLOWED = (301, 302, 303)
_CSRF = CsrfViewMiddleware(lambda request: HttpResponse())


@dataclass(frozen=True)
class Command:
    """One POST sent over the socket: ``id`` is the page's own, for matching the answer.
    ``problem``: why it cannot be made into a request (it is then answered 400)."""

    id: int
    path: str
    body: str
    headers: dict[str, str]
    problem: str | None = None


def read(asked: object) -> Command | None:
    """The command a socket message carries, or None if it is not one (it is then ignored,
    as any other junk on the socket is). One with an id that cannot be made into the request
    it stands for (no path, a body too long, a header no HTTP request could carry, a broken
    character) comes back with its ``problem``, to be answered 400 on the open socket."""
    if not isinstance(asked, dict):
        return None
    command = asked.get("command")
    if not isinstance(command, dict):
        return None
    number, path, body = command.get("id"), command.get("path"), command.get("body", "")
    headers = command.get("headers") or {}
    if not (isinstance(number, int) and not isinstance(number, bool)):
        return None
    problem = None
    if not (isinstance(path, str) and path.startswith("/") and len(path) <= MAX_PATH):
        path, problem = "", gettext("its path is not one of this site's")
    elif not (isinstance(body, str) and len(body) <= MAX_BODY and isinstance(headers, dict)):
        body, problem = "", gettext("its form is not one this table sends")
    elif text_problem(path) or text_problem(body):
        problem = gettext("it %(problem)s") % {"problem": text_problem(path + body)}
    # Only htmx's own headers: the rest (cookies, host, origin) are the connection's.
    kept = {
        str(name): value
        for name, value in (headers if isinstance(headers, dict) else {}).items()
        if str(name).lower().startswith("hx-") and isinstance(value, str)
    }
    if problem is None and not all(map(_header_text, [*kept, *kept.values()])):
        problem = gettext("a header holds what no HTTP request can carry")
    return Command(id=number, path=path, body=body, headers=kept, problem=problem)


def _header_text(text: str) -> bool:
    """Whether an HTTP header can carry ``text``: Latin-1, with no control characters."""
    return all(" " <= char < "\x7f" or "\xa0" <= char <= "\xff" for char in text)


def answer(command: Command, response: HttpResponse) -> str:
    """The socket message that carries ``response`` back to the page (live.js)."""
    return json.dumps(
        {
            "answer": command.id,
            "status": response.status_code,
            "headers": dict(response.items()),
            "body": response.content.decode(response.charset or "utf-8"),
        }
    )


def refused(command: Command, status: int, text: str | Promise) -> str:
    return answer(command, HttpResponse(str(text), status=status, content_type="text/plain"))


def busy(command: Command) -> str:
    """The answer when the server is too far behind to run the command: nothing was done, so
    the page sends it again after ``Retry-After`` seconds, with the same key (live.js)."""
    return answer(command, busy_in_words())


def person(scope: dict[str, Any]) -> Any | None:
    """The connection's person as an HTTP request with their session would find them now, or
    None where it would find nobody: they logged out since the socket opened (here or in
    another tab: the session is gone), their password changed since (Django's session hash
    no longer matches, and the session is flushed, as over HTTP), or their account was
    deactivated. A cache read (the session engine is cached_db) and the user's query, as an
    HTTP request pays."""
    # The session as it is in the store now (the connection's copy was read at the handshake,
    # and saving it would write back what HTTP requests changed since): empty once it is gone.
    store = import_module(settings.SESSION_ENGINE).SessionStore
    session = scope["session"] = store(session_key=scope["session"].session_key)
    user = auth.get_user(SimpleNamespace(session=session))  # type: ignore[arg-type]
    if not user.is_authenticated:
        return None
    scope["user"] = user  # as they are now: their name may have changed since the handshake
    return user


# The connection's headers a command's request keeps: the rest are the handshake's own.
KEPT_HEADERS = {
    b"accept-language",  # the answer's language, for a person who chose none
    b"host",
    b"origin",
    b"user-agent",
    b"cookie",
    b"x-forwarded-for",
    b"x-forwarded-proto",
}
FORM = (b"content-type", b"application/x-www-form-urlencoded")


def _request(
    scope: dict[str, Any],
    headers: dict[str, str],
    *,
    method: str,
    path: str,
    query: str,
    body: str = "",
) -> HttpRequest:
    """The request the browser's would have been (Django's own ASGIRequest, from an HTTP scope
    made of the socket's), as the connection's person."""
    sent = [
        (name.lower().encode("latin-1"), value.encode("latin-1")) for name, value in headers.items()
    ]
    http_scope = as_http(
        scope,
        method=method,
        path=path,
        query_string=query.encode(),
        headers=[*(h for h in scope["headers"] if h[0] in KEPT_HEADERS), *sent, FORM],
    )
    request = ASGIRequest(http_scope, io.BytesIO(body.encode()))
    request.user = scope["user"]
    request.session = scope["session"]
    # In the session, not a cookie: an answer over the socket sets no cookie in the browser.
    request._messages = SessionStorage(request)  # type: ignore[attr-defined]
    request.htmx = HtmxDetails(request)  # type: ignore[attr-defined]
    # Not a check (the handshake's Origin was): the page's CSRF secret, read from its cookie as
    # over HTTP, so that a form the answer draws carries a token the page can post with later.
    _CSRF.process_request(request)
    return request


def _response(request: HttpRequest, match: ResolverMatch) -> HttpResponseBase:
    """The view's answer to ``request``, with Http404, PermissionDenied and any error answered
    as Django answers them over HTTP (too many fields is a 400, the form being read in the
    view), and a busy database as the busy middleware does."""
    request.resolver_match = match

    def view(request: HttpRequest) -> HttpResponseBase:
        problem = request_problem(request)  # as InputRuleMiddleware holds HTTP's
        if problem is not None:
            return refused_input(request, problem)
        try:
            response = match.func(request, *match.args, **match.kwargs)
        except Exception as error:
            busy = busy_answer(request, error)
            if busy is None:
                raise
            return busy
        render = getattr(response, "render", None)
        return render() if callable(render) else response

    # In its person's language, as PersonLanguageMiddleware answers over HTTP: what the view
    # pushes to the table is drawn in the table's (campaigns.selectors.table_language).
    with translation.override(request_language(request)):
        response = convert_exception_to_response(view)(request)
    # A message the answer did not show waits in the session for the next page, as over HTTP.
    request._messages.update(response)  # type: ignore[attr-defined]
    return response  # type: ignore[return-value]


def run(
    command: Command,
    scope: dict[str, Any],
    *,
    allowed: Callable[[ResolverMatch], bool],
    table_events: bool = True,
    held: live.Held | None = None,
) -> tuple[str, bool]:
    """Runs the command's view as its person, and returns the answer message; and False once
    that person is no longer logged in (``person``), when the command is refused as HTTP would
    refuse it and the socket should go. Synchronous: the consumer calls it on a worker
    thread, as a view is always run. ``allowed`` says which of the site's paths this socket
    takes commands for; ``table_events``, whether the table's events reach it (a command whose
    push redraws its card then need not answer with the card: ``http.over_table_socket``).
    ``held``: the pushes the command makes go in this list, for the caller to send from the
    event loop (``live.held_pushes``); without it they are sent as they commit."""
    if held is not None:
        with live.held_pushes() as pushes:
            try:
                return run(command, scope, allowed=allowed, table_events=table_events)
            finally:
                held.extend(pushes)
    if person(scope) is None:
        return refused(command, 403, LOGGED_OUT), False
    if command.problem is not None:
        unread = gettext("That command could not be read: %(problem)s. Nothing was done.")
        return refused(command, 400, unread % {"problem": command.problem}), True
    return _run_view(command, scope, allowed, table_events), True


def _followed(
    scope: dict[str, Any],
    command: Command,
    location: str,
    allowed: Callable[[ResolverMatch], bool],
) -> HttpResponseBase:
    """What the page gets for a command answered with a redirect. The browser's request would
    follow it (a GET, as after Django's redirect()) and htmx would take what it found there:
    so does this, for a page this socket takes commands for. Any other page of the site (a
    ``next`` naming the campaign's backup, say) goes back to the browser to follow over HTTP
    (htmx's ``HX-Redirect``), where the browser's own rules on who reads the answer hold: run
    here, its answer would go to whatever page holds the socket."""
    target = urlsplit(location)
    try:
        page = None if target.scheme or target.netloc else resolve(target.path)
    except Resolver404:
        page = None
    if page is None or not allowed(page):
        response = HttpResponse(status=200)
        response["HX-Redirect"] = location
        return response
    request = _request(scope, command.headers, method="GET", path=target.path, query=target.query)
    return _response(request, page)


def _run_view(
    command: Command,
    scope: dict[str, Any],
    allowed: Callable[[ResolverMatch], bool],
    table_events: bool,
) -> str:
    target = urlsplit(command.path)
    try:
        match = resolve(target.path)
    except Resolver404:
        return refused(command, 404, NOT_HERE)
    if not allowed(match):
        return refused(command, 404, NOT_HERE)
    request = _request(
        scope,
        command.headers,
        method="POST",
        path=target.path,
        query=target.query,
        body=command.body,
    )
    request.over_table_socket = table_events  # type: ignore[attr-defined]
    response = _response(request, match)
    if response.status_code in FOLLOWED:
        response = _followed(scope, command, response["Location"], allowed)
    if scope["session"].modified:
        scope["session"].save()
    if not isinstance(response, HttpResponse):  # a file or a stream: not a table command's
        return refused(command, 404, NOT_HERE)
    return answer(command, response)
