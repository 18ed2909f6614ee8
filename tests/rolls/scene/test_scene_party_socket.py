"""The GM's "Everyone here" over the table's sockets: both players' boards show the party in
the area and their logs read the line that says so; the GM's tool and board follow; an
outsider's socket is turned away from the table before it hears any of it."""

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from characters.services import character_create
from rolls.scene import services as scenes
from rolls.scene.ids import shown_id
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def ford(ez, jason, other, client_for, owner, cookies):
    """The Ford shown to the table, its PCs (Jason Free, Mia) brought in, not placed yet."""
    character_create(campaign=ez, owner=other, name="Mia")
    made = scenes.scene_create(campaign=ez, title="The Ford")
    ford = scenes.area_create(scene=made, name="Ford")
    scenes.area_create(scene=made, name="Cave", hidden=True, notes="The smugglers' stair")
    scenes.scene_switch(campaign=ez, scene=made)
    login = Client()
    login.force_login(other)
    cookie = (b"cookie", f"sessionid={login.cookies['sessionid'].value}".encode())
    return {
        "campaign": ez,
        "gm": client_for(owner),
        "ford": ford,
        "cookies": {**cookies, "other": cookie},
    }


async def test_everyone_here_reaches_every_board_and_log(ford):
    campaign, cookies = ford["campaign"], ford["cookies"]
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    them = await joined(campaign, cookies["other"], "player-other")
    await until(gm, "player-other")
    await until(her, "player-other")
    url = reverse("rolls:party_here", args=[campaign.pk])
    data = {"area": shown_id(ford["ford"])}
    answer = await sync_to_async(ford["gm"].post)(url, data, headers=HTMX)
    assert answer.status_code == 204
    box = f'id="area-{shown_id(ford["ford"])}"'
    seen = {}
    for name, socket in (("her", her), ("them", them), ("gm", gm)):
        frames = "".join(await until(socket, "The party stands at Ford."))
        assert 'id="scene-board"' in frames and box in frames
        drawn = frames[frames.index(box) :]
        assert "Jason Free" in drawn and "Mia" in drawn
        seen[name] = frames
    for name in ("her", "them"):  # the GM's tap and the hidden area stay the GMs'
        assert "Everyone here" not in seen[name] and "smugglers" not in seen[name]
    assert "Everyone here" in seen["gm"] and "data-party-waiting" not in seen["gm"]
    for socket in (gm, her, them):
        await socket.disconnect()


async def test_an_outsider_hears_nothing_of_it(ford):
    socket = socket_for(ford["campaign"], ford["cookies"]["outsider"])
    connected, _ = await socket.connect()
    assert not connected
