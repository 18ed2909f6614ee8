"""The spotlight over the table socket: every member's screen follows each move and hand, a
reconnecting phone catches up, outsiders hear nothing, and a player's raw frames never hold the
GM's controls or the shares."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import character_create
from rolls.sessions import services as sessions
from tests.rolls.spotlight.test_spotlight import GM_ONLY, HX, url
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hero(campaign, member):
    return character_create(campaign=campaign, owner=member, name="Louie")


@pytest.fixture
def clients(client_for, owner, member):
    """The GM's and the player's browsers, logged in before the async test starts."""
    return client_for(owner), client_for(member)


async def apost(client, name: str, campaign, data=None):
    return await sync_to_async(client.post)(url(name, campaign), data or {}, headers=HX)


async def test_members_receive_every_spotlight_event_and_players_no_gm_content(
    clients, campaign, cookies, hero
):
    gm_client, player_client = clients
    await sync_to_async(sessions.session_start)(campaign=campaign)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await until(gm, "player-member")  # the player's arrival
    seen: dict[str, list[str]] = {"gm": [], "player": []}

    async def everyone_sees(marker: str) -> None:
        for who, socket in (("gm", gm), ("player", player)):
            frames = await until(socket, marker)
            assert 'id="spotlight"' in frames[-1]
            seen[who] += frames

    await apost(player_client, "hand_raise", campaign)
    await everyone_sees("player-member (Louie)")
    await apost(gm_client, "spotlight_move", campaign, {"character": hero.pk})
    await everyone_sees("The spotlight is on <strong>Louie</strong>")
    await apost(player_client, "hand_raise", campaign)
    await everyone_sees("player-member (Louie)")
    await apost(player_client, "hand_lower", campaign)
    await everyone_sees("No hand is up.")
    await apost(gm_client, "spotlight_move", campaign, {"character": ""})
    await everyone_sees("Nobody holds the spotlight.")
    gm_frames, player_frames = "".join(seen["gm"]), "".join(seen["player"])
    assert all(text in gm_frames for text in GM_ONLY) and "Louie: <strong>" in gm_frames
    assert not any(text in player_frames for text in GM_ONLY)
    assert "Louie: <strong>" not in player_frames
    # Her own hand control came to her alone, each time it changed: up after each raise, down
    # when the GM's move gave her PC the spotlight and when she lowered it herself.
    hands = [f for f in seen["player"] if f.lstrip().startswith('<form id="hand" hx-swap-oob')]
    assert ["Lower my hand" in hand for hand in hands] == [True, False, True, False]
    assert 'id="hand"' not in gm_frames
    await gm.disconnect()
    await player.disconnect()


async def test_a_reconnecting_phone_gets_the_spotlight_as_its_person_may_see_it(
    clients, campaign, cookies, hero
):
    await sync_to_async(sessions.session_start)(campaign=campaign)
    await apost(clients[0], "spotlight_move", campaign, {"character": hero.pk})
    await apost(clients[1], "hand_raise", campaign)  # someone else's hand, seen by all
    for cookie, gm_view in ((cookies["member"], False), (cookies["owner"], True)):
        socket = socket_for(campaign, cookie)
        assert (await socket.connect())[0]
        state = (await until(socket, 'id="spotlight"'))[-1]
        assert "The spotlight is on <strong>Louie</strong>" in state
        assert "player-member (Louie)" in state
        assert all((text in state) == gm_view for text in GM_ONLY)
        await socket.disconnect()


async def test_an_outsider_never_hears_the_spotlight(clients, campaign, cookies, hero):
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    player = await joined(campaign, cookies["member"], "player-member")
    await apost(clients[0], "spotlight_move", campaign, {"character": hero.pk})
    assert "Louie" in (await until(player, 'id="spotlight"'))[-1]
    await player.disconnect()


async def test_the_end_of_a_session_clears_the_spotlight_on_every_screen(
    clients, campaign, cookies, hero
):
    gm_client = clients[0]
    await sync_to_async(sessions.session_start)(campaign=campaign)
    await apost(gm_client, "spotlight_move", campaign, {"character": hero.pk})
    player = await joined(campaign, cookies["member"], "player-member")
    await sync_to_async(gm_client.post)(reverse("rolls:session_end", args=[campaign.pk]))
    assert "Nobody holds the spotlight." in (await until(player, 'id="spotlight"'))[-1]
    await player.disconnect()
