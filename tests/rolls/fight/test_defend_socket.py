"""An attack waiting for its defence, over the table's sockets: the card reaches the defending
player's sockets and the GMs' alone (another player's socket hears nothing at all, not even a
number), a reconnecting socket gets it with the table, the defender's tap over her socket
rolls the exchange, and an attack by an NPC the players have not met is named on no player's
socket. An outsider's socket never opens."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.services import gear_add
from fudgetable.shown_ids import ATTACK
from rolls.fight.models import DeclaredAttack
from rolls.scene.ids import shown_id
from tests.rolls.fight.defend_setup import *  # noqa: F403
from tests.rolls.scene_setup import figure_of
from tests.table_sockets import answered, joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)
CARD = "Brute shoots at Jason Free with Crossbow"


@pytest.fixture
def taps(scene, other, cookies, crossbow):
    """What the pages send: the GM's Brute shooting Jason, the GM's Lurker shooting him, and
    the second player's cookie."""
    login = Client()
    login.force_login(other)
    cookies["other"] = (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())
    lurker = figure_of(scene, "Lurker").character
    sling = gear_add(character=lurker, kind="weapon", name="Sling", damage_factor=1, ranged=True)
    jason = shown_id(figure_of(scene, "Jason Free"))
    return {
        "attack": reverse("rolls:fight_attack", args=[scene.campaign.pk]),
        "brute": {
            "attacker": shown_id(figure_of(scene, "Brute")),
            "target": jason,
            "range_weapon": crossbow.pk,
        },
        "lurker": {
            "attacker": shown_id(figure_of(scene, "Lurker")),
            "target": jason,
            "range_weapon": sling.pk,
        },
    }


async def test_the_card_reaches_the_defender_and_the_gms_alone(scene, cookies, taps):
    campaign = scene.campaign
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    them = await joined(campaign, cookies["other"], "player-other")
    back = None
    try:
        for socket in (gm, her):
            await until(socket, "player-other")  # past the last arrival
        answer = await answered(gm, taps["attack"], taps["brute"], 1, key="defend-socket-key")
        assert answer["status"] == 200 and "waiting for Jason Free" in answer["body"]
        card = (await until(her, CARD))[-1]
        assert "Evade · Agility" in card and "Roll for Jason Free" not in card
        assert "Roll for Jason Free" in (await until(gm, CARD))[-1]
        assert await them.receive_nothing(timeout=0.5)  # no card, no number: nothing

        # A dropped phone back: the card comes with the table; another player's, none.
        back = socket_for(campaign, cookies["member"])
        assert (await back.connect())[0]
        assert CARD in (await until(back, 'id="roll-log"'))[-1]
        stranger = socket_for(campaign, cookies["other"])
        assert (await stranger.connect())[0]
        assert "Brute shoots" not in (await until(stranger, 'id="roll-log"'))[-1]
        await stranger.disconnect()

        # The GM's unmet Lurker shoots Jason: rolled at once, the GMs' line; no card anywhere.
        hidden = await answered(gm, taps["attack"], taps["lurker"], 2, key="defend-socket-key")
        assert hidden["status"] == 200 and "Shot: Lurker at Jason Free" in hidden["body"]
        for player in (her, them):
            frames = await until(player, "The GM rolled (secret)")
            assert "Lurker" not in "".join(frames)

        # She evades over her socket, in one tap: the shot reaches every screen, her card goes.
        attack = await DeclaredAttack.objects.aget(ended_at__isnull=True)
        path = reverse("rolls:fight_defend", args=[campaign.pk, attack.pk])
        assert ATTACK.encode(attack.pk) in path
        defended = await answered(her, path, {"defence": "evade"}, 3, key="defend-socket-key")
        assert defended["status"] == 200 and "Shot: Brute at Jason Free" in defended["body"]
        seen = await until(them, "Shot: Brute at Jason Free")
        assert "Lurker" not in "".join(seen) and "attacks-waiting" not in "".join(seen)
        gm_frames = await until(gm, 'id="attacks-waiting"')
        assert CARD not in gm_frames[-1]
    finally:
        for socket in (gm, her, them, back):
            if socket is not None:
                await socket.disconnect()


async def test_an_outsiders_socket_never_opens(scene, cookies, taps):
    socket = socket_for(scene.campaign, cookies["outsider"])
    connected, _ = await socket.connect()
    assert not connected
    await socket.disconnect()
