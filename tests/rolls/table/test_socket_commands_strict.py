"""A command over the table's socket is held to what HTTP holds it to: a redirect off the
table's pages goes back to the browser instead of being read on the socket, and a command
the socket cannot make into a request is answered 400 with the socket left open."""

import json
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from rolls.models import Roll
from tests.rolls.table.test_socket_commands import answer_to, roll_path
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


UNREADABLE = {
    "a header past Latin-1": ({"HX-Trigger": "roll-\u0431"}, "/roll/", "kind=reaction"),
    "a header with a line break": ({"HX-Target": "a\r\nX-Evil: 1"}, "/roll/", ""),
    "a lone surrogate in the form": ({}, "/roll/", "label=\ud800"),
    "no path": ({}, None, ""),
    "a path off the site": ({}, "roll/", ""),
    "a form too long for a table's": ({}, "/roll/", "a" * 70_000),
}


@pytest.mark.parametrize("case", UNREADABLE)
@pytest.mark.parametrize("person", ["owner", "member"])
async def test_a_command_that_cannot_be_a_request_is_answered_400_on_the_open_socket(
    campaign, cookies, person, case
):
    """A header past Latin-1 closed the socket with a traceback; the command is now answered
    in words, and the socket takes the next one."""
    headers, path, body = UNREADABLE[case]
    socket = await joined(campaign, cookies[person])
    if path is not None:
        path = roll_path(campaign) if path == "/roll/" else path
    await send(socket, path, body, **headers)
    answer = await answer_to(socket)
    assert answer["status"] == 400
    assert answer["body"].startswith("That command could not be read: ")
    assert answer["body"].endswith("Nothing was done.")
    await send(socket, reverse("rolls:x_card", args=[campaign.pk]), "", 2, **{"HX-Request": "true"})
    assert (await answer_to(socket, 2))["status"] == 200
    assert await Roll.objects.acount() == 0
    await socket.disconnect()


@pytest.mark.parametrize("person", ["owner", "member"])
async def test_a_command_whose_form_breaks_the_input_rule_is_refused_as_over_http(
    campaign, cookies, person
):
    socket = await joined(campaign, cookies[person])
    body = urlencode({"kind": "reaction", "label": "Bribe\x00", "key": "k" * 10})
    await send(socket, roll_path(campaign), body, **{"HX-Request": "true"})
    answer = await answer_to(socket)
    assert answer["status"] == 400
    assert answer["body"] == (
        "What you sent was not saved: “label” holds a control character (such as a NUL byte). "
        "Take it out and send it again."
    )
    assert await Roll.objects.acount() == 0
    await socket.disconnect()
