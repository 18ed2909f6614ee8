from django.urls import path, re_path

from rolls.table.consumers import SheetConsumer, TableConsumer, UnknownSocket

websocket_urlpatterns = [
    path("ws/campaigns/<id:campaign_id>/", TableConsumer.as_asgi()),
    path(
        "ws/campaigns/<id:campaign_id>/sheets/<id:character_id>/",
        SheetConsumer.as_asgi(),
    ),
    # Any other path (an id past 64 bits, a typo) is turned away at the handshake like an
    # outsider, not raised as an error with a traceback in the log.
    re_path(r"", UnknownSocket.as_asgi()),
]
