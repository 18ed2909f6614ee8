"""A change a GM makes to a player's character reaches that player's open table and sheet as a
notice in words, with what every roll now takes; nobody else's socket carries it, and the
player's own taps tell them nothing. Asserted on the raw frames."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import fudge_points_change
from fudgetable.rules.tracks import LITE_PENALTY_TRACK
from rolls.models import Roll
from tests.rolls.conftest import set_rules, trait
from tests.rolls.test_sheet_lines import mark
from tests.rolls.test_sheet_socket import cookie_of, sheet_socket
from tests.table_sockets import gm_and_player, joined, until

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HX-Request": "true"}
NEWS = 'id="sheet-news"'


async def command(client, character, name: str, data: dict) -> None:
    url = reverse("characters:command", args=[character.campaign_id, character.pk, name])
    response = await sync_to_async(client.post)(url, data, headers=HX)
    assert response.status_code == 200


@pytest.fixture
def scratched(campaign, hero):
    """Louie on the seed's example track (Scratch x3, Hurt -1, Very Hurt -2), three Scratches
    marked: the next box is Hurt."""
    set_rules(campaign, injury_track=LITE_PENALTY_TRACK.to_dict())
    mark(hero, 3)
    return hero


async def test_a_gms_wound_reaches_the_players_table_and_sheet_in_words(
    campaign, cookies, client_for, owner, outsider, scratched, rival
):
    hero = scratched
    gm, player = await gm_and_player(campaign, cookies)
    other = await joined(campaign, await sync_to_async(cookie_of)(rival[0]))
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]
    gm_client = await sync_to_async(client_for)(owner)
    await command(gm_client, hero, "track-box", {"track": "injury", "box": "3:mark"})
    told = (await until(player, NEWS))[-1]
    assert "The GM changed Louie: Injury 4/6." in told
    assert "Every roll takes: Injury: Hurt -1." in told
    assert NEWS in (await until(sheet, NEWS))[-1]
    # Marla's player, the GM and an outsider hear nothing of it.
    assert not [f for f in await _drain(other) if NEWS in f]
    assert not [f for f in await _drain(gm) if NEWS in f]
    outsider_socket = sheet_socket(campaign, hero, cookies["outsider"])
    assert not (await outsider_socket.connect())[0]
    for socket in (gm, player, other, sheet):
        await socket.disconnect()


async def test_the_players_own_tap_tells_them_nothing(campaign, cookies, client_for, member, hero):
    player = await joined(campaign, cookies["member"], "player-member")
    await command(await sync_to_async(client_for)(member), hero, "fudge-points", {"by": "-1"})
    assert not [f for f in await _drain(player) if NEWS in f]
    await player.disconnect()


async def test_a_gms_spend_is_told_too(campaign, cookies, client_for, owner, hero):
    gm_client = await sync_to_async(client_for)(owner)
    roll = await sync_to_async(_failed_check)(gm_client, campaign, hero)
    player = await joined(campaign, cookies["member"], "player-member")
    url = reverse("rolls:fudge_point", args=[campaign.pk, roll.pk])
    spend = {"use": "reroll", "key": "spend-one"}
    spent = await sync_to_async(gm_client.post)(url, spend, headers=HX)
    assert spent.status_code == 200, spent.content
    told = (await until(player, NEWS))[-1]
    assert "The GM spent a Fudge point of Louie&#x27;s: Reroll." in told
    await player.disconnect()


def _failed_check(client, campaign, hero) -> Roll:
    fudge_points_change(character=hero, by=1)
    data = {"kind": "check", "trait": trait(hero).pk, "difficulty": 8, "key": "gm-roll-for-louie"}
    client.post(reverse("rolls:roll", args=[campaign.pk]), data, headers=HX)
    return Roll.objects.get(idempotency_key="gm-roll-for-louie")


async def _drain(socket) -> list[str]:
    frames = []
    while not await socket.receive_nothing(timeout=0.3):
        frames.append(await socket.receive_from())
    return frames
