"""A socket's handshake checked as Django's CSRF middleware checks a POST: its ``Origin`` must
be the site's own, scheme, host and port (or one of ``CSRF_TRUSTED_ORIGINS``), and its
``Host`` one of ``ALLOWED_HOSTS``.

Commands travel over the table's socket with no CSRF token (docs/architecture.md, "Commands
over the socket"): this check is what stands in for it, so it must be the same check. Channels'
``AllowedHostsOriginValidator`` compared the Origin's host name alone, so a page on another
port or scheme of the same host could open a GM's socket and send it commands.
"""

import io
from typing import Any

from channels.security.websocket import WebsocketDenier
from django.core.exceptions import DisallowedHost
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse
from django.middleware.csrf import CsrfViewMiddleware

Scope = dict[str, Any]


def as_http(scope: Scope, **changes: Any) -> Scope:
    """The HTTP scope a socket's stands for: ``wss`` is ``https``, as a browser's page is."""
    scheme = "https" if scope.get("scheme") == "wss" else "http"
    return {**scope, "type": "http", "scheme": scheme, **changes}


def _nothing(request: HttpRequest) -> HttpResponse:
    return HttpResponse()


def same_origin(scope: Scope) -> bool:
    """Whether a POST from this handshake's page would pass Django's CSRF origin check."""
    request = ASGIRequest(as_http(scope, method="GET"), io.BytesIO())
    if "HTTP_ORIGIN" not in request.META:
        return False  # a browser always sends one on a socket's handshake
    try:
        request.get_host()
    except DisallowedHost:
        return False
    # Django's own check, the one CsrfViewMiddleware runs on every POST (not public API, so
    # tests/fudgetable/test_same_origin.py pins what it admits and refuses).
    return CsrfViewMiddleware(_nothing)._origin_verified(request)  # type: ignore[attr-defined]


class SameOriginValidator:
    """Turns a websocket's handshake away (HTTP 403) unless ``same_origin`` admits it."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> Any:
        if scope["type"] == "websocket" and not same_origin(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.app(scope, receive, send)
