"""Installable and readable offline: the web app manifest, the service worker, and the mark a
view puts on a page whose copy the service worker may keep on the person's device.

The service worker (``fudgetable/service_worker.js``) is served from the site's root, so its
scope is the whole site. It keeps two caches named with this deploy's version: the static files
the pages use, and the last copy of each page marked ``Offline-Copy`` that this browser opened
(the person's own view, as it was drawn for them). A new deploy has a new version, so the new
worker replaces both; a log-out, or a page drawn for somebody else, empties the pages' cache.
docs/architecture.md ("Offline") says what is kept, for whom and until when.
"""

import hashlib
import json
from collections.abc import Callable
from functools import cache, wraps
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from fudgetable.sessions import ENDS_AT

WORKER = Path(__file__).with_name("service_worker.js")
CONFIG_LINE = "const CONFIG = {};"
OFFLINE_COPY = "Offline-Copy"
# When the person's session ends (a Unix time): past it the worker deletes the copies rather
# than show them, so a session that ended without a log-out leaves nothing readable.
OFFLINE_COPY_UNTIL = "Offline-Copy-Until"

# What every page loads (base.html), kept at install so a copy read offline has its looks and
# its scripts; anything else a page loads is kept the first time it is fetched.
PAGE_FILES = (
    "css/app.css",
    "css/take-away.css",
    "css/print.css",
    "js/live.js",
    "js/offline.js",
    "js/print.js",
    "favicon.svg",
    "django_htmx/htmx-2.min.js",
    "django_htmx/ext/hx-ws-2.min.js",
    "django_htmx/django-htmx.js",
)
ICONS = (
    ("icons/icon-192.png", "192x192", "any"),
    ("icons/icon-512.png", "512x512", "any"),
    ("icons/icon-maskable-512.png", "512x512", "maskable"),
)
# The light and the dark theme's page colour (app.css's --surface, the header's).
THEME_LIGHT, THEME_DARK = "#ffffff", "#1f221f"
BACKGROUND = "#f6f4ef"


@cache
def version() -> str:
    """This deploy's version: a hash of the worker and of every file it keeps at install, so
    changing any of them (a deploy) installs a new worker, which replaces the old caches."""
    digest = hashlib.sha256(WORKER.read_bytes())
    for name in PAGE_FILES:
        found = finders.find(name)
        digest.update(name.encode())
        if isinstance(found, str):
            digest.update(Path(found).read_bytes())
    return digest.hexdigest()[:16]


def offline_copy(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Marks a page the service worker may keep for its person to read offline: a whole page
    (not an htmx fragment) drawn for a logged-in person. The mark names the person, so a copy
    is never shown to anybody else on that device, and says when their session ends, after
    which no copy is shown at all."""

    @wraps(view)
    def marked(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        response = view(request, *args, **kwargs)
        whole_page = not request.headers.get("HX-Request")
        if response.status_code == 200 and whole_page and request.user.is_authenticated:
            response[OFFLINE_COPY] = str(request.user.pk)
            response[OFFLINE_COPY_UNTIL] = str(session_ends_at(request))
        return response

    return marked


def session_ends_at(request: HttpRequest) -> int:
    ends_at = request.session.get(ENDS_AT)
    if not isinstance(ends_at, int):
        # A session saved before it kept its end: saved again now, with it.
        request.session.modified = True
        ends_at = int(request.session.get_expiry_date().timestamp())
    return ends_at


@require_safe
@cache_control(no_cache=True)
def service_worker(request: HttpRequest) -> HttpResponse:
    config = {
        "version": version(),
        # The folder the static files are served from, not a file: the production storage
        # names only files in its manifest (static("") raised there and /sw.js answered 500).
        "staticUrl": settings.STATIC_URL,
        "pageFiles": [static(name) for name in PAGE_FILES],
        "logout": reverse("logout"),
        "marker": OFFLINE_COPY,
        "until": OFFLINE_COPY_UNTIL,
        "offlineTitle": _("Offline"),
        "offlineText": _(
            "You are offline, and this page was not kept on this device. "
            "These pages were, as you last saw them:"
        ),
        "nothingKeptText": _("You are offline, and no page is kept on this device."),
        "notSentText": _(
            "You are offline, so that was not sent. Go back: what you typed is still in the "
            "form, to send when you are back online."
        ),
    }
    source = WORKER.read_text().replace(CONFIG_LINE, f"const CONFIG = {json.dumps(config)};", 1)
    return HttpResponse(source, content_type="text/javascript; charset=utf-8")


@require_safe
def manifest(request: HttpRequest) -> HttpResponse:
    data = {
        "id": "/",
        "name": "FudgeTable",
        "short_name": "FudgeTable",
        "description": _(
            "A table for Fudge, Fudge Lite, EZFudge, Fate's Fudge edition and Peupfudge"
        ),
        "start_url": reverse("dashboard"),
        "scope": "/",
        "display": "standalone",
        "theme_color": THEME_LIGHT,
        "background_color": BACKGROUND,
        "icons": [
            {"src": static(src), "sizes": sizes, "type": "image/png", "purpose": purpose}
            for src, sizes, purpose in ICONS
        ],
        "shortcuts": [{"name": _("My characters"), "url": reverse("my_characters")}],
    }
    return JsonResponse(data, content_type="application/manifest+json")
