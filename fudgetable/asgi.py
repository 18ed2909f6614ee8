"""One ASGI application for HTTP and websockets, served by daphne."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")
# Django must be set up before anything imports models (the consumers do).
django_asgi_app = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402
from django.conf import settings  # noqa: E402

from campaigns.routing import websocket_urlpatterns  # noqa: E402
from fudgetable.request_queue import RequestQueue  # noqa: E402

application = RequestQueue(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            "websocket": AllowedHostsOriginValidator(
                AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
            ),
        }
    ),
    limit=settings.HTTP_CONCURRENCY,
)

# The collector's full passes walk every object the process holds: Django and the apps, and
# each open socket's few hundred. At 800 sockets a pass took 100-175 ms, and with Python's
# defaults one came every few seconds under load, each making every roll of that moment late
# (docs/performance.md). What is loaded by now lives as long as the process, so it is frozen
# out of those passes; and the middle generation is collected ten times less often, so a
# request's objects, alive while it runs, rarely reach the oldest generation and call up a
# full pass.
gc.freeze()
threshold0, _, threshold2 = gc.get_threshold()
gc.set_threshold(threshold0, 100, threshold2)
