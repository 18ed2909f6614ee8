"""What players may not see makes no sound at their sockets, and what they may see arrives at
once: a hidden NPC's figure coming or going, a hidden area made, changed or taken away, a
range to it, send them no frame and move their count not at all; an NPC revealed or hidden
(by a tap on its figure or from the roster) reaches every player's board live, numbered; a
shot or an exchange naming an NPC they have not met goes to the GMs alone, and the GM is
told so before and after."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from characters.services import character_create
from fudgetable import live
from rolls.models import Roll
from rolls.scene import services as scenes
from rolls.scene.ids import shown_id
from tests.rolls.fight_setup import fight_form, ranged_form, role
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of
from tests.table_sockets import joined, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(scene, client_for, owner, member, observer, cookies):
    login = Client()
    login.force_login(observer)
    watching = (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())
    return {
        "scene": scene,
        "campaign": scene.campaign,
        "gm": client_for(owner),
        "member": client_for(member),
        "cookies": {**cookies, "observer": watching},
    }


async def sockets(table):
    """The GM's, the player's and the observer's sockets, each past the others' arrival."""
    campaign, cookies = table["campaign"], table["cookies"]
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    watcher = await joined(campaign, cookies["observer"], "table-observer")
    await until(gm, "table-observer")
    await until(player, "table-observer")
    return gm, player, watcher


def seq_of(frame: str) -> int:
    return int(re.search(r'id="table-seq" data-seq="(\d+)"', frame).group(1))


async def players_seq(campaign) -> int:
    return await sync_to_async(live.current_seq)(campaign.pk, "everyone")


async def apost(client, url: str, data=None):
    return await sync_to_async(client.post)(url, data or {}, headers=HTMX)


def _hidden_changes(scene):
    """Every scene command on what the players may not see, as the GM's pages run them."""
    shade = character_create(campaign=scene.campaign, owner=None, name="Shade", kind="npc")
    vault = area(scene, "Vault")
    scenes.figure_add(scene=scene, character=shade, area=vault)
    scenes.figure_add(  # a PC not placed yet is on the GMs' list alone
        scene=scene,
        character=character_create(campaign=scene.campaign, owner=None, name="Newcomer"),
    )
    scenes.figure_remove(figure=figure_of(scene, "Lurker"))
    crypt = scenes.area_create(scene=scene, name="Crypt", hidden=True, notes="Bones")
    scenes.area_update(
        area=crypt,
        name="Ossuary",
        notes="More bones",
        light="dark",
        cover="none",
        hidden=True,
        place=(1, 7, 2, 2),
    )
    scenes.ranges_set(scene=scene, ranges={(vault.pk, area(scene, "Hall").pk): "M"})
    scenes.area_delete(area=crypt)
    scenes.figure_remove(figure=figure_of(scene, "Shade"))


async def test_hidden_changes_send_players_no_frame_and_no_number(table):
    scene, campaign = table["scene"], table["campaign"]
    gm, player, watcher = await sockets(table)
    before = await players_seq(campaign)

    await sync_to_async(_hidden_changes)(scene)
    assert "Shade" in "".join(await until(gm, "Shade"))
    assert await players_seq(campaign) == before

    # Then something everyone sees: the players' next frame is that one, numbered next.
    jason = await sync_to_async(figure_of)(scene, "Jason Free")
    gallery = await sync_to_async(area)(scene, "Gallery")
    move = {"figure": shown_id(jason), "area": shown_id(gallery)}
    url = reverse("rolls:figure_move", args=[campaign.pk])
    assert (await apost(table["member"], url, move)).status_code == 204
    for socket in (player, watcher):
        frame = await socket.receive_from(timeout=5)
        assert f'id="figure-{shown_id(jason)}"' in frame
        assert seq_of(frame) == before + 1
        assert not any(word in frame for word in ("Shade", "Crypt", "Ossuary", "Vault"))
        assert await socket.receive_nothing(timeout=0.2)
    for socket in (gm, player, watcher):
        await socket.disconnect()


async def test_a_tap_on_the_figure_and_the_roster_reveal_and_hide_an_npc_live(table):
    scene, campaign = table["scene"], table["campaign"]
    lurker = await sync_to_async(figure_of)(scene, "Lurker")
    hall = await sync_to_async(area)(scene, "Hall")
    gm, player, watcher = await sockets(table)
    # The GM brings the Lurker, still hidden, into the Hall: the players hear nothing.
    move = {"figure": shown_id(lurker), "area": shown_id(hall)}
    await apost(table["gm"], reverse("rolls:figure_move", args=[campaign.pk]), move)
    gms = (await until(gm, f'id="figure-{shown_id(lurker)}"'))[-1]
    assert "Reveal Lurker to the players" in gms
    before = await players_seq(campaign)

    # A tap on the GM's figure: every player's board shows him at once, numbered next.
    url = reverse("rolls:figure_reveal", args=[campaign.pk, lurker.pk])
    assert (await apost(table["gm"], url, {"revealed": "1"})).status_code == 204
    for socket in (player, watcher):
        frame = (await until(socket, 'id="table-seq"'))[-1]
        assert f'id="figure-{shown_id(lurker)}"' in frame and seq_of(frame) == before + 1
    assert "Hide Lurker from the players" in (await until(gm, "Hide Lurker"))[-1]

    # Hidden again from the roster: gone from every player's board at once.
    roster = reverse("characters:npc_reveal", args=[campaign.pk, lurker.character_id])
    assert (await apost(table["gm"], roster, {"revealed": "0"})).status_code == 200
    for socket in (player, watcher):
        frame = (await until(socket, 'id="table-seq"'))[-1]
        assert 'id="scene-board"' in frame and "Lurker" not in frame
        assert seq_of(frame) == before + 2
    assert "Reveal Lurker to the players" in (await until(gm, "Reveal Lurker"))[-1]

    # His later moves are the GMs' alone again.
    gallery = await sync_to_async(area)(scene, "Gallery")
    move = {"figure": shown_id(lurker), "area": shown_id(gallery)}
    await apost(table["gm"], reverse("rolls:figure_move", args=[campaign.pk]), move)
    await until(gm, f'id="figure-{shown_id(lurker)}"')
    assert await players_seq(campaign) == before + 2
    assert await player.receive_nothing(timeout=0.2)
    for socket in (gm, player, watcher):
        await socket.disconnect()


def test_a_player_may_not_tap_reveal_and_an_outsider_gets_404(table, client_for, outsider):
    campaign = table["campaign"]
    lurker = figure_of(table["scene"], "Lurker")
    url = reverse("rolls:figure_reveal", args=[campaign.pk, lurker.pk])
    assert table["member"].post(url, {"revealed": "1"}).status_code == 403
    assert client_for(outsider).post(url, {"revealed": "1"}).status_code == 404
    jason = figure_of(table["scene"], "Jason Free")
    pc = reverse("rolls:figure_reveal", args=[campaign.pk, jason.pk])
    answer = table["gm"].post(pc, {"revealed": "1"}, headers=HTMX)
    assert "Jason Free is a PC, not an NPC" in answer.content.decode()
    lurker.character.refresh_from_db()
    assert not lurker.character.revealed


@pytest.fixture
def shade(scene, crossbow):
    """An NPC the players have not met, standing in the Gallery beside the Brute."""
    npc = character_create(campaign=scene.campaign, owner=None, name="Shade", kind="npc")
    scenes.figure_add(scene=scene, character=npc, area=area(scene, "Gallery"))
    return npc


async def test_a_shot_at_a_hidden_npc_reaches_the_gms_alone_and_says_so(table, brute, shade):
    campaign = table["campaign"]
    fighter = await sync_to_async(role)(brute, "Fighter")
    crossbow = await sync_to_async(brute.gear.get)(name="Crossbow")
    gm, player, watcher = await sockets(table)
    page = await sync_to_async(table["gm"].get)(reverse("rolls:table", args=[campaign.pk]))
    assert "Shade (NPC, hidden: the line will be GM-only)" in page.content.decode()

    url = reverse("rolls:fight_ranged", args=[campaign.pk])
    shot = await sync_to_async(ranged_form)(brute, fighter, crossbow, shade)
    answer = await apost(table["gm"], url, shot)
    assert "hidden from the players, so the line went to the GMs only" in answer.content.decode()
    assert "Shot: Brute at Shade" in "".join(await until(gm, "Shot: Brute at Shade"))
    for socket in (player, watcher):
        frames = "".join(await until(socket, 'id="table-seq"'))
        assert "Shade" not in frames
    assert await sync_to_async(lambda: Roll.objects.get(label__contains="Shade").secret)()

    # A melee exchange with him likewise; a shot between figures the players know does not.
    url = reverse("rolls:fight", args=[campaign.pk])
    data = await sync_to_async(fight_form)(shade, None, brute, fighter)
    answer = await apost(table["gm"], url, data)
    assert "went to the GMs only" in answer.content.decode()
    for socket in (player, watcher):
        assert "Shade" not in "".join(await until(socket, 'id="table-seq"'))
    jason = await sync_to_async(lambda: figure_of(table["scene"], "Jason Free").character)()
    url = reverse("rolls:fight_ranged", args=[campaign.pk])
    answer = await apost(table["gm"], url, ranged_form(brute, fighter, crossbow, jason))
    assert "GMs only" not in answer.content.decode()
    assert "Shot: Brute at Jason Free" in "".join(await until(player, "Shot: Brute"))
    for socket in (gm, player, watcher):
        await socket.disconnect()
