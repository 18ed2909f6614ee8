"""Pings: anyone points at a part of the scene they see and it flashes on every screen that
sees it, over the table's sockets. A player cannot point at (nor learn of) what the GMs keep
hidden; a card shown to one player is pointed out to her and the GMs alone; the GM's "everyone
looks" reaches the players' screens; an outsider is a 404, and a flood is refused in words."""

import pytest
from asgiref.sync import sync_to_async
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from rolls.scene.ids import shown_id
from rolls.scene.models import Card
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of
from tests.table_sockets import joined, until

pytestmark = pytest.mark.django_db(transaction=True)


def ping(client, campaign, kind: str, part, *, look: bool = False):
    data = {"kind": kind, "part": shown_id(part)}
    if look:
        data["look"] = "1"
    url = reverse("rolls:scene_ping", args=[campaign.pk])
    return client.post(url, data, headers=HTMX)


async def aping(client, campaign, kind, part, **kw):
    return await sync_to_async(ping)(client, campaign, kind, part, **kw)


@pytest.fixture
def table(scene, client_for, owner, member, other, outsider, cookies):
    gm = client_for(owner)
    gm.post(
        reverse("rolls:card_create", args=[scene.campaign.pk]),
        {"title": "The ledger", "text": "Debts.", "shown": "gm"},
        headers=HTMX,
    )
    login = Client()
    login.force_login(other)
    more = {"other": (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())}
    return {
        "scene": scene,
        "campaign": scene.campaign,
        "gm": gm,
        "member": client_for(member),
        "outsider": client_for(outsider),
        "card": Card.objects.get(title="The ledger"),
        "cookies": {**cookies, **more},
        "member_id": member.pk,
    }


async def test_a_players_ping_at_an_area_flashes_on_every_screen(table):
    campaign, scene = table["campaign"], table["scene"]
    gm = await joined(campaign, table["cookies"]["owner"], "gm-owner")
    her = await joined(campaign, table["cookies"]["member"], "player-member")
    them = await joined(campaign, table["cookies"]["other"], "player-other")
    await until(gm, "player-other")
    await until(her, "player-other")

    gallery = await sync_to_async(area)(scene, "Gallery")
    answer = await aping(table["member"], campaign, "area", gallery)
    assert answer.status_code == 204
    target = f'data-target="area-{shown_id(gallery)}"'
    for socket in (gm, her, them):
        frame = (await until(socket, "points at"))[-1]
        assert target in frame
        assert "player-member points at Gallery" in frame
        assert "data-look" not in frame  # a player cannot turn the others' screens
        assert 'id="my-seq"' not in frame and "data-seq" not in frame  # a moment: no number
    for socket in (gm, her, them):
        await socket.disconnect()


async def test_the_gms_look_here_reaches_the_players(table):
    campaign, scene = table["campaign"], table["scene"]
    her = await joined(campaign, table["cookies"]["member"], "player-member")
    jason = await sync_to_async(figure_of)(scene, "Jason Free")
    answer = await aping(table["gm"], campaign, "figure", jason, look=True)
    assert answer.status_code == 204
    frame = (await until(her, "points at"))[-1]
    assert f'data-target="figure-{shown_id(jason)}"' in frame
    assert "data-look" in frame
    # The same flag from a player is not a "look here" for anyone.
    answer = await aping(table["member"], campaign, "figure", jason, look=True)
    assert answer.status_code == 204
    assert "data-look" not in (await until(her, "player-member points at"))[-1]
    await her.disconnect()


async def test_what_the_gms_keep_hidden_is_pinged_among_gms(table):
    campaign, scene = table["campaign"], table["scene"]
    gm = await joined(campaign, table["cookies"]["owner"], "gm-owner")
    her = await joined(campaign, table["cookies"]["member"], "player-member")
    await until(gm, "player-member")
    vault = await sync_to_async(area)(scene, "Vault")
    lurker = await sync_to_async(figure_of)(scene, "Lurker")

    # The GM points at the hidden Vault and the unmet Lurker: only GMs' screens flash.
    assert (await aping(table["gm"], campaign, "area", vault)).status_code == 204
    assert (await aping(table["gm"], campaign, "figure", lurker)).status_code == 204
    assert "Vault" in (await until(gm, "points at Vault"))[-1]
    assert "Lurker" in (await until(gm, "points at Lurker"))[-1]
    assert await her.receive_nothing(timeout=0.3)

    # A player who tries their ids learns nothing: the same 404 as an id of nothing.
    for kind, part in (("area", vault), ("figure", lurker), ("card", table["card"])):
        answer = await aping(table["member"], campaign, kind, part)
        assert answer.status_code == 404
    forged = await sync_to_async(table["member"].post)(
        reverse("rolls:scene_ping", args=[campaign.pk]),
        {"kind": "area", "part": "A" * 22},
        headers=HTMX,
    )
    assert forged.status_code == 404
    assert await her.receive_nothing(timeout=0.3)
    assert await gm.receive_nothing(timeout=0.3)
    await gm.disconnect()
    await her.disconnect()


async def test_a_card_shown_to_one_player_is_pointed_out_to_her_alone(table):
    campaign = table["campaign"]
    gm = await joined(campaign, table["cookies"]["owner"], "gm-owner")
    her = await joined(campaign, table["cookies"]["member"], "player-member")
    them = await joined(campaign, table["cookies"]["other"], "player-other")
    await until(gm, "player-other")
    await until(her, "player-other")
    data = {"shown": "some", "people": [table["member_id"]]}
    url = reverse("rolls:card_reveal", args=[campaign.pk, table["card"].pk])
    assert (await sync_to_async(table["gm"].post)(url, data, headers=HTMX)).status_code == 204
    await until(her, "The ledger")
    await until(gm, "The ledger")

    assert (await aping(table["gm"], campaign, "card", table["card"])).status_code == 204
    assert "points at The ledger" in (await until(her, "points at"))[-1]
    assert "points at The ledger" in (await until(gm, "points at"))[-1]
    assert await them.receive_nothing(timeout=0.3)
    # She may point at it too; the other player still hears nothing of it.
    assert (await aping(table["member"], campaign, "card", table["card"])).status_code == 204
    assert "player-member points at The ledger" in (await until(gm, "points at"))[-1]
    assert await them.receive_nothing(timeout=0.3)
    for socket in (gm, her, them):
        await socket.disconnect()


def test_an_outsider_is_a_404_and_bad_forms_are_told_in_words(table):
    campaign, scene = table["campaign"], table["scene"]
    hall = area(scene, "Hall")
    assert ping(table["outsider"], campaign, "area", hall).status_code == 404
    url = reverse("rolls:scene_ping", args=[campaign.pk])
    answer = table["member"].post(url, {"kind": "dragon", "part": "x"}, headers=HTMX)
    assert answer.status_code == 422
    assert "Pick what to point at." in answer.content.decode()
    # Without a scene shown there is nothing to point at.
    table["gm"].post(reverse("rolls:scene_switch", args=[campaign.pk]), {"scene": ""}, headers=HTMX)
    assert ping(table["member"], campaign, "area", hall).status_code == 404


def test_a_flood_of_pings_is_refused_in_words(table, settings):
    settings.PINGS_PER_MINUTE = 3
    settings.RATELIMIT_ENABLE = True
    cache.clear()  # a fresh count: the cache outlives a test
    hall = area(table["scene"], "Hall")
    answers = [ping(table["member"], table["campaign"], "area", hall) for _ in range(4)]
    assert [a.status_code for a in answers] == [204, 204, 204, 422]
    assert "wait a moment" in answers[-1].content.decode()
    # The GM's pings are counted on their own.
    assert ping(table["gm"], table["campaign"], "area", hall).status_code == 204
