"""A fight exchange and its confirmation reach every socket at the table: the GM's with the
Confirm button, a player's without it; a secret exchange shows a player nothing of itself;
an outsider's socket is refused. Asserted on the raw frames."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from fudgetable.asgi import application
from fudgetable.entry_ids import encode
from rolls.models import Roll
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import HTMX, fight_form, ranged_form, role
from tests.table_sockets import HOST, ORIGIN, joined, until

pytestmark = pytest.mark.django_db(transaction=True)


def fight_data(jason, brute, **extra):
    quarterstaff, fighter = role(jason, "Quarterstaff for Hire"), role(brute, "Fighter")
    return {**fight_form(jason, quarterstaff, brute, fighter), **extra}


async def test_the_exchange_and_its_confirmation_reach_every_member(
    client_for, owner, ez, jason, brute, dice, cookies
):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await joined(ez, cookies["owner"]), await joined(ez, cookies["member"])
    dice(1, 0, 0, 0)
    data = await sync_to_async(fight_data)(jason, brute)
    url = reverse("rolls:fight", args=[ez.pk])
    assert (await sync_to_async(gm_client.post)(url, data, headers=HTMX)).status_code == 200
    made = await Roll.objects.aget()
    confirm_url = reverse("rolls:fight_confirm", args=[ez.pk, made.pk])
    gm_frame = (await until(gm, f'id="roll-{encode(made.pk)}"'))[-1]
    player_frame = (await until(player, f'id="roll-{encode(made.pk)}"'))[-1]
    for frame in (gm_frame, player_frame):
        assert "Fight: Jason Free vs Brute" in frame and "<strong>Hurt</strong>" in frame
    assert confirm_url in gm_frame and "Confirm: mark the wound" in gm_frame
    assert confirm_url not in player_frame and "Proposed: the GM marks it" in player_frame

    await sync_to_async(gm_client.post)(confirm_url, headers=HTMX)
    for socket in (gm, player):
        frames = await until(socket, "Marked on the sheet.")
        assert any("Wound marked on Brute: Hurt (2 boxes)" in frame for frame in frames)
    await gm.disconnect()
    await player.disconnect()


async def test_a_secret_exchange_shows_a_player_nothing_and_an_outsider_is_refused(
    client_for, owner, ez, jason, brute, dice, cookies
):
    outsider = WebsocketCommunicator(
        application, f"/ws/campaigns/{ez.pk}/", headers=[HOST, ORIGIN, cookies["outsider"]]
    )
    connected, _ = await outsider.connect()
    assert not connected
    gm_client = await sync_to_async(client_for)(owner)
    player = await joined(ez, cookies["member"])
    dice(1, 0, 0, 0)
    data = await sync_to_async(fight_data)(jason, brute, secret="on")
    await sync_to_async(gm_client.post)(reverse("rolls:fight", args=[ez.pk]), data, headers=HTMX)
    made = await Roll.objects.aget()
    frame = (await until(player, f'id="roll-{encode(made.pk)}"'))[-1]
    assert "The GM rolled (secret)" in frame
    assert "Brute" not in frame and "Hurt" not in frame
    await player.disconnect()


async def test_a_confirmed_wound_reaches_the_players_open_sheet(
    client_for, owner, ez, jason, brute, dice, cookies
):
    """The GM confirms a wound from the fight exchange: Jason's sheet, open on his player's
    phone, hears that it changed and fetches itself again."""
    gm_client = await sync_to_async(client_for)(owner)
    path = f"/ws/campaigns/{ez.pk}/sheets/{jason.pk}/"
    sheet = WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, cookies["member"]])
    assert (await sheet.connect())[0]
    dice(-1, -1, -1, 0, 1, 1, 1, 0)  # Jason rolls -3, the brute +3: the brute lands a blow
    data = await sync_to_async(fight_data)(jason, brute)
    await sync_to_async(gm_client.post)(reverse("rolls:fight", args=[ez.pk]), data, headers=HTMX)
    made = await Roll.objects.aget()
    confirm_url = reverse("rolls:fight_confirm", args=[ez.pk, made.pk])
    await sync_to_async(gm_client.post)(confirm_url, headers=HTMX)
    await jason.arefresh_from_db()
    assert any(box != "clear" for level in jason.tracks["wounds"]["levels"] for box in level)
    notice = await sheet.receive_from(timeout=5)
    assert reverse("characters:sheet", args=[ez.pk, jason.pk]) in notice
    await sheet.disconnect()


async def test_a_shot_reaches_every_member_with_the_confirm_button_for_the_gm_only(
    client_for, owner, ez, jason, brute, crossbow, cookies
):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await joined(ez, cookies["owner"]), await joined(ez, cookies["member"])
    fighter = await sync_to_async(role)(brute, "Fighter")
    data = await sync_to_async(ranged_form)(brute, fighter, crossbow, jason, range="T")
    url = reverse("rolls:fight_ranged", args=[ez.pk])
    assert (await sync_to_async(gm_client.post)(url, data, headers=HTMX)).status_code == 200
    made = await Roll.objects.aget()
    gm_frame = (await until(gm, f'id="roll-{encode(made.pk)}"'))[-1]
    player_frame = (await until(player, f'id="roll-{encode(made.pk)}"'))[-1]
    for frame in (gm_frame, player_frame):
        assert "Shot: Brute at Jason Free" in frame and "<strong>Hurt</strong>" in frame
    assert "Confirm: mark the wound" in gm_frame
    assert "Proposed: the GM marks it" in player_frame
    await gm.disconnect()
    await player.disconnect()
