"""A change to a sheet reaches the open fight at once (issue #39): the fight panel's pickers,
drawn again, go to the GMs' sockets over the real ASGI application; players, who have no
fight panel, get nothing of it, so an NPC hidden from them stays hidden. Asserted on the raw
frames."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import character_create, npc_create
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.table_sockets import gm_and_player, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)
BOW = {"kind": "weapon", "name": "Longbow", "damage_factor": "1", "ranged": "on"}


async def test_a_bow_added_by_the_player_reaches_the_gms_ranged_picker_at_once(
    client_for, owner, member, ez, jason, cookies
):
    gm, player = await gm_and_player(ez, cookies)
    url = reverse("characters:command", args=[ez.pk, jason.pk, "gear-add"])
    player_client = await sync_to_async(client_for)(member)
    answer = await sync_to_async(player_client.post)(url, BOW)
    assert answer.status_code == 302
    frame = (await until(gm, 'id="ranged-shooter-weapon"'))[-1]
    bow = await jason.gear.aget(name="Longbow")
    ranged = frame[frame.index('id="ranged-shooter-weapon"') :]
    ranged = ranged[: ranged.index("</select>")]
    assert f'<option value="{bow.pk}">Jason Free: Longbow (INJ 4)</option>' in ranged
    assert 'hx-swap-oob="true"' in ranged and "data-keeps-choice" in ranged
    melee = frame[frame.index('id="fight-attacker-weapon"') :]
    assert "Longbow" not in melee[: melee.index("</select>")]
    assert await player.receive_nothing(timeout=1)  # no fight panel, so nothing to redraw
    await gm.disconnect()
    await player.disconnect()


async def test_a_hidden_npcs_weapon_reaches_the_gms_alone(
    client_for, owner, member, ez, jason, cookies
):
    shade = await sync_to_async(character_create)(
        campaign=ez, owner=None, name="Shade", kind="npc", npc_boxes=2
    )
    gm, player = await gm_and_player(ez, cookies)
    sling = {"kind": "weapon", "name": "Sling", "damage_factor": "0", "ranged": "on"}
    url = reverse("characters:command", args=[ez.pk, shade.pk, "gear-add"])
    gm_client, player_client = await sync_to_async(
        lambda: (client_for(owner), client_for(member))
    )()
    await sync_to_async(gm_client.post)(url, sling)
    frame = (await until(gm, "Shade: Sling (INJ 1)"))[-1]
    assert "Shade (NPC, hidden: the line will be GM-only)" in frame
    assert await player.receive_nothing(timeout=1)
    # A player may not arm the hidden NPC (nor learn it exists): nothing is pushed.
    assert (await sync_to_async(player_client.post)(url, sling)).status_code == 404
    assert await gm.receive_nothing(timeout=1)
    await gm.disconnect()
    await player.disconnect()


async def test_an_npc_made_from_a_template_reaches_the_gms_pickers_armed(
    owner, member, ez, cookies
):
    gm, player = await gm_and_player(ez, cookies)
    await sync_to_async(npc_create)(campaign=ez, name="", template_key="bandit")
    frame = (await until(gm, "Hill bandit: Short bow (INJ 2)"))[-1]
    assert "Hill bandit: Knife" in frame
    assert await player.receive_nothing(timeout=1)
    await gm.disconnect()
    await player.disconnect()


async def test_a_gms_table_state_has_the_pickers_and_a_players_has_not(
    owner, member, ez, jason, brute, crossbow, cookies
):
    for cookie, shown in ((cookies["owner"], True), (cookies["member"], False)):
        socket = socket_for(ez, cookie)
        assert (await socket.connect())[0]
        state = (await until(socket, 'id="roll-log"'))[-1]
        assert ('id="ranged-shooter-weapon"' in state) is shown
        assert ("Brute: Crossbow (INJ 5)" in state) is shown
        await socket.disconnect()
