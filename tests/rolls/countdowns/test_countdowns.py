"""Countdowns at the table (Fudge Lite): the GM makes, marks, unmarks, shows and removes them;
players see them as their visibility allows; a skill challenge's linked failure countdown
decides it; every socket gets what its person may see, and a GM-only countdown never reaches a
player's socket."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from fudgetable.rules.errors import RulesError
from rolls.countdowns.services import countdown_create, countdown_delete, countdown_mark
from rolls.entry_words import line_words
from rolls.models import Countdown, Roll
from tests.factories import CampaignFactory
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db

COMMANDS = ("countdown_mark", "countdown_unmark", "countdown_visibility", "countdown_delete")


def url(name: str, campaign, *args) -> str:
    return reverse(f"rolls:{name}", args=[campaign.pk, *args])


def make(campaign, name="The bridge collapses", boxes=4, **extra) -> Countdown:
    return countdown_create(campaign=campaign, name=name, boxes=boxes, **extra)


def create_data(**extra) -> dict:
    return {"name": "Kobolds reach the village", "boxes": "4", "visibility": "public", **extra}


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def countdown_item(html: str, countdown: Countdown) -> str:
    found = re.search(rf'<li id="countdown-{countdown.pk}">(.*?)</li>', html, re.DOTALL)
    assert found, f"countdown {countdown.pk} is not on the page"
    return found[1]


# --- who may do what -------------------------------------------------------------------------


def test_the_owner_makes_a_countdown_a_member_gets_403_an_outsider_404(
    client_for, owner, member, outsider, campaign
):
    assert (
        client_for(member).post(url("countdown_create", campaign), create_data()).status_code == 403
    )
    assert (
        client_for(outsider).post(url("countdown_create", campaign), create_data()).status_code
        == 404
    )
    assert not Countdown.objects.exists()
    response = client_for(owner).post(url("countdown_create", campaign), create_data())
    assert response.status_code == 302
    made = Countdown.objects.get()
    assert (made.name, made.boxes, made.marked, made.failure) == (
        "Kobolds reach the village",
        4,
        0,
        None,
    )


@pytest.mark.parametrize("command", COMMANDS)
def test_only_a_gm_changes_a_countdown(client_for, owner, member, outsider, campaign, command):
    countdown = make(campaign)
    countdown_mark(countdown=countdown)
    data = {"visibility": "hidden"}
    assert client_for(member).post(url(command, campaign, countdown.pk), data).status_code == 403
    assert client_for(outsider).post(url(command, campaign, countdown.pk), data).status_code == 404
    countdown.refresh_from_db()
    assert (countdown.marked, countdown.visibility) == (1, "public")
    assert client_for(owner).post(url(command, campaign, countdown.pk), data).status_code == 302
    after = Countdown.objects.filter(pk=countdown.pk).first()
    expected = {
        "countdown_mark": lambda c: c.marked == 2,
        "countdown_unmark": lambda c: c.marked == 0,
        "countdown_visibility": lambda c: c.visibility == "hidden",
        "countdown_delete": lambda c: c is None,
    }
    assert expected[command](after)


def test_commands_need_post(client_for, owner, campaign):
    countdown = make(campaign)
    assert client_for(owner).get(url("countdown_mark", campaign, countdown.pk)).status_code == 405


def test_everyone_reads_countdowns_on_the_table_page_as_their_visibility_allows(
    client_for, owner, member, outsider, campaign
):
    public = make(campaign, "Storm over the pass", 3, outcome="The pass closes")
    hidden = make(campaign, "Cult ritual", 5, visibility="hidden")
    secret = make(campaign, "Ambush at the mill", 2, visibility="gm")
    for countdown in (public, hidden, secret):
        countdown_mark(countdown=countdown)
    gm_page = table(client_for(owner), campaign)
    for countdown in (public, hidden, secret):
        assert "box-marked" in countdown_item(gm_page, countdown)
    assert "New countdown" in gm_page
    player_page = table(client_for(member), campaign)
    assert "The pass closes" in countdown_item(player_page, public)
    assert "box-marked" in countdown_item(player_page, public)
    hidden_item = countdown_item(player_page, hidden)
    assert "Progress hidden" in hidden_item
    assert "box-" not in hidden_item and "of 5" not in hidden_item
    assert "Ambush at the mill" not in player_page
    assert "New countdown" not in player_page and "Mark a box" not in player_page
    assert client_for(outsider).get(reverse("rolls:table", args=[campaign.pk])).status_code == 404


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"boxes": "0"}, "Ensure this value is greater than or equal to 1."),
        ({"boxes": "101"}, "Ensure this value is less than or equal to 100."),
        ({"boxes": "-3"}, "greater than or equal to 1"),
        ({"boxes": "many"}, "Enter a whole number."),
        ({"name": "x" * 121}, "at most 120 characters"),
        ({"name": "   "}, "This field is required."),
        ({"outcome": "y" * 301}, "at most 300 characters"),
        ({"visibility": "players-only"}, "Select a valid choice."),
        ({"failure_boxes": "0"}, "greater than or equal to 1"),
        ({"failure_boxes": "101"}, "less than or equal to 100"),
    ],
)
def test_bad_countdowns_are_refused_with_a_message_and_nothing_saved(
    client_for, owner, campaign, data, message
):
    client = client_for(owner)
    plain = client.post(url("countdown_create", campaign), create_data(**data), follow=True)
    assert plain.status_code == 200
    assert message in plain.content.decode()
    htmx = client.post(
        url("countdown_create", campaign), create_data(**data), headers={"HX-Request": "true"}
    )
    assert htmx.status_code == 200
    body = htmx.content.decode()
    assert message in body and 'id="countdowns"' in body
    assert not Countdown.objects.exists()


def test_the_service_refuses_what_the_form_would_and_saves_neither_half(campaign):
    from django.core.exceptions import ValidationError

    for bad in ({"boxes": 0}, {"boxes": 101}, {"name": "n" * 121}, {"visibility": "nobody"}):
        with pytest.raises(ValidationError):
            make(campaign, **{"name": "Fine", "boxes": 3, **bad})
    with pytest.raises(ValidationError):
        make(campaign, failure_boxes=101)
    assert not Countdown.objects.exists()


def test_a_countdown_of_another_campaign_is_not_found(client_for, owner, campaign):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    theirs = make(elsewhere, "Their clock")
    for command in COMMANDS:
        response = client_for(owner).post(url(command, campaign, theirs.pk), {"visibility": "gm"})
        assert response.status_code == 404
    theirs.refresh_from_db()
    assert (theirs.marked, theirs.visibility) == (0, "public")


def test_marking_past_the_last_box_and_unmarking_below_none_are_refused(
    client_for, owner, campaign
):
    countdown = make(campaign, "Tide comes in", 2, outcome="The cave floods")
    client = client_for(owner)
    hx = {"HX-Request": "true"}
    assert (
        "already marked"
        not in client.post(
            url("countdown_mark", campaign, countdown.pk), headers=hx
        ).content.decode()
    )
    client.post(url("countdown_mark", campaign, countdown.pk), headers=hx)
    countdown.refresh_from_db()
    assert countdown.marked == 2 and countdown.completed_at is not None
    refused = client.post(url("countdown_mark", campaign, countdown.pk), headers=hx)
    assert refused.status_code == 200
    assert "Every box of Tide comes in is already marked." in refused.content.decode()
    countdown.refresh_from_db()
    assert countdown.marked == 2
    for _ in range(2):
        client.post(url("countdown_unmark", campaign, countdown.pk), headers=hx)
    countdown.refresh_from_db()
    assert countdown.marked == 0 and countdown.completed_at is None
    plain = client.post(url("countdown_unmark", campaign, countdown.pk), follow=True)
    assert "No box of Tide comes in is marked." in plain.content.decode()


def test_a_countdown_another_gm_just_removed_is_refused_in_words(campaign):
    """Two GMs at once: one removes the countdown while the other's mark is on its way."""
    countdown, pair = make(campaign), make(campaign, "Escape", 3, failure_boxes=2)
    stale = [Countdown.objects.get(pk=countdown.pk), Countdown.objects.get(pk=pair.pk)]
    countdown_delete(countdown=countdown)
    countdown_delete(countdown=pair)
    for row in stale:
        with pytest.raises(RulesError, match="removed in the meantime"):
            countdown_mark(countdown=row)
    assert not Countdown.objects.exists()


def test_a_bad_visibility_change_is_refused(client_for, owner, campaign):
    countdown = make(campaign)
    response = client_for(owner).post(
        url("countdown_visibility", campaign, countdown.pk), {"visibility": "all"}, follow=True
    )
    assert "Pick who sees the countdown." in response.content.decode()
    countdown.refresh_from_db()
    assert countdown.visibility == "public"


# --- skill challenges ------------------------------------------------------------------------


def test_a_linked_failure_countdown_decides_the_skill_challenge(client_for, owner, campaign):
    client = client_for(owner)
    client.post(
        url("countdown_create", campaign),
        create_data(
            name="Talk the duke round",
            boxes="3",
            outcome="The duke sends troops",
            failure_boxes="2",
            failure_outcome="The duke throws you out",
        ),
    )
    success = Countdown.objects.get(name="Talk the duke round")
    failure = success.failure
    assert failure.name == "Talk the duke round: failures" and failure.boxes == 2
    client.post(url("countdown_mark", campaign, success.pk))
    client.post(url("countdown_mark", campaign, failure.pk))
    page = client.post(url("countdown_mark", campaign, failure.pk), follow=True).content.decode()
    failure.refresh_from_db()
    assert failure.completed_at is not None
    assert "failed" in page
    # Decided: neither side takes another mark.
    for side in (success, failure):
        refused = client.post(url("countdown_mark", campaign, side.pk), follow=True)
        assert "Talk the duke round is already decided." in refused.content.decode()
    success.refresh_from_db()
    failure.refresh_from_db()
    assert (success.marked, failure.marked) == (1, 2)
    # Taking back the deciding failure reopens it; three successes then win it.
    client.post(url("countdown_unmark", campaign, failure.pk))
    for _ in range(2):
        client.post(url("countdown_mark", campaign, success.pk))
    success.refresh_from_db()
    failure.refresh_from_db()
    assert success.completed_at is not None and failure.completed_at is None
    assert (success.marked, failure.marked) == (3, 1)


def test_a_skill_challenge_is_shown_hidden_and_removed_as_one(client_for, owner, member, campaign):
    success = make(campaign, "Escape the maze", 3, failure_boxes=3)
    client_for(owner).post(
        url("countdown_visibility", campaign, success.failure_id), {"visibility": "gm"}
    )
    assert set(Countdown.objects.values_list("visibility", flat=True)) == {"gm"}
    assert "Escape the maze" not in table(client_for(member), campaign)
    client_for(owner).post(url("countdown_delete", campaign, success.failure_id))
    assert not Countdown.objects.exists()


# --- the table's sockets ---------------------------------------------------------------------


async def gm_post(client, name: str, campaign, *args, data=None):
    return await sync_to_async(client.post)(
        url(name, campaign, *args), data or {}, headers={"HX-Request": "true"}
    )


@pytest.mark.django_db(transaction=True)
async def test_members_receive_countdown_events_and_outsiders_are_refused(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    await gm_post(gm_client, "countdown_create", campaign, data=create_data(boxes="2"))
    countdown = await Countdown.objects.aget()
    for socket in (gm, player):
        frame = (await until(socket, 'id="countdown-list"'))[-1]
        assert "Kobolds reach the village" in frame and 'hx-swap-oob="true"' in frame
    await gm_post(gm_client, "countdown_mark", campaign, countdown.pk)
    await gm_post(gm_client, "countdown_mark", campaign, countdown.pk)
    for socket in (gm, player):
        # The list with both boxes marked, then the completion as a stored log entry.
        frames = await until(socket, "Kobolds reach the village is complete.")
        assert 'id="roll-log" hx-swap-oob="beforeend"' in frames[-1]
        assert any(frame.count("box-marked") == 2 for frame in frames)
    await gm_post(gm_client, "countdown_delete", campaign, countdown.pk)
    for socket in (gm, player):
        frame = (await until(socket, 'id="countdown-list"'))[-1]
        assert "No countdown is running." in frame
    await gm.disconnect()
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_gm_only_countdown_never_reaches_a_players_socket(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    name = "Quillfeather Conspiracy"
    await gm_post(
        gm_client,
        "countdown_create",
        campaign,
        data=create_data(name=name, boxes="1", outcome="Zorblax rises", visibility="gm"),
    )
    secret = await Countdown.objects.aget(name=name)
    await gm_post(gm_client, "countdown_mark", campaign, secret.pk)  # completes: announced
    await gm_post(gm_client, "countdown_unmark", campaign, secret.pk)
    await gm_post(gm_client, "countdown_create", campaign, data=create_data(name="Marker"))
    seen = await until(player, "Marker")
    gm_seen = "".join(await until(gm, "Marker"))
    assert name in gm_seen and "Zorblax rises" in gm_seen
    again = socket_for(campaign, cookies["member"])
    assert (await again.connect())[0]
    seen += await until(again, 'id="countdown-list"')
    everything = "".join(seen)
    assert name not in everything and "Zorblax" not in everything
    assert f'id="countdown-{secret.pk}"' not in everything
    # Turning it public shows it to the players; turning it back takes it away again.
    await gm_post(
        gm_client, "countdown_visibility", campaign, secret.pk, data={"visibility": "public"}
    )
    assert name in (await until(player, name))[-1]
    await gm_post(gm_client, "countdown_visibility", campaign, secret.pk, data={"visibility": "gm"})
    frame = (await until(player, 'id="countdown-list"'))[-1]
    assert name not in frame
    for socket in (gm, player, again):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_hidden_countdowns_boxes_never_reach_a_players_socket(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await gm_post(gm_client, "countdown_create", campaign, data=create_data(name="Open clock"))
    await gm_post(
        gm_client,
        "countdown_create",
        campaign,
        data=create_data(
            name="Veiled Hourglass", boxes="3", visibility="hidden", failure_boxes="2"
        ),
    )
    hidden = await Countdown.objects.aget(name="Veiled Hourglass")
    await gm_post(gm_client, "countdown_mark", campaign, hidden.pk)
    await gm_post(gm_client, "countdown_mark", campaign, hidden.failure_id)
    await gm_post(gm_client, "countdown_create", campaign, data=create_data(name="Marker"))
    seen = await until(player, "Marker")
    again = socket_for(campaign, cookies["member"])
    assert (await again.connect())[0]
    seen += await until(again, 'id="countdown-list"')
    open_clock = await Countdown.objects.aget(name="Open clock")
    lists = [frame for frame in seen if "Veiled Hourglass" in frame]
    # Made, the marker, the reconnect: a mark on a hidden countdown sends players no frame.
    assert len(lists) == 3
    for frame in lists:
        item = countdown_item(frame, hidden)
        assert "Progress hidden" in item
        assert "box-marked" not in item and "box-clear" not in item
        assert "of 3 boxes" not in item and "of 2 boxes" not in item
        assert "box-clear" in countdown_item(frame, open_clock)  # boxes do reach players
    gm_frame = (await until(gm, "Marker"))[-1]
    assert countdown_item(gm_frame, hidden).count("box-marked") == 2
    for socket in (gm, player, again):
        await socket.disconnect()


def test_a_completed_countdown_stays_in_the_log_and_a_gm_only_one_stays_with_the_gms(
    client_for, owner, member, campaign
):
    public = make(campaign, name="Storm breaks", boxes=1)
    secret = make(campaign, name="Quillfeather plot ripens", boxes=1, visibility="gm")
    for countdown in (public, secret):
        client_for(owner).post(url("countdown_mark", campaign, countdown.pk))
    gm_log = client_for(owner).get(reverse("rolls:log", args=[campaign.pk])).content.decode()
    player_log = client_for(member).get(reverse("rolls:log", args=[campaign.pk])).content.decode()
    assert "Storm breaks is complete." in gm_log and "Storm breaks is complete." in player_log
    assert "Quillfeather" in gm_log and "Quillfeather" not in player_log


# --- stages: events at chosen boxes (Fudge Lite 3.1.0 :640, :660-664) ------------------------

HOUSE = {
    "name": "The house burns",
    "boxes": "5",
    "outcome": "House collapses, incapacitating anybody still inside",
    "stages": "2: Stairwell collapses, limiting access to the second floor\n\n"
    "4: Building creaks ominously. Players are informed it's about to collapse.",
    "visibility": "public",
}


def told() -> list[str]:
    rows = Roll.objects.filter(kind=Roll.Kind.ANNOUNCEMENT).order_by("pk")
    return [line for roll in rows for line in map(line_words, roll.snapshot["lines"])]


def test_the_collapsing_house_tells_each_event_once_as_its_box_is_reached(
    client_for, owner, member, campaign
):
    # :660-664 "[_] [_] Stairwell collapses ... [_] [_] Building creaks ominously ...
    # [_] House collapses"; :640 "Once all the boxes are checked off, the thing happens."
    gm = client_for(owner)
    assert gm.post(url("countdown_create", campaign), HOUSE).status_code == 302
    house = Countdown.objects.get()
    assert house.stages == [
        {"at": 2, "event": "Stairwell collapses, limiting access to the second floor"},
        {
            "at": 4,
            "event": "Building creaks ominously. Players are informed it's about to collapse.",
        },
    ]
    mark = url("countdown_mark", campaign, house.pk)
    gm.post(mark)
    assert told() == []
    gm.post(mark)
    assert told() == ["The house burns: Stairwell collapses, limiting access to the second floor"]
    # A GM's correction and the box marked again: the stairwell fell once.
    gm.post(url("countdown_unmark", campaign, house.pk))
    gm.post(mark)
    assert len(told()) == 1
    page = table(client_for(member), campaign)
    assert "Box 2: Stairwell collapses, limiting access to the second floor <span" in page
    assert '<span class="badge">happened</span>' in page
    assert "Box 4: Building creaks" in page
    # Three boxes at once: the creak and the collapse, in order, in the log.
    response = gm.post(mark, {"count": "3"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    house.refresh_from_db()
    assert house.marked == 5 and house.completed_at is not None and house.announced == 2
    assert told()[1:] == [
        "The house burns: Building creaks ominously. Players are informed it's about to collapse.",
        "The house burns is complete. House collapses, incapacitating anybody still inside",
    ]
    assert "The house burns: Building creaks" in table(client_for(member), campaign)


def test_an_event_written_at_the_last_box_is_the_outcome(client_for, owner, campaign):
    data = {**HOUSE, "outcome": "", "stages": "5: House collapses\n2: Stairwell collapses"}
    client_for(owner).post(url("countdown_create", campaign), data)
    house = Countdown.objects.get()
    assert house.outcome == "House collapses"
    assert house.stages == [{"at": 2, "event": "Stairwell collapses"}]


@pytest.mark.parametrize(
    ("stages", "message"),
    [
        ("Stairwell collapses", "Write each event as its box and what happens"),
        ("2:", "Write each event as its box and what happens"),
        ("0: Too soon", "An event sits at a box from 1 to 4: the last box, 5, is the outcome"),
        ("5: The end", "An event sits at a box from 1 to 4: the last box, 5, is the outcome"),
        ("9: Past it", "An event sits at a box from 1 to 4"),
        ("2: One\n2: Two", "One event a box"),
        ("2: " + "x" * 301, "Each event says what happens in 1 to 300 characters."),
        ("\n".join(f"1{n}: e" for n in range(3)), "An event sits at a box from 1 to 4"),
    ],
)
def test_bad_events_are_refused_with_a_message_and_nothing_saved(
    client_for, owner, campaign, stages, message
):
    client = client_for(owner)
    data = {**HOUSE, "stages": stages}
    plain = client.post(url("countdown_create", campaign), data, follow=True)
    assert message in plain.content.decode()
    htmx = client.post(url("countdown_create", campaign), data, headers={"HX-Request": "true"})
    assert message in htmx.content.decode() and 'id="countdowns"' in htmx.content.decode()
    assert not Countdown.objects.exists() and not Roll.objects.exists()


def test_too_many_events_are_refused(campaign):
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        make(campaign, boxes=30, stages=[(n, "e") for n in range(1, 23)])
    assert not Countdown.objects.exists()


@pytest.mark.parametrize(
    ("count", "message"),
    [("0", "greater than or equal to 1"), ("101", "less than or equal to 100"), ("x", "whole")],
)
def test_a_bad_count_of_boxes_is_refused(client_for, owner, campaign, count, message):
    countdown = make(campaign)
    response = client_for(owner).post(
        url("countdown_mark", campaign, countdown.pk), {"count": count}, follow=True
    )
    assert message in response.content.decode()
    countdown.refresh_from_db()
    assert countdown.marked == 0


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("observer", 403), ("outsider", 404)])
def test_only_a_gm_marks_several_boxes(client_for, campaign, who, status, request):
    countdown = make(campaign)
    response = client_for(request.getfixturevalue(who)).post(
        url("countdown_mark", campaign, countdown.pk), {"count": "3"}
    )
    assert response.status_code == status
    countdown.refresh_from_db()
    assert countdown.marked == 0


def test_several_checks_at_once_stop_where_a_skill_challenge_is_decided(
    client_for, owner, campaign
):
    success = make(campaign, "Get the funding", 3, outcome="Funded", failure_boxes=2)
    failure = success.failure
    client_for(owner).post(url("countdown_mark", campaign, failure.pk), {"count": "5"})
    success.refresh_from_db()
    failure.refresh_from_db()
    assert (success.marked, failure.marked) == (0, 2) and failure.completed_at is not None
    assert told() == ["Get the funding failed."]


def test_a_hidden_countdown_s_events_reach_only_those_who_see_its_name(
    client_for, owner, member, campaign
):
    secret = make(campaign, "Cult ritual", 3, stages=[(1, "Candles lit")], visibility="gm")
    hidden = make(campaign, "The tide", 3, stages=[(1, "Water at the door")], visibility="hidden")
    for countdown in (secret, hidden):
        countdown_mark(countdown=countdown)
    player_page = table(client_for(member), campaign)
    assert "Candles lit" not in player_page and "Cult ritual" not in player_page
    assert "The tide: Water at the door" in player_page  # the event itself happens in the open
    assert "Box 1: Water at the door" not in player_page  # its plan stays hidden
    assert "Cult ritual: Candles lit" in table(client_for(owner), campaign)


def test_a_backup_keeps_a_countdown_s_events_and_what_was_told(owner, campaign):
    from rolls.backup.restore import campaign_restore
    from rolls.backup.write import campaign_to_json

    house = make(campaign, "The house burns", 5, stages=[(2, "Stairwell"), (4, "Creaks")])
    countdown_mark(countdown=house, count=2)
    backup = campaign_to_json(campaign)
    restored = campaign_restore(owner=owner, data=backup).campaign
    again = Countdown.objects.get(campaign=restored)
    assert again.stages == [{"at": 2, "event": "Stairwell"}, {"at": 4, "event": "Creaks"}]
    assert (again.marked, again.announced) == (2, 1)
    bad = {**backup, "countdowns": [{**backup["countdowns"][0], "stages": [{"at": 5}]}]}
    with pytest.raises(Exception) as info:
        campaign_restore(owner=owner, data=bad)
    problems = " ".join(info.value.messages)
    assert "countdowns[0].stages[0].at: must be between 1 and 4" in problems
    assert "countdowns[0].stages[0].event: is missing" in problems


@pytest.mark.django_db(transaction=True)
async def test_an_event_reached_is_pushed_to_every_socket(campaign, cookies, client_for, owner):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await gm_post(gm_client, "countdown_create", campaign, data=HOUSE)
    house = await Countdown.objects.aget()
    await gm_post(gm_client, "countdown_mark", campaign, house.pk, data={"count": "2"})
    for socket in (gm, player):
        frames = await until(socket, "The house burns: Stairwell collapses")
        assert 'id="roll-log" hx-swap-oob="beforeend"' in frames[-1]
        assert any(frame.count("box-marked") == 2 for frame in frames)
    await gm.disconnect()
    await player.disconnect()
