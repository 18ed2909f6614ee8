"""An open sheet sends its taps over the socket it already holds, as the table page does: the
same view runs as the person, answering on that socket alone; a command of another campaign,
or one the person may not make, is refused as over HTTP."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.models import Character
from tests.rolls.table.test_socket_commands import answer_to, command
from tests.rolls.test_sheet_socket import sheet_socket, with_csrf
from tests.table_sockets import until

pytestmark = pytest.mark.django_db(transaction=True)


def box_path(character: Character) -> str:
    return reverse("characters:command", args=[character.campaign_id, character.pk, "track-box"])


async def opened(campaign, character, cookie):
    socket = sheet_socket(campaign, character, with_csrf(cookie, "c" * 32))
    connected, _ = await socket.connect()
    assert connected
    return socket


async def test_a_players_tap_on_her_sheet_goes_over_its_socket(campaign, cookies, hero):
    mine = await opened(campaign, hero, cookies["member"])
    gms = await opened(campaign, hero, cookies["owner"])
    await command(mine, box_path(hero), {"track": "injury", "box": "0:mark"})
    answer = await answer_to(mine)
    assert answer["status"] == 200 and 'id="tracks"' in answer["body"]
    assert 'box 1: marked"' in answer["body"]
    tracks = (await sync_to_async(Character.objects.get)(pk=hero.pk)).tracks
    assert tracks["injury"]["boxes"][0] == ""  # marked (None: clear)
    # The GM's open copy hears of it as of a tap over HTTP.
    assert 'box 1: marked"' in (await until(gms, 'id="tracks"'))[-1]
    for socket in (mine, gms):
        await socket.disconnect()


async def test_a_sheet_socket_refuses_what_http_refuses(campaign, cookies, hero, villain):
    mine = await opened(campaign, hero, cookies["member"])
    # Only the GM hands out XP: refused in words, as over HTTP.
    xp = reverse("characters:command", args=[campaign.pk, hero.pk, "xp"])
    await command(mine, xp, {"amount": "5"}, number=1)
    answer = await answer_to(mine, 1)
    assert answer["status"] == 403 and "Only the GM" in answer["body"]
    # Another campaign's path is not this socket's to run.
    elsewhere = reverse("characters:command", args=[campaign.pk + 1, hero.pk, "track-box"])
    await command(mine, elsewhere, {"track": "injury", "box": "0:mark"}, number=2)
    assert (await answer_to(mine, 2))["status"] == 404
    assert (await sync_to_async(Character.objects.get)(pk=hero.pk)).xp == 0
    await mine.disconnect()
    refused = sheet_socket(campaign, hero, cookies["outsider"])
    assert not (await refused.connect())[0]
