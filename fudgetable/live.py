"""Pushes rendered fragments to every browser at a campaign's table.

Services call ``publish`` inside their transaction; the message leaves only once it commits.
Each event carries its fragment rendered once per audience: ``everyone`` for players and
observers, and ``gm`` for the campaign's GMs when they see more (a secret roll, a hidden
difficulty). Each socket's consumer forwards only the one its person may see, so secret
content never reaches a player's browser. htmx's ws extension swaps the fragments in by id.
"""

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction


def group_name(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


def _message(event: str, everyone: str | None, gm: str | None) -> dict[str, object]:
    return {"type": "table.event", "event": event, "everyone": everyone, "gm": gm}


def publish(campaign_id: int, event: str, *, everyone: str | None, gm: str | None = None) -> None:
    """Sends ``event`` to the table once the current transaction commits. ``gm`` defaults to
    what everyone sees; ``everyone=None`` sends players nothing at all."""
    message = _message(event, everyone, everyone if gm is None else gm)

    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(group_name(campaign_id), message)

    transaction.on_commit(send)


async def publish_now(
    campaign_id: int, event: str, *, everyone: str | None, gm: str | None = None
) -> None:
    """``publish`` for async code outside a transaction (the consumer's presence events)."""
    message = _message(event, everyone, everyone if gm is None else gm)
    await get_channel_layer().group_send(group_name(campaign_id), message)


def member_changed(campaign_id: int, user_id: int) -> None:
    """Tells that person's sockets to look up their role again (or to leave)."""

    def send() -> None:
        async_to_sync(get_channel_layer().group_send)(
            group_name(campaign_id), {"type": "table.member", "user_id": user_id}
        )

    transaction.on_commit(send)
