"""Pushes rendered fragments to every browser at a campaign's table.

Services call this after their transaction commits; the consumer forwards the HTML as is, and
htmx's ws extension swaps each fragment in by its id.
"""

from channels.layers import get_channel_layer


def group_name(campaign_id: int) -> str:
    return f"campaign-{campaign_id}"


async def push(campaign_id: int, html: str) -> None:
    await get_channel_layer().group_send(
        group_name(campaign_id), {"type": "table.push", "html": html}
    )
