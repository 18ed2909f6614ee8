"""The table page and rolls made over HTTP, pushed to every socket at the table."""

import pytest
from django.urls import reverse

from characters.services import character_create
from fudgetable.entry_ids import encode
from rolls.models import Roll
from tests.table_sockets import socket_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def hero(campaign, member):
    return character_create(campaign=campaign, owner=member, name="Louie")


def roll_data(hero, **extra):
    stealth = hero.traits.get(name="Stealth")
    return {
        "kind": "check",
        "character": hero.pk,
        "trait": stealth.pk,
        "modifiers": "",
        "key": "k" * 10,
        **extra,
    }


async def drain(socket, until: str, tries: int = 10) -> list[str]:
    frames = []
    for _ in range(tries):
        frame = await socket.receive_from(timeout=5)
        frames.append(frame)
        if until in frame:
            return frames
    raise AssertionError(f"{until!r} never arrived; got {frames!r}")


def test_owner_member_and_outsider_at_the_table_page(client_for, owner, member, outsider, campaign):
    url = reverse("rolls:table", args=[campaign.pk])
    assert "Start session 1" in client_for(owner).get(url).content.decode()
    page = client_for(member).get(url).content.decode()
    assert "Roll log" in page and "Start session" not in page
    assert client_for(outsider).get(url).status_code == 404


async def test_a_players_roll_reaches_every_socket(
    client_for, member, owner, campaign, hero, cookies
):
    from asgiref.sync import sync_to_async

    gm_socket, player_socket = (
        socket_for(campaign, cookies["owner"]),
        socket_for(campaign, cookies["member"]),
    )
    assert (await gm_socket.connect())[0] and (await player_socket.connect())[0]
    await drain(gm_socket, "roll-log")
    await drain(player_socket, "roll-log")
    data = await sync_to_async(roll_data)(hero)
    client = await sync_to_async(client_for)(member)
    response = await sync_to_async(client.post)(
        reverse("rolls:roll", args=[campaign.pk]), data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    roll = await Roll.objects.aget()
    for socket in (gm_socket, player_socket):
        frames = await drain(socket, f'id="roll-{encode(roll.pk)}"')
        assert "Louie: Stealth" in frames[-1]
    await gm_socket.disconnect()
    await player_socket.disconnect()


def test_owner_edits_the_gm_moves_a_player_may_not(client_for, owner, member, outsider, campaign):
    url = reverse("campaigns:gm_moves", args=[campaign.pk])
    assert (
        "Announce future badness"
        in client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    )
    client_for(owner).post(url, {"moves": "Reveal a secret\n\nSpring an ambush\n"})
    campaign.refresh_from_db()
    assert campaign.gm_moves == ["Reveal a secret", "Spring an ambush"]
    assert client_for(member).post(url, {"moves": "Nothing"}).status_code == 403
    assert client_for(outsider).post(url, {"moves": "Nothing"}).status_code == 404
    campaign.refresh_from_db()
    assert campaign.gm_moves == ["Reveal a secret", "Spring an ambush"]
