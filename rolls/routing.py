from django.urls import path

from rolls.consumers import TableConsumer

websocket_urlpatterns = [
    path("ws/campaigns/<int:campaign_id>/", TableConsumer.as_asgi()),
]
