"""A command over the table's socket is held to what HTTP holds it to: a redirect off the
table's pages goes back to the browser instead of being read on the socket, and a command
the socket cannot make into a request is answered 400 with the socket left open."""

import json
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from rolls.models import Roll
from tests.rolls.test_socket_commands import answer_to, roll_path
from tests.table_sockets import joined, socket_for

pytestmark = pytest.mark.django_db(transaction=True)


async def send(socket, path: str, body: str, number: int = 1, **headers: str) -> None:
    message = {"command": {"id": number, "path": path, "body": body, "headers": headers}}
    await socket.send_to(text_data=json.dumps(message))


@pytest.mark.parametrize("person", ["owner", "member"])
@pytest.mark.parametrize("page", ["campaign_export", "account_export"])
async def test_a_redirect_off_the_table_goes_back_to_the_browser_unread(
    campaign, cookies, person, page
):
    """The X-card's plain POST goes back to its ``next``: naming the campaign's backup, it
    answered over the socket with the whole backup, secret rolls and all, to whatever page
    held the socket. Now the browser is told to go there itself, over HTTP."""
    args = [campaign.pk] if page == "campaign_export" else []
    target = reverse(page, args=args)
    socket = await joined(campaign, cookies[person])
    await send(socket, reverse("rolls:x_card", args=[campaign.pk]), urlencode({"next": target}))
    answer = await answer_to(socket)
    assert answer["status"] == 200
    assert answer["headers"]["HX-Redirect"] == target
    assert answer["body"] == ""
    await socket.disconnect()


async def test_a_redirect_to_a_table_page_is_still_followed_on_the_socket(campaign, cookies):
    log = reverse("rolls:log", args=[campaign.pk])
    socket = await joined(campaign, cookies["member"])
    await send(socket, reverse("rolls:x_card", args=[campaign.pk]), urlencode({"next": log}))
    answer = await answer_to(socket)
    assert answer["status"] == 200 and "HX-Redirect" not in answer["headers"]
    assert 'id="log-heading"' in answer["body"]
    await socket.disconnect()


async def test_an_outsider_has_no_socket_to_be_redirected_on(campaign, cookies):
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
