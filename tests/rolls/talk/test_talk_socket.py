"""Table talk on the sockets, read frame by frame: a whisper's words reach its own people's
sockets and no other's (not even as a number), a GM's secret typed roll reaches no player, a
message said to the table is numbered like a roll, and a page back from a drop gets the
whispers it missed (and only its own)."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.test import Client
from django.urls import reverse

from characters.models import Trait
from characters.services import npc_create
from fudgetable import live
from fudgetable.entry_ids import encode
from rolls.models import Roll
from rolls.table import heartbeat
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key
from tests.table_sockets import gm_and_player, joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


def _cookie(user) -> tuple[bytes, bytes]:
    client = Client()
    client.force_login(user)
    return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@pytest.fixture
def table(campaign, owner, member, client_for):
    """The GM, a player, a second player and an observer, with their clients and cookies."""
    second = UserFactory(username="second-player")
    watcher = UserFactory(username="table-observer")
    MembershipFactory(campaign=campaign, user=second)
    MembershipFactory(campaign=campaign, user=watcher, role="observer")
    people = {"gm": owner, "alice": member, "bob": second, "watcher": watcher}
    return {
        name: {"user": user, "client": client_for(user), "cookie": _cookie(user)}
        for name, user in people.items()
    }


async def say(person, campaign, line, **extra):
    url = reverse("rolls:say", args=[campaign.pk])
    data = {"line": line, "key": fresh_key(), **extra}
    response = await sync_to_async(person["client"].post)(url, data, headers={"HX-Request": "true"})
    assert "data-sent" in response.content.decode(), response.content


async def sockets_of(campaign, table):
    opened = {}
    for name, person in table.items():
        opened[name] = await joined(campaign, person["cookie"])
    return opened


async def drain_until(socket, marker):
    return await until(socket, marker, tries=40)


async def test_a_whisper_reaches_its_people_and_no_other_socket(campaign, table):
    sockets = await sockets_of(campaign, table)
    alice_id = table["alice"]["user"].pk
    await say(table["gm"], campaign, "the ring is fake", to=[str(alice_id)])
    # Then something everyone hears: every socket reads up to it.
    await say(table["gm"], campaign, "MARKER for everyone")
    frames = {name: await drain_until(socket, "MARKER") for name, socket in sockets.items()}
    for name in ("gm", "alice"):
        whisper = next(frame for frame in frames[name] if "the ring is fake" in frame)
        assert 'id="my-seq" data-seq="1"' in whisper  # numbered in their own count
    for name in ("bob", "watcher"):
        assert not any("the ring is fake" in frame for frame in frames[name])
        assert not any('id="my-seq"' in frame for frame in frames[name])  # nor that one came
    # The public message is numbered like a roll, one past the table's last.
    assert 'data-seq="1"' in frames["bob"][-1] and "MARKER" in frames["bob"][-1]
    for socket in sockets.values():
        await socket.disconnect()


async def test_whispers_between_players_reach_no_gm_socket(campaign, table):
    sockets = await sockets_of(campaign, table)
    await say(table["alice"], campaign, "/w second-player split the loot")
    await say(table["bob"], campaign, "MARKER")
    frames = {name: await drain_until(socket, "MARKER") for name, socket in sockets.items()}
    assert any("split the loot" in frame for frame in frames["bob"])
    for name in ("gm", "watcher"):
        assert not any("split the loot" in frame for frame in frames[name])
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_secret_typed_roll_reaches_no_players_socket(campaign, table):
    npc = await sync_to_async(npc_create)(campaign=campaign, name="Zanzibar Quell")
    await Trait.objects.acreate(character=npc, kind="trait", name="Poisoncraft", level=2)
    sockets = await sockets_of(campaign, table)
    await say(table["gm"], campaign, "/gmr Poisoncraft", speaking_as=str(npc.pk))
    await say(table["gm"], campaign, "MARKER")
    frames = {name: await drain_until(socket, "MARKER") for name, socket in sockets.items()}
    assert any("Poisoncraft" in frame for frame in frames["gm"])
    for name in ("alice", "bob", "watcher"):
        assert not any("Poisoncraft" in frame or "Zanzibar" in frame for frame in frames[name])
        assert any("The GM rolled (secret)" in frame for frame in frames[name])
    for socket in sockets.values():
        await socket.disconnect()


async def test_a_page_back_from_a_drop_gets_the_whispers_it_missed_and_no_others(campaign, table):
    alice_id, bob_id = table["alice"]["user"].pk, table["bob"]["user"].pk
    await say(table["gm"], campaign, "before the drop")
    first = await Roll.objects.aget()
    # Both pages saw the table at 1 and nothing of their own; then they drop.
    await say(table["gm"], campaign, "psst alice", to=[str(alice_id)])
    await say(table["gm"], campaign, "psst bob", to=[str(bob_id)])
    seen = f"?since=1&first={encode(first.pk)}&last={encode(first.pk)}&mine=0"
    for name, own, other in (
        ("alice", "psst alice", "psst bob"),
        ("bob", "psst bob", "psst alice"),
    ):
        socket = socket_for(campaign, table[name]["cookie"])
        socket.scope["query_string"] = seen[1:].encode()
        connected, _ = await socket.connect()
        assert connected
        state = await socket.receive_from(timeout=5)
        assert own in state and other not in state
        assert "before the drop" not in state  # it had that one
        assert 'id="my-seq" data-seq="1" hidden' in state
        await socket.disconnect()
    # A page that saw everything, its own whisper included, gets only who is here.
    socket = socket_for(campaign, table["alice"]["cookie"])
    socket.scope["query_string"] = (
        f"since=1&first={encode(first.pk)}&last={encode(first.pk)}&mine=1".encode()
    )
    await socket.connect()
    state = await socket.receive_from(timeout=5)
    assert "psst" not in state and 'id="roll-log"' not in state
    await socket.disconnect()


async def test_an_outsider_gets_no_socket_at_all(campaign, cookies):
    connected, _ = await socket_for(campaign, cookies["outsider"]).connect()
    assert not connected


def _lost_whisper(campaign_id: int, user_id: int) -> None:
    """A whisper to this person whose message went missing on its way (its number taken)."""
    with transaction.atomic():
        live.next_person_seqs(campaign_id, [user_id])


async def test_a_lost_whisper_is_caught_up_by_the_next_or_by_the_heartbeat(
    campaign, cookies, owner, member
):
    gm, player = await gm_and_player(campaign, cookies)
    await sync_to_async(_lost_whisper)(campaign.pk, member.pk)
    await heartbeat.heartbeat.catch_up_behind()
    frame = await player.receive_from(timeout=5)
    assert 'id="my-seq" data-seq="1" hidden' in frame and 'id="roll-log"' in frame
    assert await gm.receive_nothing(timeout=0.3)  # nobody else's count moved
    # The next whisper past a lost one brings the table as it stands, that one with it.
    await sync_to_async(_lost_whisper)(campaign.pk, member.pk)
    message = {"type": "table.whisper", "event": "message.whispered", "html": "<p>later</p>"}
    message["seqs"] = {str(member.pk): 3}
    await get_channel_layer().group_send(live.group_name(campaign.pk), message)
    frame = await until(player, 'id="my-seq"')
    assert 'data-seq="2" hidden' in frame[-1] and "<p>later</p>" not in frame[-1]
    for socket in (gm, player):
        await socket.disconnect()
