"""Commands over the table's socket: a page with its socket open sends its POSTs over it
(live.js), and the consumer runs the same view as the person, answering that socket alone."""

import json
import re
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.hashers import make_password
from django.contrib.sessions.backends.cached_db import SessionStore
from django.db import OperationalError
from django.urls import reverse

from campaigns.models import Membership
from fudgetable import request_queue, socket_commands
from rolls import views
from rolls.models import Countdown, Roll
from tests.factories import MembershipFactory
from tests.rolls.conftest import post_roll, roll_form, trait
from tests.table_sockets import gm_and_player, joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

ENTRY = re.compile(r'id="roll-([\w-]{22})"')


async def command(socket, path: str, data: dict, number: int = 1, **headers) -> None:
    """What live.js sends for an htmx POST: its path, its urlencoded body, htmx's headers."""
    body = urlencode(data)
    headers = {"HX-Request": "true", **headers}
    message = {"command": {"id": number, "path": path, "body": body, "headers": headers}}
    await socket.send_to(text_data=json.dumps(message))


async def answer_to(socket, number: int = 1) -> dict:
    """The answer to command ``number``, past any table events pushed meanwhile."""
    for _ in range(30):
        frame = await socket.receive_from(timeout=5)
        if frame.startswith("{"):
            found = json.loads(frame)
            if found["answer"] == number:
                return found
    raise AssertionError(f"no answer to command {number}")


def roll_path(campaign) -> str:
    return reverse("rolls:roll", args=[campaign.pk])


@pytest.fixture
def ready(campaign, hero, cookies):
    """The campaign's roll form for the member's PC, made before the async test runs."""
    return roll_form(hero, trait(hero, "Stealth", 1))


async def test_a_players_roll_over_the_socket_is_answered_there_and_pushed_to_the_table(
    campaign, cookies, ready
):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), ready)
    answer = await answer_to(player)
    assert answer["status"] == 200
    assert answer["headers"]["Content-Type"].startswith("text/html")
    made = ENTRY.search(answer["body"])
    assert made and "Louie: Stealth" in answer["body"]
    assert 'name="key"' in answer["body"]  # the form's fresh key for its next tap
    # The table hears of it as of a roll over HTTP: the GM's socket gets the entry.
    assert made.group(0) in (await until(gm, made.group(0)))[-1]
    assert await Roll.objects.acount() == 1
    await gm.disconnect()
    await player.disconnect()


async def test_the_same_key_over_the_socket_and_over_http_makes_one_roll(
    campaign, cookies, ready, member, client_for
):
    """A page whose answer did not come sends the command again over HTTP with its key."""
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), ready)
    over_socket = ENTRY.search((await answer_to(player))["body"])
    client = await sync_to_async(client_for)(member)
    response = await sync_to_async(post_roll)(client, campaign, ready)
    assert response.status_code == 200
    assert ENTRY.search(response.content.decode()).group(0) == over_socket.group(0)
    await command(player, roll_path(campaign), ready, number=2)
    assert ENTRY.search((await answer_to(player, 2))["body"]).group(0) == over_socket.group(0)
    assert await Roll.objects.acount() == 1
    await player.disconnect()


async def test_commands_from_one_socket_are_run_in_the_order_they_were_sent(campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    create = reverse("rolls:countdown_create", args=[campaign.pk])
    for number in range(1, 6):
        data = {"name": f"Clock {number}", "boxes": "4", "visibility": "public"}
        await command(gm, create, data, number=number)
    for number in range(1, 6):
        assert (await answer_to(gm, number))["status"] == 200
    names = [c.name async for c in Countdown.objects.order_by("pk")]
    assert names == [f"Clock {n}" for n in range(1, 6)]
    await gm.disconnect()


async def test_a_gm_event_over_the_socket_reaches_the_players(campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    create = reverse("rolls:countdown_create", args=[campaign.pk])
    await command(gm, create, {"name": "Tide", "boxes": "4", "visibility": "public"})
    assert (await answer_to(gm))["status"] == 200
    assert "Tide" in (await until(player, "Tide"))[-1]
    await gm.disconnect()
    await player.disconnect()


async def test_a_refusal_is_answered_in_words_to_that_socket_alone(campaign, cookies):
    """A player may not make a GM's countdown: the same 403 as over HTTP, on their socket."""
    gm, player = await gm_and_player(campaign, cookies)
    create = reverse("rolls:countdown_create", args=[campaign.pk])
    await command(player, create, {"name": "Mine", "boxes": "4", "visibility": "public"})
    answer = await answer_to(player)
    assert answer["status"] == 403
    assert answer["body"] == "Only the campaign's GMs can do that."
    assert await Countdown.objects.acount() == 0
    assert await gm.receive_nothing(timeout=0.3)
    await gm.disconnect()
    await player.disconnect()


@pytest.fixture
def observer_cookie(campaign, cookies, outsider):
    MembershipFactory(campaign=campaign, user=outsider, role=Membership.Role.OBSERVER)
    return cookies["outsider"]


async def test_an_observer_watches_and_is_told_so(campaign, observer_cookie, ready):
    observer = await joined(campaign, observer_cookie)
    await command(observer, roll_path(campaign), ready)
    answer = await answer_to(observer)
    assert (answer["status"], answer["body"]) == (403, "Observers watch; they do not roll.")
    assert await Roll.objects.acount() == 0
    await observer.disconnect()


async def test_an_outsider_has_no_socket_to_send_on(campaign, cookies):
    connected, _ = await socket_for(campaign, cookies["outsider"]).connect()
    assert connected is False


async def test_only_this_tables_commands_are_taken(campaign, cookies, ready, other_campaign):
    player = await joined(campaign, cookies["member"], "player-member")
    elsewhere = [
        roll_path(other_campaign),  # another campaign's table, even one they belong to
        reverse("rolls:roll", args=[campaign.pk + 1000]),
        "/account/delete/",  # a page of the site, not of this table
        "/no/such/page/",
    ]
    for number, path in enumerate(elsewhere, start=1):
        await command(player, path, ready, number=number)
        answer = await answer_to(player, number)
        assert answer["status"] == 404, path
        assert answer["body"] == "That is not a command of this table."
    assert await Roll.objects.acount() == 0
    await player.disconnect()


@pytest.fixture
def other_campaign(member):
    from tests.factories import CampaignFactory

    other = CampaignFactory(owner=member, name="Elsewhere")
    return other


async def test_what_is_not_a_command_is_ignored(campaign, cookies):
    player = await joined(campaign, cookies["member"], "player-member")
    for junk in (
        {"command": "roll"},
        {"command": {"id": "1", "path": "/", "body": ""}},
        {"command": {"path": "/x/", "body": ""}},
        {"command": {"id": True, "path": "/x/", "body": ""}},
    ):
        await player.send_to(text_data=json.dumps(junk))
    assert await player.receive_nothing(timeout=0.3)
    await player.disconnect()


@pytest.fixture
def locked(monkeypatch):
    def wait_out(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(views, "roll_from", wait_out)


async def test_a_busy_server_answers_503_with_retry_after_and_saves_nothing(
    campaign, cookies, ready, locked
):
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), ready)
    answer = await answer_to(player)
    assert answer["status"] == 503 and answer["headers"]["Retry-After"] == "2"
    assert "too busy" in answer["body"]
    assert await Roll.objects.acount() == 0
    await player.disconnect()


async def test_a_member_removed_mid_session_can_send_no_more(campaign, cookies, member, ready):
    player = await joined(campaign, cookies["member"], "player-member")
    await sync_to_async(Membership.objects.filter(user=member).delete)()
    await command(player, roll_path(campaign), ready)
    answer = await answer_to(player)
    # The view looks the person up, as over HTTP, and says nothing of the campaign.
    assert answer["status"] == 404 and answer["body"].startswith("That is not there any more")
    assert await Roll.objects.acount() == 0
    await player.disconnect()


async def test_a_command_that_waits_too_long_for_its_turn_is_told_to_try_again(
    campaign, cookies, ready, monkeypatch
):
    """The process's turns are all taken (by HTTP requests, say) for longer than a command
    may wait: it is answered 503 with Retry-After, not queued for ever, and nothing is done."""
    turns = request_queue.Turns(1, wait=0.1)
    monkeypatch.setattr(request_queue, "_process_turns", turns)
    player = await joined(campaign, cookies["member"], "player-member")
    async with turns.taken():
        await command(player, roll_path(campaign), ready)
        answer = await answer_to(player)
    assert answer["status"] == 503 and answer["headers"]["Retry-After"] == "2"
    assert await Roll.objects.acount() == 0
    await command(player, roll_path(campaign), ready, number=2)  # its turn comes now
    assert (await answer_to(player, 2))["status"] == 200
    await player.disconnect()


async def test_a_redirect_is_followed_as_the_browser_would_follow_it(campaign, cookies):
    """Starting a session answers with the table page (a redirect over HTTP, which the
    browser's request follows, and htmx picks the session card out of)."""
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    await command(gm, reverse("rolls:session_start", args=[campaign.pk]), {})
    answer = await answer_to(gm)
    assert answer["status"] == 200
    assert 'id="table-session"' in answer["body"] and "Session 1" in answer["body"]
    await gm.disconnect()


@pytest.fixture
def csrf_cookie(owner, client_for):
    """The GM's browser: a session cookie and the CSRF cookie the table page set."""
    client = client_for(owner)
    client.get(reverse("rolls:table", args=[Membership.objects.get(user=owner).campaign_id]))
    secret = client.cookies["csrftoken"].value
    session = client.cookies["sessionid"].value
    return (b"cookie", f"sessionid={session}; csrftoken={secret}".encode()), client


async def test_a_form_in_an_answer_carries_a_token_its_page_can_post_with(campaign, csrf_cookie):
    """A form drawn by a command's answer keeps the page's CSRF secret: posted later over HTTP
    (the socket down, no JavaScript's fallback) it is not refused."""
    cookie, client = csrf_cookie
    gm = await joined(campaign, cookie, "gm-owner")
    create = reverse("rolls:countdown_create", args=[campaign.pk])
    await command(gm, create, {"name": "Tide", "boxes": "4", "visibility": "public"})
    body = (await answer_to(gm))["body"]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body).group(1)
    countdown = await Countdown.objects.aget(name="Tide")
    mark = reverse("rolls:countdown_mark", args=[campaign.pk, countdown.pk])
    client.handler.enforce_csrf_checks = True
    response = await sync_to_async(client.post)(mark, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302  # back to the table, not 403
    await countdown.arefresh_from_db()
    assert countdown.marked == 1
    await gm.disconnect()


async def test_a_path_with_a_query_and_a_body_of_too_many_fields(campaign, cookies, ready):
    """The path may carry a query, as a form's action may; a body past Django's limit on
    fields is a 400, as over HTTP, and the socket stays open for the next command."""
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign) + "?from=quick", ready)
    assert (await answer_to(player))["status"] == 200
    crowded = {f"field{n}": "x" for n in range(1_100)}
    await command(player, roll_path(campaign), crowded, number=2)
    assert (await answer_to(player, 2))["status"] == 400
    await command(player, roll_path(campaign), {**ready, "key": "another-key-1"}, number=3)
    assert (await answer_to(player, 3))["status"] == 200
    assert await Roll.objects.acount() == 2
    await player.disconnect()


async def test_after_logging_out_elsewhere_the_socket_takes_no_more_commands(
    campaign, cookies, ready
):
    """Logged out in another tab: an HTTP request would be refused, and so is the command;
    the socket closes."""
    player = await joined(campaign, cookies["member"], "player-member")
    session_key = cookies["member"][1].decode().split("=", 1)[1]
    await sync_to_async(SessionStore(session_key=session_key).delete)()
    await command(player, roll_path(campaign), ready)
    answer = await answer_to(player)
    assert (answer["status"], answer["body"]) == (403, socket_commands.LOGGED_OUT)
    assert (await player.receive_output(timeout=5))["type"] == "websocket.close"
    assert await Roll.objects.acount() == 0
    await player.disconnect()  # the browser's side of the close: the socket leaves the beat


@pytest.mark.parametrize(
    "change", [{"password": make_password("a-longer-Passphrase-9")}, {"is_active": False}]
)
async def test_a_sign_in_changed_unannounced_refuses_the_next_command(
    campaign, cookies, ready, member, change
):
    """A password or an account changed where no signal is sent (a bulk update, another
    process's script): the open socket is not told, but its next command finds the person
    as HTTP would, and is refused; the socket closes."""
    player = await joined(campaign, cookies["member"], "player-member")
    await type(member).objects.filter(pk=member.pk).aupdate(**change)
    await command(player, roll_path(campaign), ready)
    answer = await answer_to(player)
    assert (answer["status"], answer["body"]) == (403, socket_commands.LOGGED_OUT)
    assert (await player.receive_output(timeout=5))["type"] == "websocket.close"
    assert await Roll.objects.acount() == 0
    await player.disconnect()


async def test_the_owner_member_and_outsider_still_logged_in_are_served_as_over_http(
    campaign, cookies, ready
):
    """The check made before every command lets a person still logged in through: the GM and
    the player are answered; an outsider's socket never opens."""
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), ready)
    assert (await answer_to(player))["status"] == 200
    await command(gm, roll_path(campaign), {**ready, "key": "gm-key-1"})
    assert (await answer_to(gm))["status"] == 200
    outsider = socket_for(campaign, cookies["outsider"])
    connected, _ = await outsider.connect()
    assert not connected
    await gm.disconnect()
    await player.disconnect()


@pytest.fixture
def tide(campaign):
    return Countdown.objects.create(campaign=campaign, name="Tide", boxes=1, visibility="public")


async def test_a_gm_command_whose_push_redraws_the_card_is_answered_with_nothing_to_swap(
    campaign, cookies, tide, hero
):
    """The GM's mark and the spotlight's move push the GMs' card to the GM's own socket too,
    right after the answer: the answer is a 204, not the same card drawn twice. The player's
    screen gets its push as before; a refused mark is still answered with the card and its
    refusal, as nothing was pushed; a player's mark is refused in words."""
    gm, player = await gm_and_player(campaign, cookies)
    mark = reverse("rolls:countdown_mark", args=[campaign.pk, tide.pk])
    await command(gm, mark, {})
    answer = await answer_to(gm)
    assert (answer["status"], answer["body"]) == (204, "")
    assert "Tide: 1 of 1 box marked" in (await until(gm, 'id="countdown-list"'))[-1]
    assert "Tide: 1 of 1 box marked" in (await until(player, 'id="countdown-list"'))[-1]

    await command(gm, mark, {}, number=2)
    refused = await answer_to(gm, 2)
    assert refused["status"] == 200
    assert "Every box of Tide is already marked." in refused["body"]
    assert 'id="countdown-list"' in refused["body"]

    await command(player, mark, {}, number=3)
    assert (await answer_to(player, 3))["status"] == 403

    move = reverse("rolls:spotlight_move", args=[campaign.pk])
    await command(gm, move, {"character": hero.pk}, number=4)
    assert (await answer_to(gm, 4))["status"] == 204
    assert "The spotlight is on <strong>Louie</strong>" in (await until(gm, "Louie"))[-1]
    await gm.disconnect()
    await player.disconnect()


def test_over_http_the_gm_command_is_answered_with_the_card(
    client_for, owner, member, outsider, campaign, tide
):
    """Without the socket (it dropped, or the page posts over HTTP) no push reaches the page
    first: the answer draws the card, as it always did."""
    mark = reverse("rolls:countdown_mark", args=[campaign.pk, tide.pk])
    response = client_for(owner).post(mark, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert "Tide: 1 of 1 box marked" in response.content.decode()
    for person, status in ((member, 403), (outsider, 404)):
        assert client_for(person).post(mark, headers={"HX-Request": "true"}).status_code == status
