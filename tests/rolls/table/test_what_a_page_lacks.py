"""A table page that comes back (its socket reconnects, or it saw an event's number skipped)
says what it saw: the table's number, and the first and last entries of its log. It gets only
what it lacks: new entries at the bottom, changed ones in place, never the whole log again;
and a page that can say nothing gets the table whole. Asserted on the raw frames, for the owner,
a member and an outsider, a secret roll's content never on a player's."""

import json

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from campaigns.models import Membership
from fudgetable import live
from fudgetable.asgi import application
from fudgetable.entry_ids import encode
from rolls import services
from rolls.log.pane import LOG_PAGE
from rolls.models import Roll
from tests.table_sockets import HOST, ORIGIN, entry_pks, until

pytestmark = pytest.mark.django_db(transaction=True)

SECRET = "Zanzibar's ambush"


def roll(campaign, user, label: str, *, secret: bool = False) -> Roll:
    membership = Membership.objects.select_related("campaign").get(campaign=campaign, user=user)
    return services.roll_reading(
        membership=membership, key=f"key-{label}", reaction=False, label=label, secret=secret
    )


def seen_now(campaign, audience: str, rolls: list[Roll]) -> dict[str, int]:
    """What a page that shows ``rolls`` (oldest first) and every event so far says."""
    since = live.current_seq(campaign.pk, audience)  # type: ignore[arg-type]
    return {"since": since, "first": encode(rolls[0].pk), "last": encode(rolls[-1].pk)}


def socket_seeing(campaign, cookie, seen: dict[str, object]) -> WebsocketCommunicator:
    query = "&".join(f"{name}={value}" for name, value in seen.items())
    path = f"/ws/campaigns/{campaign.pk}/?{query}"
    return WebsocketCommunicator(application, path, headers=[HOST, ORIGIN, cookie])


async def first_frame(socket: WebsocketCommunicator) -> str:
    connected, _ = await socket.connect()
    assert connected
    return (await until(socket, "data-state"))[-1]


@pytest.fixture
def three(campaign, owner):
    return [roll(campaign, owner, f"Entry {n}") for n in range(3)]


async def test_a_page_that_saw_the_table_as_it_stands_gets_only_who_is_here(
    campaign, cookies, three
):
    for who, audience in (("owner", "gm"), ("member", "everyone")):
        seen = await sync_to_async(seen_now)(campaign, audience, three)
        socket = socket_seeing(campaign, cookies[who], seen)
        frame = await first_frame(socket)
        assert 'id="presence"' in frame and 'id="my-calls"' in frame
        assert 'id="roll-log"' not in frame and "Entry" not in frame
        assert 'id="table-session"' not in frame and 'id="countdown-list"' not in frame
        assert f'data-seq="{seen["since"]}" data-state' in frame
        await socket.disconnect()
    outsider = socket_seeing(campaign, cookies["outsider"], {"since": 0})
    assert not (await outsider.connect())[0]


async def test_a_page_that_was_away_gets_new_entries_at_the_bottom_and_changed_ones_in_place(
    campaign, cookies, owner, three
):
    players_seen = await sync_to_async(seen_now)(campaign, "everyone", three)
    gms_seen = await sync_to_async(seen_now)(campaign, "gm", three)
    # While the pages were away: a GM's note on the second entry, a public roll, a secret one.
    await sync_to_async(services.roll_note)(roll=three[1], note="Lucky break")
    public = await sync_to_async(roll)(campaign, owner, "Entry 3")
    secret = await sync_to_async(roll)(campaign, owner, SECRET, secret=True)

    player = socket_seeing(campaign, cookies["member"], players_seen)
    frame = await first_frame(player)
    assert 'id="roll-log" class="roll-log"' not in frame  # not the log again
    assert f'<li id="roll-{encode(three[1].pk)}" class="roll-entry" hx-swap-oob="true">' in frame
    assert "Lucky break" in frame
    assert (
        f'id="roll-{encode(three[0].pk)}"' not in frame
        and f'id="roll-{encode(three[2].pk)}"' not in frame
    )
    appended = frame.split('<ul id="roll-log" hx-swap-oob="beforeend">', 1)[1]
    assert entry_pks(appended) == [public.pk, secret.pk]  # oldest first, at the bottom
    assert "The GM rolled (secret)" in appended and SECRET not in frame.replace("&#x27;", "'")
    await player.disconnect()

    gm = socket_seeing(campaign, cookies["owner"], gms_seen)
    frame = await first_frame(gm)
    assert SECRET in frame.replace("&#x27;", "'") and "Lucky break" in frame
    await gm.disconnect()


async def test_more_new_entries_than_a_page_starts_with_bring_the_log_whole(
    campaign, cookies, owner, three
):
    seen = await sync_to_async(seen_now)(campaign, "everyone", three)
    for n in range(LOG_PAGE + 1):
        await sync_to_async(roll)(campaign, owner, f"Later {n}")
    socket = socket_seeing(campaign, cookies["member"], seen)
    frame = await first_frame(socket)
    log = frame.split('<ul id="roll-log" class="roll-log" hx-swap-oob="true">', 1)[1]
    assert len(entry_pks(log.split("</ul>", 1)[0])) == LOG_PAGE
    assert "Earlier entries" in log
    await socket.disconnect()


@pytest.mark.parametrize(
    "seen",
    [{"since": "x"}, {"since": "-1"}, {"since": "999999"}, {"since": "1", "last": "9" * 40}, {}],
)
async def test_what_a_page_cannot_say_brings_the_table_whole(campaign, cookies, three, seen):
    socket = socket_seeing(campaign, cookies["member"], seen)
    frame = await first_frame(socket)
    assert 'id="roll-log" class="roll-log" hx-swap-oob="true"' in frame
    assert all(f'id="roll-{encode(entry.pk)}"' in frame for entry in three)
    await socket.disconnect()


async def test_a_page_asking_to_catch_up_says_what_it_saw(campaign, cookies, owner, three):
    seen = await sync_to_async(seen_now)(campaign, "everyone", three)
    player = socket_seeing(campaign, cookies["member"], seen)
    await first_frame(player)
    later = await sync_to_async(roll)(campaign, owner, "Entry 3")
    await until(player, f'id="roll-{encode(later.pk)}"')  # its push
    await player.send_to(text_data=json.dumps({"catch_up": True, **seen}))
    frame = await until(player, "data-state")
    assert f'id="roll-{encode(later.pk)}"' in frame[-1] and 'class="roll-log"' not in frame[-1]
    await player.disconnect()


def test_earlier_entries_come_a_page_at_a_time_as_each_person_reads_the_log(
    client_for, owner, member, outsider, campaign
):
    made = [roll(campaign, owner, f"Entry {n}", secret=n == 5) for n in range(LOG_PAGE + 8)]
    url = reverse("rolls:log_earlier", args=[campaign.pk])
    oldest_shown = made[-LOG_PAGE]
    for client in (client_for(owner), client_for(member)):
        page = client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()
        assert (
            f'?before={encode(oldest_shown.pk)}"' in page
            and f'id="roll-{encode(made[7].pk)}"' not in page
        )
    gms = client_for(owner).get(url, {"before": encode(oldest_shown.pk)}).content.decode()
    assert entry_pks(gms) == [entry.pk for entry in made[:8]]  # oldest first, none left before them
    assert "Earlier entries" not in gms and "Entry 5" in gms
    players = client_for(member).get(url, {"before": encode(oldest_shown.pk)}).content.decode()
    assert "The GM rolled (secret)" in players and "Entry 5" not in players
    assert client_for(outsider).get(url, {"before": encode(oldest_shown.pk)}).status_code == 404
    for nonsense in ("abc", encode(made[-1].pk + 100), str(oldest_shown.pk)):
        assert client_for(member).get(url, {"before": nonsense}).status_code == 404
    # A number past what an id can be is refused by the one input rule, in words.
    assert client_for(member).get(url, {"before": "9" * 30}).status_code == 400
