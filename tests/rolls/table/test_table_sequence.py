"""No silent gaps: every table event carries the table's number in its reader's audience,
taken in the change's own transaction; a screen that sees a number skipped asks its socket
for the table as it stands (live.js), and gets it with the number it shows up to."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.db import transaction
from django.urls import reverse

from fudgetable import live
from fudgetable.models import TableSequence
from rolls.models import Countdown
from tests.rolls.conftest import fresh_key
from tests.table_sockets import gm_and_player, socket_for, until

HX = {"HX-Request": "true"}
NUMBER = re.compile(r'id="table-seq" data-seq="(\d+)"( data-state)?')


def numbers(frames: list[str]) -> list[int]:
    return [int(found[1]) for frame in frames if (found := NUMBER.search(frame))]


@pytest.mark.django_db
def test_each_audience_counts_its_own_events_and_a_rollback_takes_its_number_back(campaign):
    assert live.current_seq(campaign.pk, "everyone") == live.current_seq(campaign.pk, "gm") == 0
    assert live.next_seq(campaign.pk, players=True) == {"everyone": 1, "gm": 1}
    assert live.next_seq(campaign.pk, players=False) == {"gm": 2}  # players' count runs on
    assert live.next_seq(campaign.pk, players=True) == {"everyone": 2, "gm": 3}
    with pytest.raises(RuntimeError), transaction.atomic():
        live.next_seq(campaign.pk, players=True)
        raise RuntimeError("the change failed")
    assert (live.current_seq(campaign.pk, "everyone"), live.current_seq(campaign.pk, "gm")) == (
        2,
        3,
    )
    assert TableSequence.objects.count() == 1


async def post(client, name: str, campaign, *args, data=None):
    url = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    response = await sync_to_async(client.post)(url, data or {}, headers=HX)
    assert response.status_code in (200, 204), response.content


@pytest.mark.django_db(transaction=True)
async def test_a_players_numbers_run_without_a_gap_past_the_gms_own_events(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm, player = await gm_and_player(campaign, cookies)
    await post(
        gm_client,
        "countdown_create",
        campaign,
        data={"name": "One", "boxes": "4", "visibility": "public"},
    )
    await post(
        gm_client,
        "countdown_create",
        campaign,
        data={"name": "Plot", "boxes": "4", "visibility": "gm"},
    )
    plot = await Countdown.objects.aget(name="Plot")
    await post(gm_client, "countdown_mark", campaign, plot.pk)
    await post(
        gm_client,
        "countdown_create",
        campaign,
        data={"name": "Two", "boxes": "4", "visibility": "public"},
    )
    seen = await until(player, "Two")
    assert numbers(seen) == [1, 2]  # the GMs' two events are not counted, nor seen
    assert all("Plot" not in frame for frame in seen)
    assert numbers(await until(gm, "Two")) == [1, 2, 3, 4]
    for socket in (gm, player):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_screen_that_asks_to_catch_up_gets_the_table_and_its_number(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    await sync_to_async(live.next_seq)(campaign.pk, players=True)  # an event that went missing
    player = socket_for(campaign, cookies["member"])
    assert (await player.connect())[0]
    state = await player.receive_from(timeout=5)
    assert 'id="roll-log"' in state and 'data-seq="1" data-state' in state
    await until(player, 'id="presence"')
    await post(
        gm_client,
        "roll",
        campaign,
        data={"kind": "situational", "label": "Weather", "key": fresh_key()},
    )
    (rolled,) = numbers(await until(player, "Weather"))
    assert rolled == 2
    for junk in ("not json", json.dumps(["catch_up"]), json.dumps({"catch_up": "yes"})):
        await player.send_to(text_data=junk)
    assert await player.receive_nothing(timeout=0.3)
    await player.send_to(text_data=json.dumps({"catch_up": True}))
    caught = await player.receive_from(timeout=5)
    assert "Weather" in caught and 'data-seq="2" data-state' in caught
    # Asked again at once, the socket waits out the rest of the second, then answers.
    await player.send_to(text_data=json.dumps({"catch_up": True}))
    assert await player.receive_nothing(timeout=0.3)
    assert 'data-seq="2" data-state' in await player.receive_from(timeout=5)
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_outsider_cannot_catch_up(campaign, cookies):
    outsider = socket_for(campaign, cookies["outsider"])
    assert not (await outsider.connect())[0]
