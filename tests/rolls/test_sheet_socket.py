"""An open sheet gets over its own socket its live parts when it changed elsewhere (a GM's
wound, a spend on another device), drawn for that socket's viewer; the table's party strip is
redrawn for each audience. Nothing of a sheet travels on either socket to someone who may not
read it. Asserted on the raw frames."""

import re

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import transaction
from django.test import Client
from django.urls import reverse

from campaigns.services import membership_remove
from characters.live_sheets import sheet_changed
from fudgetable import live
from fudgetable.asgi import application
from tests.table_sockets import HOST, ORIGIN, closed, joined, until

pytestmark = pytest.mark.django_db(transaction=True)

HX = {"HX-Request": "true"}


def sheet_socket(campaign, character, cookie) -> WebsocketCommunicator:
    path = f"/ws/campaigns/{campaign.pk}/sheets/{character.pk}/"
    return WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, cookie])


async def command(client, character, name: str, data: dict):
    url = reverse("characters:command", args=[character.campaign_id, character.pk, name])
    response = await sync_to_async(client.post)(url, data, headers=HX)
    assert response.status_code == 200


def cookie_of(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


async def test_the_players_open_sheet_gets_the_gms_change_drawn_for_her(
    campaign, cookies, client_for, owner, hero
):
    gm_client = await sync_to_async(client_for)(owner)
    players_sheet = sheet_socket(campaign, hero, cookies["member"])
    connected, _ = await players_sheet.connect()
    assert connected
    assert await players_sheet.receive_nothing(timeout=0.2)  # no table state on this socket
    await command(gm_client, hero, "track-box", {"track": "injury", "box": "0:mark"})
    frame = await players_sheet.receive_from(timeout=5)
    for part in ('id="vitals"', 'id="roll-lines"', 'id="trait-list"', 'id="tracks"'):
        assert part in frame
    assert frame.count('hx-swap-oob="true"') == 4 and 'id="sheet"' not in frame
    assert 'aria-label="Minor injury box 1: marked"' in frame
    assert "Spend 1" in frame and "Award XP" not in frame  # hers to spend; the GM's to award
    await players_sheet.disconnect()


def with_csrf(cookie: tuple[bytes, bytes], secret: str) -> tuple[bytes, bytes]:
    return (cookie[0], cookie[1] + f"; csrftoken={secret}".encode())


GM_SECRET, PLAYER_SECRET = "g" * 32, "p" * 32


async def test_each_copy_is_drawn_for_its_viewer_and_private_notes_travel_to_none(
    campaign, cookies, client_for, owner, member, hero, rival
):
    """The player taps a box: her request draws the GMs' parts and pushes them, then her own
    (her answer); the GM's copy takes the GMs', her other device's and another player's
    (read-only) draw their own; each has a roll key and a CSRF token of its own."""
    other, _ = rival
    await hero.__class__.objects.filter(pk=hero.pk).aupdate(notes="Owes the harbourmaster")
    others_cookie = await sync_to_async(cookie_of)(other)
    copies = {
        "gm": sheet_socket(campaign, hero, with_csrf(cookies["owner"], GM_SECRET)),
        "player": sheet_socket(campaign, hero, with_csrf(cookies["member"], PLAYER_SECRET)),
        "other": sheet_socket(campaign, hero, others_cookie),
    }
    for socket in copies.values():
        assert (await socket.connect())[0]
    player_client = await sync_to_async(client_for)(member)
    url = reverse("characters:command", args=[campaign.pk, hero.pk, "track-box"])
    answer = await sync_to_async(player_client.post)(
        url, {"track": "injury", "box": "0:mark"}, headers=HX
    )
    assert answer.headers["HX-Reswap"] == "none"
    frames = {who: await socket.receive_from(timeout=5) for who, socket in copies.items()}
    frames["answer"] = answer.content.decode()
    assert all("Owes the harbourmaster" not in frame for frame in frames.values())
    assert all("csrf-token-of-this-copy" not in frame for frame in frames.values())
    assert "Award XP" in frames["gm"] and "Spend 1" in frames["gm"]
    for mine in ("player", "answer"):
        assert "Spend 1" in frames[mine] and "Award XP" not in frames[mine]
    assert "Spend 1" not in frames["other"] and "Roll " not in frames["other"]
    assert 'disabled aria-label="Minor injury box 1: marked"' in frames["other"]  # shown, not hers
    assert f'value="{GM_SECRET}"' in frames["gm"] and PLAYER_SECRET not in frames["gm"]
    assert f'value="{PLAYER_SECRET}"' in frames["player"] and GM_SECRET not in frames["player"]
    keys = {
        who: re.search(r'name="key" value="([^"]+)-\d+"', frames[who]).group(1)  # type: ignore[union-attr]
        for who in ("gm", "player", "answer")
    }
    assert len(set(keys.values())) == 3  # a roll key of each copy's own
    for socket in copies.values():
        await socket.disconnect()


async def test_a_change_from_elsewhere_is_drawn_by_each_copy(
    campaign, cookies, client_for, owner, hero
):
    """A Fudge point spent on a roll at the table: nothing was drawn for the sheet, so each
    open copy draws its own."""
    hero.fudge_points = 2
    await hero.asave(update_fields=["fudge_points"])
    gms = sheet_socket(campaign, hero, cookies["owner"])
    assert (await gms.connect())[0]
    await sync_to_async(sheet_changed)(hero)
    frame = await gms.receive_from(timeout=5)
    assert 'id="fudge-points">2<' in frame and "Award XP" in frame
    await gms.disconnect()


async def test_the_party_strip_shows_a_wound_to_everyone_at_the_table(
    campaign, cookies, client_for, owner, hero
):
    gm_client = await sync_to_async(client_for)(owner)
    player = await joined(campaign, cookies["member"], "player-member")
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    await until(player, "gm-owner")
    await command(gm_client, hero, "track-box", {"track": "injury", "box": "0:mark"})
    for socket in (player, gm):
        strip = (await until(socket, 'id="party"'))[-1]
        assert "Louie" in strip and "Injury 1/4" in strip
    await player.disconnect()
    await gm.disconnect()


async def test_an_npc_the_players_have_not_met_sends_them_nothing(
    campaign, cookies, client_for, owner, villain
):
    gm_client = await sync_to_async(client_for)(owner)
    player = await joined(campaign, cookies["member"], "player-member")
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    await until(player, "gm-owner")
    gms_sheet = sheet_socket(campaign, villain, cookies["owner"])
    assert (await gms_sheet.connect())[0]
    await command(gm_client, villain, "track-box", {"track": "condition", "box": "0:mark"})
    assert 'id="tracks"' in await gms_sheet.receive_from(timeout=5)
    assert "Zanzibar Quell" in (await until(gm, 'id="party"'))[-1]  # in play: it took a box
    assert await player.receive_nothing(timeout=0.5)
    for socket in (player, gm, gms_sheet):
        await socket.disconnect()


async def test_a_sheet_socket_is_refused_to_whoever_may_not_open_the_sheet(
    campaign, cookies, hero, villain
):
    for cookie, character in (
        (cookies["outsider"], hero),  # not at the table
        (cookies["member"], villain),  # an NPC the players have not met
    ):
        connected, _ = await sheet_socket(campaign, character, cookie).connect()
        assert not connected
    for cookie in (cookies["owner"], cookies["member"]):
        socket = sheet_socket(campaign, hero, cookie)
        assert (await socket.connect())[0]
        await socket.disconnect()


async def test_another_sheets_change_is_not_this_sheets_news(
    campaign, cookies, client_for, owner, hero, rival
):
    _, marla = rival
    gm_client = await sync_to_async(client_for)(owner)
    louies = sheet_socket(campaign, hero, cookies["member"])
    assert (await louies.connect())[0]
    await command(gm_client, marla, "fudge-points", {"by": "1"})
    assert await louies.receive_nothing(timeout=0.5)
    await louies.disconnect()


async def test_a_player_who_leaves_the_table_loses_the_sheets_socket(
    campaign, cookies, client_for, member, hero
):
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]
    membership = await campaign.memberships.aget(user=member)
    await sync_to_async(membership_remove)(actor=membership, membership=membership)
    assert await closed(sheet)


async def test_a_copy_back_from_a_dropped_connection_catches_up(
    campaign, cookies, client_for, owner, hero, rival
):
    """The GM marks a box while the player's phone is off the network; back on, her page asks
    to catch up and gets her sheet as it stands, drawn for her. Anything else it sends, and
    another player's ask, gets nothing it may not see."""
    gm_client = await sync_to_async(client_for)(owner)
    await command(gm_client, hero, "track-box", {"track": "injury", "box": "0:mark"})
    await hero.__class__.objects.filter(pk=hero.pk).aupdate(notes="Owes the harbourmaster")
    phone = sheet_socket(campaign, hero, cookies["member"])
    assert (await phone.connect())[0]
    for junk in ("hello", '{"catch_up": "yes"}', "[1, 2]", "{}"):
        await phone.send_to(text_data=junk)
    assert await phone.receive_nothing(timeout=0.3)
    await phone.send_to(text_data='{"catch_up": true}')
    frame = await phone.receive_from(timeout=5)
    assert 'aria-label="Minor injury box 1: marked"' in frame and "Spend 1" in frame
    assert "Owes the harbourmaster" not in frame
    other = sheet_socket(campaign, hero, await sync_to_async(cookie_of)(rival[0]))
    assert (await other.connect())[0]
    await other.send_to(text_data='{"catch_up": true}')
    theirs = await other.receive_from(timeout=5)
    assert "Spend 1" not in theirs and "Owes the harbourmaster" not in theirs
    for socket in (phone, other):
        await socket.disconnect()


async def test_an_open_sheet_lets_the_tables_own_cards_and_whispers_pass(
    campaign, cookies, client_for, owner, member, hero
):
    """What the table shows some players alone (a whisper, an attack waiting for their
    defence) is not the sheet's: its socket sends nothing of it and stays open."""
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]

    def card_to_her() -> None:
        with transaction.atomic():
            live.publish_to_people(campaign.pk, "attack.changed", people={member.pk: "<p>x</p>"})

    await sync_to_async(card_to_her)()
    assert await sheet.receive_nothing(timeout=0.3)
    gm_client = await sync_to_async(client_for)(owner)
    await command(gm_client, hero, "track-box", {"track": "injury", "box": "0:mark"})
    assert 'id="tracks"' in await sheet.receive_from(timeout=5)  # still open, still live
    await sheet.disconnect()
