"""The composer's answers over the table's socket (commands, live.js): a Fudge point spent on a
typed roll, the picker put back to everyone after a whisper (over the socket, and over HTTP
when the page sends the same line again after its socket dropped), and Reply on a whisper as
its people's sockets get it, live and on coming back. Owner, member, a second player and an
outsider."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.test import Client
from django.urls import reverse

from characters.models import Character
from fudgetable.entry_ids import encode
from rolls.models import Roll
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key, trait
from tests.rolls.table.test_socket_commands import answer_to, command
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

SPEND = re.compile(r'hx-post="([^"]+/say/[\w-]{22}/fudge-point/)" hx-target="#talk-rolled"')
REPLY = re.compile(r'class="button small talk-reply" data-reply="([\d ]+)"')
RESET = '<details class="fold-menu composer-to" id="talk-to" hx-swap-oob="true">'


@pytest.fixture
def second(campaign):
    """A second player with a PC, and the Cookie their browser sends."""
    user = UserFactory(username="second-player")
    MembershipFactory(campaign=campaign, user=user)
    pc = Character.objects.create(campaign=campaign, owner=user, name="Marla", kind="pc")
    trait(pc, "Athletics", level=1)
    client = Client()
    client.force_login(user)
    return user, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@pytest.fixture
def louie(hero):
    trait(hero, "Athletics", level=1)
    return hero


def say_path(campaign) -> str:
    return reverse("rolls:say", args=[campaign.pk])


async def test_a_player_spends_on_their_typed_roll_over_the_socket_and_the_gm_sees_it(
    campaign, cookies, louie, second
):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    line = {"line": "/r Athletics vs Great", "key": fresh_key()}
    await command(player, say_path(campaign), line)
    said = (await answer_to(player))["body"]
    spend = SPEND.search(said)
    assert spend and "Spend a Fudge point of Louie" in said
    await command(player, spend.group(1), {"use": "reroll", "key": fresh_key()}, number=2)
    spent = await answer_to(player, 2)
    assert spent["status"] == 200 and "Louie: Athletics (Fudge point)" in spent["body"]
    assert "Louie: Athletics (Fudge point)" in (await until(gm, "(Fudge point)"))[-1]
    await louie.arefresh_from_db()
    assert louie.fudge_points == 2
    # Another player's socket may not spend it: the same 403 as over HTTP.
    other = await joined(campaign, second[1])
    await command(other, spend.group(1), {"use": "reroll", "key": fresh_key()}, number=3)
    assert (await answer_to(other, 3))["status"] == 403
    # A GM may, over theirs (on the newer entry: the first one is spent).
    newer = SPEND.search(spent["body"]).group(1)
    await command(gm, newer, {"use": "alter-by-one", "key": fresh_key()}, number=4)
    assert (await answer_to(gm, 4))["status"] == 200
    assert await Roll.objects.filter(follows__isnull=False).acount() == 2
    for socket in (gm, player, other):
        await socket.disconnect()


async def test_an_outsiders_socket_is_refused_so_no_spend_can_travel_on_it(
    campaign, cookies, louie
):
    socket = socket_for(campaign, cookies["outsider"])
    connected, _ = await socket.connect()
    assert not connected


async def test_a_whisper_over_the_socket_and_again_over_http_puts_the_picker_back(
    campaign, cookies, owner, member, client_for
):
    player = await joined(campaign, cookies["member"], "player-member")
    line = {"line": "psst", "key": fresh_key(), "to": str(owner.pk)}
    await command(player, say_path(campaign), line)
    over_socket = (await answer_to(player))["body"]
    assert RESET in over_socket and "Your next line goes to everyone." in over_socket
    # The socket dropped before the answer came: the page sends the line over HTTP, same key.
    client = await sync_to_async(client_for)(member)
    again = await sync_to_async(client.post)(
        say_path(campaign), line, headers={"HX-Request": "true"}
    )
    assert RESET in again.content.decode()
    assert await Roll.objects.acount() == 1
    # A line to everyone after it is public, and leaves the picker as it is.
    await command(player, say_path(campaign), {"line": "hi all", "key": fresh_key()}, number=2)
    assert RESET not in (await answer_to(player, 2))["body"]
    assert await Roll.objects.filter(visibility="table").acount() == 1
    await player.disconnect()


async def test_reply_comes_with_the_whisper_to_its_people_alone_and_on_coming_back(
    campaign, cookies, owner, member, second, client_for
):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    other = await joined(campaign, second[1])
    client = await sync_to_async(client_for)(owner)
    data = {"line": "the ring is fake", "key": fresh_key(), "to": str(member.pk)}
    await sync_to_async(client.post)(say_path(campaign), data, headers={"HX-Request": "true"})
    people = " ".join(str(pk) for pk in sorted((owner.pk, member.pk)))
    for socket in (gm, player):
        assert REPLY.findall((await until(socket, "the ring is fake"))[-1]) == [people]
    await sync_to_async(client.post)(
        say_path(campaign), {"line": "MARKER", "key": fresh_key()}, headers={"HX-Request": "true"}
    )
    frames = await until(other, "MARKER")
    assert not any("the ring is fake" in frame or "talk-reply" in frame for frame in frames)
    # A page back from a drop gets the whisper it missed with its Reply.
    first = await Roll.objects.order_by("pk").afirst()
    back = socket_for(campaign, cookies["member"])
    back.scope["query_string"] = f"since=0&first={encode(first.pk)}&last=0&mine=0".encode()
    assert (await back.connect())[0]
    state = await back.receive_from(timeout=5)
    assert "the ring is fake" in state and REPLY.findall(state) == [people]
    for socket in (gm, player, other, back):
        await socket.disconnect()
