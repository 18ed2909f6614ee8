"""The table socket at /ws/campaigns/<id>/: only members get in."""

import pytest
from channels.testing import WebsocketCommunicator

from fudgetable import live
from fudgetable.asgi import application
from tests.table_sockets import HOST, ORIGIN

pytestmark = pytest.mark.django_db(transaction=True)


def table_socket(campaign_id: int, *headers: tuple[bytes, bytes]) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/campaigns/{campaign_id}/", headers=[HOST, *headers]
    )


async def test_owner_connects(campaign, cookies):
    socket = table_socket(campaign.pk, ORIGIN, cookies["owner"])
    connected, _ = await socket.connect()
    assert connected
    await socket.disconnect()


async def test_member_connects_and_hears_the_campaign_group(campaign, cookies):
    socket = table_socket(campaign.pk, ORIGIN, cookies["member"])
    connected, _ = await socket.connect()
    assert connected
    # First the whole table state, then who is here; then the group's events.
    assert 'id="roll-log"' in await socket.receive_from(timeout=5)
    assert 'id="presence"' in await socket.receive_from(timeout=5)
    await live.publish_now(campaign.pk, "test.hello", everyone='<p id="hello">hello table</p>')
    assert await socket.receive_from(timeout=5) == '<p id="hello">hello table</p>'
    await socket.disconnect()


async def test_outsider_is_refused(campaign, cookies):
    socket = table_socket(campaign.pk, ORIGIN, cookies["outsider"])
    connected, _ = await socket.connect()
    assert not connected


async def test_anonymous_is_refused(campaign):
    connected, _ = await table_socket(campaign.pk, ORIGIN).connect()
    assert not connected


async def test_foreign_origin_is_refused_even_for_a_member(campaign, cookies):
    socket = table_socket(campaign.pk, (b"origin", b"https://evil.example"), cookies["member"])
    connected, _ = await socket.connect()
    assert not connected


async def test_unknown_campaign_is_refused(campaign, cookies):
    socket = table_socket(campaign.pk + 1000, ORIGIN, cookies["owner"])
    connected, _ = await socket.connect()
    assert not connected
