from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from campaigns.selectors import membership_for
from fudgetable import live


class TableConsumer(AsyncJsonWebsocketConsumer):
    """One socket per browser at a campaign's table. It only pushes; commands go over HTTP."""

    async def connect(self) -> None:
        user = self.scope["user"]
        campaign_id = self.scope["url_route"]["kwargs"]["campaign_id"]
        membership = await database_sync_to_async(membership_for)(user, campaign_id)
        if membership is None:
            # Closing before accept turns the handshake down (HTTP 403) for anonymous users
            # and outsiders alike, so a refusal says nothing about whether the campaign exists.
            await self.close()
            return
        self.group_name = live.group_name(campaign_id)
        await self.channel_layer.group_add(self.group_name, self.channel_name)
        await self.accept()

    async def disconnect(self, code: int) -> None:
        if hasattr(self, "group_name"):
            await self.channel_layer.group_discard(self.group_name, self.channel_name)

    async def table_push(self, event: dict[str, str]) -> None:
        await self.send(text_data=event["html"])
