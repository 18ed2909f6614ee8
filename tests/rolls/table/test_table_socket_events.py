"""What each socket at the table receives: every event for members, nothing for outsiders or
foreign origins, and never a secret roll's content (nor a hidden difficulty) on a player's
socket, asserted on the raw frames. A promoted player starts seeing GM content; a removed
member's socket is closed."""

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.urls import reverse

from campaigns.models import Membership
from campaigns.services import membership_remove, membership_set_role
from fudgetable.entry_ids import encode
from fudgetable.live import group_name
from rolls import fragments
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, roll_form, trait
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

FACES = ("⊞", "▢", "⊟")


async def post(client, name: str, campaign, data=None, *args):
    url = reverse(f"rolls:{name}", args=[campaign.pk, *args])
    return await sync_to_async(client.post)(url, data or {}, headers={"HX-Request": "true"})


@pytest.fixture
def clients(client_for, owner, member):
    return client_for(owner), client_for(member)


@pytest.fixture
def npc_traits(villain):
    # Superb and past it: no public roll in these tests comes near these words.
    return trait(villain, "Poisoncraft", level=8)


def marker_data() -> dict:
    """A public roll sent last: once a socket has it, it has had everything before it."""
    return {"kind": "situational", "label": "Marker", "modifiers": "-2", "key": fresh_key()}


async def test_a_member_receives_each_event(campaign, cookies, clients, hero):
    gm_client, player_client = clients
    gm, player = (
        await joined(campaign, cookies["owner"], "gm-owner"),
        await joined(campaign, cookies["member"], "player-member"),
    )
    await until(gm, "player-member")  # the player's arrival
    await post(gm_client, "session_start", campaign)
    for socket in (gm, player):
        assert "is running" in (await until(socket, 'id="table-session"'))[-1]
    data = await sync_to_async(roll_form)(hero, await sync_to_async(trait)(hero))
    await post(player_client, "roll", campaign, data)
    roll = await Roll.objects.aget()
    for socket in (gm, player):
        assert "Louie: Stealth" in (await until(socket, f'id="roll-{encode(roll.pk)}"'))[-1]
    await post(gm_client, "note", campaign, {"note": "Lucky break"}, roll.pk)
    for socket in (gm, player):
        frame = (await until(socket, f'id="roll-{encode(roll.pk)}"'))[-1]
        assert "GM: Lucky break" in frame and 'hx-swap-oob="true"' in frame
    await post(gm_client, "session_end", campaign)
    for socket in (gm, player):
        assert "has ended" in (await until(socket, 'id="table-session"'))[-1]
    await gm.disconnect()
    await player.disconnect()


async def test_the_tables_events_are_typed(campaign, clients, hero):
    """What the server sends the campaign's group, before any socket filters it."""
    gm_client, player_client = clients
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add(group_name(campaign.pk), listener)
    await post(gm_client, "session_start", campaign)
    data = await sync_to_async(roll_form)(hero, await sync_to_async(trait)(hero))
    await post(player_client, "roll", campaign, data)
    roll = await Roll.objects.aget()
    await post(gm_client, "note", campaign, {"note": "Lucky break"}, roll.pk)
    await post(gm_client, "session_end", campaign)
    messages = [await layer.receive(listener) for _ in range(8)]
    assert [m.get("event") or m["type"] for m in messages] == [
        "session.started",
        "roll.created",
        "roll.noted",
        "spotlight.moved",  # the spotlight goes dark as the session ends
        "table.sheet",  # the XP the session gave: the PC's open sheets draw it
        "sheet.news",  # its player's sockets alone are told it in words
        "party.changed",  # and the party strip shows it
        "session.ended",
    ]
    assert messages[5]["user_id"] == hero.owner_id
    assert "Session 1 gave Louie 1 XP." in messages[5]["html"]
    # Nothing drawn in advance: each open copy draws its own (only a sheet's own commands
    # draw the GMs' parts before they push).
    assert messages[4] == {
        "type": "table.sheet",
        "character_id": hero.pk,
        "players": True,
        "parts": {},
    }


async def test_an_entry_already_in_the_table_state_is_not_added_again(
    campaign, cookies, clients, hero
):
    """A socket joins its group, then reads the table state: a roll committed in between is
    in the state and queued as its event. The browser must show it once."""
    _, player_client = clients
    data = await sync_to_async(roll_form)(hero, await sync_to_async(trait)(hero))
    await post(player_client, "roll", campaign, data)
    earlier = await Roll.objects.aget()
    player = await joined(campaign, cookies["member"])
    entries = await sync_to_async(fragments.roll_entries)(earlier)
    queued = {"type": "table.event", "event": "roll.created", "entry": earlier.pk, **entries}
    await get_channel_layer().group_send(group_name(campaign.pk), queued)
    await post(player_client, "roll", campaign, marker_data())
    later = await Roll.objects.exclude(pk=earlier.pk).aget()
    frames = await until(player, f'id="roll-{encode(later.pk)}"')
    assert not any(f'id="roll-{encode(earlier.pk)}"' in frame for frame in frames)
    await player.disconnect()


async def test_presence_follows_sockets_coming_and_going(campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    assert "player-member" in (await until(gm, 'id="presence"'))[-1]
    await player.disconnect()
    frame = (await until(gm, 'id="presence"'))[-1]
    assert "gm-owner" in frame and "player-member" not in frame
    await gm.disconnect()


async def test_outsiders_anonymous_and_foreign_origins_are_refused(campaign, cookies):
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    assert not (await socket_for(campaign, (b"x-none", b"")).connect())[0]
    evil = (b"origin", b"https://evil.example")
    assert not (await socket_for(campaign, cookies["member"], origin=evil).connect())[0]
    assert not (await socket_for(campaign, cookies["owner"], origin=evil).connect())[0]


async def test_a_players_frames_never_hold_a_secret_or_a_hidden_difficulty(
    campaign, cookies, clients, hero, villain, npc_traits
):
    gm_client, _ = clients
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    poison = await sync_to_async(roll_form)(villain, npc_traits, secret="on")
    await post(gm_client, "roll", campaign, poison)
    bribe = {"kind": "reaction", "label": "Bribe the harbourmaster", "secret": "on"}
    await post(gm_client, "roll", campaign, {**bribe, "key": fresh_key()})
    hidden = await sync_to_async(roll_form)(
        hero, await sync_to_async(trait)(hero), difficulty=6, hidden_difficulty="on"
    )
    await post(gm_client, "roll", campaign, hidden)
    secret = await Roll.objects.aget(label="Zanzibar Quell: Poisoncraft")
    await post(gm_client, "note", campaign, {"note": "Poison works"}, secret.pk)
    await post(gm_client, "roll", campaign, marker_data())
    seen = await until(player, "Marker")
    # A new socket (a phone reconnecting) gets the whole table state: just as clean.
    again = socket_for(campaign, cookies["member"])
    assert (await again.connect())[0]
    seen += await until(again, 'id="roll-log"')
    everything = "".join(seen)
    for word in (
        "Zanzibar",
        "Poisoncraft",
        "harbourmaster",
        "Poison works",
        "Superb",
        "Superhuman",
        "margin",
        secret.snapshot["result_name"],
    ):
        assert word not in everything, word
    secret_frames = [f for f in seen if f'id="roll-{encode(secret.pk)}"' in f]
    # Made and the reconnect's state: the GM's note changes nothing a player sees of it, so it
    # sends them no frame.
    assert len(secret_frames) == 2
    assert "The GM rolled (secret)" in secret_frames[0]
    assert not any(face in secret_frames[0] for face in FACES)
    gm_seen = "".join(await until(gm, "Marker"))
    for word in ("Zanzibar Quell: Poisoncraft", "Bribe the harbourmaster", "Poison works"):
        assert word in gm_seen
    assert secret.snapshot["result_name"] in gm_seen and "vs Good Superhuman (+6)" in gm_seen
    for socket in (gm, player, again):
        await socket.disconnect()


async def test_the_same_roll_form_twice_is_one_roll_and_one_broadcast(
    campaign, cookies, clients, hero
):
    _, player_client = clients
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    data = await sync_to_async(roll_form)(hero, await sync_to_async(trait)(hero))
    await post(player_client, "roll", campaign, data)
    await post(player_client, "roll", campaign, data)
    await post(player_client, "roll", campaign, marker_data())
    frames = await until(gm, "Marker")
    roll = await Roll.objects.aget(idempotency_key=data["key"])
    assert sum(f'id="roll-{encode(roll.pk)}"' in frame for frame in frames) == 1
    assert await Roll.objects.acount() == 2
    await gm.disconnect()


async def test_a_promoted_player_starts_receiving_gm_content(
    campaign, cookies, clients, owner, member, villain, npc_traits
):
    gm_client, _ = clients
    player = await joined(campaign, cookies["member"], "player-member")
    first = await sync_to_async(roll_form)(villain, npc_traits, secret="on")
    await post(gm_client, "roll", campaign, first)
    assert "Zanzibar" not in "".join(await until(player, "The GM rolled (secret)"))

    def promote() -> None:
        actor = Membership.objects.get(campaign=campaign, user=owner)
        target = Membership.objects.get(campaign=campaign, user=member)
        membership_set_role(actor=actor, membership=target, role=Membership.Role.GM)

    await sync_to_async(promote)()
    # The socket sends the table state again, as a GM sees it.
    assert "Zanzibar Quell: Poisoncraft" in "".join(await until(player, 'id="roll-log"'))
    second = await sync_to_async(roll_form)(villain, npc_traits, secret="on")
    await post(gm_client, "roll", campaign, second)
    latest = await Roll.objects.alatest("pk")
    frame = (await until(player, f'id="roll-{encode(latest.pk)}"'))[-1]
    assert "Zanzibar Quell: Poisoncraft" in frame and "The GM rolled (secret)" not in frame
    await player.disconnect()


async def test_a_removed_members_socket_is_closed(campaign, cookies, owner, member):
    player = await joined(campaign, cookies["member"], "player-member")

    def remove() -> None:
        actor = Membership.objects.get(campaign=campaign, user=owner)
        membership_remove(
            actor=actor, membership=Membership.objects.get(campaign=campaign, user=member)
        )

    await sync_to_async(remove)()
    for _ in range(5):
        output = await player.receive_output(timeout=5)
        if output["type"] == "websocket.close":
            break
    else:
        raise AssertionError("the removed member's socket stayed open")
    await player.disconnect()  # the browser's side of the close: the consumer tidies up
