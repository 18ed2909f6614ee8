"""One ASGI application for HTTP and websockets, served by daphne."""

import contextlib
import ctypes
import gc
import os
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import django
from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler

from fudgetable.hosting import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")
settings_or_exit()


class OneThreadHopHandler(ASGIHandler):
    """Django's ASGI handler, running each request's middleware and view in one go on the
    request's thread. Every view here is synchronous; Django's own handler runs the
    middleware on the event loop and hops to the thread and back for each middleware's
    request and response hooks and again for the view, a dozen round trips a request. One
    hop took a roll's CPU under load from 26 ms to 22 ms (docs/performance.md).

    The request's thread is one of the process's own, kept for the next request. Django's
    handler starts a thread for every request and another to join it afterwards (half a
    millisecond each on a slow machine); keeping them took about a twentieth off a roll's
    CPU under load. At most ``HTTP_CONCURRENCY`` requests run at once (``RequestQueue``), and
    one in each of its lanes (a restore, an upload), so that many threads are kept.
    """

    def __init__(self) -> None:
        super().__init__()
        self._idle_threads: list[ThreadPoolExecutor] = []

    def load_middleware(self, is_async: bool = False) -> None:
        super().load_middleware(is_async=False)
        # django-stubs leave the chain's type out.
        chain = self._middleware_chain  # type: ignore[has-type]
        self._middleware_chain = sync_to_async(chain, thread_sensitive=True)

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP, not {scope['type']}")
        idle = self._idle_threads
        thread = idle.pop() if idle else ThreadPoolExecutor(1, thread_name_prefix="request")
        try:
            # A view whose client left is not waited for, and may still be running on this
            # thread: then the next request here starts once it is done, as it would have
            # had to wait for the core (the GIL) anyway.
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            idle.append(thread)


# Django must be set up before anything imports models (the consumers do).
django.setup(set_prefix=False)
django_asgi_app = OneThreadHopHandler()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.urls import reverse  # noqa: E402

from fudgetable.body_limit import BodyLimit, bound_daphne_bodies  # noqa: E402
from fudgetable.request_queue import RequestQueue, process_turns, upload_lane  # noqa: E402
from fudgetable.same_origin import SameOriginValidator  # noqa: E402
from rolls.backup.views import restore_lane  # noqa: E402
from rolls.table.routing import websocket_urlpatterns  # noqa: E402

# A body over the limit is answered before it takes a turn, and daphne keeps none of it.
bound_daphne_bodies()
application = BodyLimit(
    RequestQueue(
        ProtocolTypeRouter(
            {
                "http": django_asgi_app,
                "websocket": SameOriginValidator(
                    AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
                ),
            }
        ),
        turns=process_turns(),
        # A restore reads and writes a whole campaign, a picture is drawn again pixel by
        # pixel: never in the turns play takes.
        lanes={reverse("campaign_restore"): restore_lane()},
        uploads=upload_lane(),
    )
)

# The collector's full passes walk every object the process holds: Django and the apps, and
# each open socket's few hundred. At 800 sockets a pass took 100-175 ms, and with Python's
# defaults one came every few seconds under load, each making every roll of that moment late
# (docs/performance.md). What is loaded by now lives as long as the process, so it is frozen
# out of those passes.
#
# Each request leaves one or two hundred objects in reference cycles (Django's request and
# its user, a form and its bound fields), freed only by the collector. The middle generation
# is collected at Python's default pace, every 10 young passes: at 50 rolls a second a pass
# of 8-14 ms twice a second, where collecting it ten times less often made each pass 70-120
# ms, a stall that made every roll of that moment late (the collector's time in all is the
# same). The oldest generation is considered ten times less often than the default, because
# a request's objects alive at a middle pass reach it and would otherwise call up a full
# pass every few seconds.
gc.freeze()
threshold0, _, _ = gc.get_threshold()
gc.set_threshold(threshold0, 10, 100)

# Pillow keeps a picture's pixels in blocks of 16 MB. glibc gives an allocation over its mmap
# threshold a mapping of its own, handed back to the system when freed, but raises the
# threshold to the size of any such block freed (up to 32 MB): after the first large picture,
# Pillow's blocks came from the request threads' heaps, which keep what is freed. Two pictures
# of 40 million pixels at a time took the process from 93 MB to 740 MB, and it stayed there
# (docs/performance.md). A threshold set once does not move: every allocation of 4 MB or more
# is a mapping of its own, given back when freed. Not glibc (no such function): left alone.
M_MMAP_THRESHOLD = -3
with contextlib.suppress(OSError, AttributeError):
    ctypes.CDLL(None).mallopt(M_MMAP_THRESHOLD, 4 * 1024 * 1024)
