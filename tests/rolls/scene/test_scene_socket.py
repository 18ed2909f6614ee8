"""The scene over the table's sockets, frame by frame: a move reaches every screen that sees
the figure, a card shown to one player reaches her socket alone (the other player's frames
hold nothing of it), a hidden NPC and a hidden area never reach a player's socket, and a page
that comes back gets the scene as its person may see it."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from rolls.scene.ids import shown_id
from rolls.scene.models import Card
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)
SECRETS = ("Lurker", "Vault", "secret stair", "The ledger")


@pytest.fixture
def table(scene, client_for, owner, member, other, observer, cookies):
    """The scene's table with the GM's and both players' browsers and socket cookies, and a
    card kept for the GMs."""
    gm = client_for(owner)
    gm.post(
        reverse("rolls:card_create", args=[scene.campaign.pk]),
        {"title": "The ledger", "text": "Debts in the miller's hand.", "shown": "gm"},
        headers=HTMX,
    )
    more = {}
    for name, user in (("other", other), ("observer", observer)):
        login = Client()
        login.force_login(user)
        more[name] = (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())
    return {
        "scene": scene,
        "gm": gm,
        "member": client_for(member),
        "card": Card.objects.get(title="The ledger"),
        "cookies": {**cookies, **more},
        "jason": figure_of(scene, "Jason Free"),
        "lurker": figure_of(scene, "Lurker"),
        "hall": area(scene, "Hall"),
        "gallery": area(scene, "Gallery"),
        "member_id": member.pk,
    }


async def apost(client, name: str, campaign, data=None, *args):
    url = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    return await sync_to_async(client.post)(url, data or {}, headers=HTMX)


async def test_a_card_shown_to_one_player_reaches_her_socket_alone(table):
    scene = table["scene"]
    campaign = scene.campaign
    cookies = table["cookies"]
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    them = await joined(campaign, cookies["other"], "player-other")
    await until(gm, "player-other")
    await until(her, "player-other")
    frames = {"her": [], "them": []}

    # The GM moves the hidden NPC into the Hall: only the GMs' boards change.
    moved = {"figure": shown_id(table["lurker"]), "area": shown_id(table["hall"])}
    assert (await apost(table["gm"], "figure_move", campaign, moved)).status_code == 204
    assert "Lurker" in (await until(gm, "figures-"))[-1]

    # The card, to her alone.
    data = {"shown": "some", "people": [table["member_id"]]}
    answer = await apost(table["gm"], "card_reveal", campaign, data, table["card"].pk)
    assert answer.status_code == 204
    frames["her"] += await until(her, "The ledger")
    assert "Shown to you" in frames["her"][-1]
    assert 'id="my-seq"' in frames["her"][-1]  # in her own count, as a whisper
    # The other player is sent nothing of it, not even a number.
    assert await them.receive_nothing(timeout=0.3)
    # The GMs read in the log whom it went to.
    assert "Card shown to player-member: The ledger" in "".join(await until(gm, "Card shown"))

    # Her PC, moved in two taps: every screen sees him in the Gallery.
    jason, gallery = table["jason"], table["gallery"]
    move = {
        "figure": shown_id(jason),
        "area": shown_id(gallery),
        "seen_in": shown_id(table["hall"]),
    }
    assert (await apost(table["member"], "figure_move", campaign, move)).status_code == 204
    for socket, who in ((her, "her"), (them, "them"), (gm, None)):
        got = await until(socket, f'id="figure-{shown_id(jason)}"')
        # Taken out of the Hall's box and added to the Gallery's, the boxes not drawn again.
        assert f'hx-swap-oob="beforeend:#figures-{shown_id(gallery)}"' in got[-1]
        assert 'hx-swap-oob="delete"' in got[-1] and 'id="area-' not in got[-1]
        if who:
            frames[who] += got

    theirs, hers = "".join(frames["them"]), "".join(frames["her"])
    assert not any(secret in theirs for secret in SECRETS)
    assert "The ledger" in hers
    assert not any(secret in hers for secret in SECRETS if secret != "The ledger")
    for socket in (gm, her, them):
        await socket.disconnect()


async def state_of(campaign, cookie) -> str:
    """The table state a page that can say nothing of what it saw gets on connecting."""
    socket = socket_for(campaign, cookie)
    assert (await socket.connect())[0]
    state = (await until(socket, "data-state"))[-1]
    await socket.disconnect()
    return state


async def test_a_page_back_from_a_drop_gets_the_scene_its_person_may_see(table):
    scene = table["scene"]
    campaign = scene.campaign
    data = {"shown": "some", "people": [table["member_id"]]}
    await apost(table["gm"], "card_reveal", campaign, data, table["card"].pk)
    cookies = table["cookies"]
    hers = await state_of(campaign, cookies["member"])
    theirs = await state_of(campaign, cookies["other"])
    gms = await state_of(campaign, cookies["owner"])
    watching = await state_of(campaign, cookies["observer"])
    assert not any(secret in watching for secret in SECRETS)
    for state in (hers, theirs, gms, watching):
        assert 'id="scene-board"' in state and "Jason Free" in state and "Brute" in state
    assert "The ledger" in hers and "The ledger" not in theirs
    assert not any(secret in theirs for secret in SECRETS)
    assert all(secret in gms for secret in ("Lurker", "Vault", "The ledger"))
    assert 'id="scene-tool"' in gms and 'id="scene-tool"' not in hers


async def test_an_outsider_is_turned_away_from_the_scene(table):
    socket = socket_for(table["scene"].campaign, table["cookies"]["outsider"])
    connected, _ = await socket.connect()
    assert not connected
