"""Challenge ladders at the table (Fate, Fudge edition, ch. 3): the GM makes one from a preset
or a shape of their own, applies checks by margin, corrects and recovers it; a roll against a
challenge marks it directly; the chess match of 3.2.2 ends in checkmate; a GM-only challenge
never reaches a player's socket."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.core.exceptions import ValidationError
from django.urls import reverse

from characters.services import character_create
from fudgetable.entry_ids import encode
from fudgetable.rules import challenges as ladder_rules
from fudgetable.rules.errors import RulesError
from rolls.challenges.selectors import rules_challenge
from rolls.challenges.services import challenge_check, challenge_create, challenge_time_passes
from rolls.models import Challenge, Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import roll_form, trait
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
COMMANDS = {
    "challenge_check": {"margin": "1"},
    "challenge_unmark": {"rung": "0"},
    "challenge_recover": {"periods": "1"},
    "challenge_visibility": {"visibility": "gm"},
    "challenge_delete": {},
}


def url(name: str, campaign, *args) -> str:
    return reverse(f"rolls:{name}", args=[campaign.pk, *args])


def marks(challenge: Challenge) -> list[int]:
    challenge.refresh_from_db()
    return challenge.state["marks"]


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def challenge_item(html: str, challenge: Challenge) -> str:
    found = re.search(rf'<li id="challenge-{challenge.pk}">(.*?)</ol>', html, re.DOTALL)
    assert found, f"challenge {challenge.pk} is not there"
    return found[1]


@pytest.fixture
def hero(campaign, member):
    pc = character_create(campaign=campaign, owner=member, name="Louie")
    trait(pc, "Chess", level=1)
    return pc


# --- who may do what -------------------------------------------------------------------------


def test_the_owner_makes_a_challenge_a_member_gets_403_an_outsider_404(
    client_for, owner, member, outsider, campaign
):
    data = {"preset": "static", "visibility": "public"}
    assert client_for(member).post(url("challenge_create", campaign), data).status_code == 403
    assert client_for(outsider).post(url("challenge_create", campaign), data).status_code == 404
    assert not Challenge.objects.exists()
    assert client_for(owner).post(url("challenge_create", campaign), data).status_code == 302
    made = Challenge.objects.get()
    assert made.name == "Static challenge" and made.state == {
        "marks": [0, 0, 0, 0, 0],
        "destroyed": False,
        "checks": 0,
        "pursued": False,
    }


@pytest.mark.parametrize("command", COMMANDS)
def test_only_a_gm_changes_a_challenge(client_for, owner, member, outsider, campaign, command):
    challenge = challenge_create(campaign=campaign, preset="word-on-the-street")
    challenge_check(challenge=challenge, margin=0)
    challenge_time_passes(campaign=campaign, period="day")  # the span allows the next check
    before = (marks(challenge), challenge.visibility)
    data = COMMANDS[command]
    assert client_for(member).post(url(command, campaign, challenge.pk), data).status_code == 403
    assert client_for(outsider).post(url(command, campaign, challenge.pk), data).status_code == 404
    assert (marks(challenge), challenge.visibility) == before
    assert client_for(owner).post(url(command, campaign, challenge.pk), data).status_code == 302
    after = Challenge.objects.filter(pk=challenge.pk).first()
    expected = {
        "challenge_check": lambda c: c.state["marks"] == [1, 1, 0, 0, 0],
        "challenge_unmark": lambda c: c.state["marks"] == [0, 0, 0, 0, 0],
        "challenge_recover": lambda c: c.state["marks"] == [0, 0, 0, 0, 0],
        "challenge_visibility": lambda c: c.visibility == "gm",
        "challenge_delete": lambda c: c is None,
    }
    assert expected[command](after)


def test_everyone_reads_challenges_on_the_table_page_as_their_visibility_allows(
    client_for, owner, member, outsider, campaign
):
    public = challenge_create(campaign=campaign, preset="chess-match")
    challenge_create(campaign=campaign, preset="static", name="Forge the deed", visibility="gm")
    challenge_check(challenge=public, margin=2)
    gm_page = table(client_for(owner), campaign)
    assert "Forge the deed" in gm_page and "New challenge" in gm_page
    assert "Apply the check" in gm_page
    player_page = table(client_for(member), campaign)
    assert "Rooks (-1 for rest of match)" in player_page
    assert challenge_item(player_page, public).count("box-marked") == 1
    assert "Forge the deed" not in player_page
    assert "New challenge" not in player_page and "Apply the check" not in player_page
    assert client_for(outsider).get(reverse("rolls:table", args=[campaign.pk])).status_code == 404


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"rungs": "1 2 Starts too high"}, "Rungs start at MoS 0 and climb."),
        ({"rungs": "0 2\n2 1\n1 1"}, "Rungs start at MoS 0 and climb."),
        ({"rungs": "0 0 No boxes"}, "A rung has from 1 to 20 boxes."),
        ({"rungs": "0 21"}, "A rung has from 1 to 20 boxes."),
        ({"rungs": "zero two"}, "Write each rung as its least MoS"),
        ({"rungs": "0 -1"}, "Write each rung as its least MoS"),
        ({"rungs": "\n".join(f"{n} 1" for n in range(11))}, "A challenge has from 1 to 10 rungs."),
        ({"rungs": ""}, "A challenge has from 1 to 10 rungs."),
        ({"name": "n" * 121}, "at most 120 characters"),
        ({"name": ""}, "A challenge of your own shape needs a name."),
        ({"preset": "tic-tac-toe"}, "Select a valid choice."),
        ({"fragility": "crumbly"}, "Select a valid choice."),
        ({"visibility": "everyone"}, "Select a valid choice."),
        ({"notes": "z" * 2001}, "at most 2000 characters"),
    ],
)
def test_bad_challenges_are_refused_with_a_message_and_nothing_saved(
    client_for, owner, campaign, data, message
):
    form = {"preset": "", "name": "Pick the lock", "rungs": "0 2\n1 1", "visibility": "public"}
    client = client_for(owner)
    plain = client.post(url("challenge_create", campaign), {**form, **data}, follow=True)
    assert message in plain.content.decode()
    htmx = client.post(url("challenge_create", campaign), {**form, **data}, headers=HX)
    assert htmx.status_code == 200
    assert message in htmx.content.decode() and 'id="challenges"' in htmx.content.decode()
    assert not Challenge.objects.exists()


def test_a_shape_of_ones_own_keeps_its_rungs_and_fragility(client_for, owner, campaign):
    data = {
        "name": "Pick the lock",
        "rungs": "0 2 Tumblers\n1 1\n3 1 Open",
        "fragility": "highest",
        "visibility": "public",
    }
    client_for(owner).post(url("challenge_create", campaign), data)
    challenge = Challenge.objects.get()
    ladder, _ = rules_challenge(challenge)
    assert [(r.mos, r.boxes, r.note) for r in ladder.rungs] == [
        (0, 2, "Tumblers"),
        (1, 1, ""),
        (3, 1, "Open"),
    ]
    assert ladder.fragility is ladder_rules.Fragility.HIGHEST
    # Fragility: a failure takes the highest success off.
    for margin in (0, 1, -1):
        client_for(owner).post(url("challenge_check", campaign, challenge.pk), {"margin": margin})
    assert marks(challenge) == [1, 0, 0]


@pytest.mark.parametrize(
    ("command", "data", "message"),
    [
        ("challenge_check", {"margin": "21"}, "less than or equal to 20"),
        ("challenge_check", {"margin": "big"}, "Enter a whole number."),
        ("challenge_unmark", {"rung": "3"}, "No marked box on that rung."),
        ("challenge_unmark", {"rung": "-1"}, "greater than or equal to 0"),
        ("challenge_unmark", {"rung": "12"}, "less than or equal to 9"),
        ("challenge_recover", {"periods": "0"}, "greater than or equal to 1"),
        ("challenge_recover", {"periods": "101"}, "less than or equal to 100"),
        ("challenge_visibility", {"visibility": "hidden"}, "Select a valid choice."),
    ],
)
def test_bad_commands_are_refused_with_a_message_and_change_nothing(
    client_for, owner, campaign, command, data, message
):
    challenge = challenge_create(campaign=campaign, preset="word-on-the-street")
    challenge_check(challenge=challenge, margin=2)
    client = client_for(owner)
    plain = client.post(url(command, campaign, challenge.pk), data, follow=True)
    assert message in plain.content.decode()
    htmx = client.post(url(command, campaign, challenge.pk), data, headers=HX)
    assert message in htmx.content.decode() and 'id="challenge-list"' in htmx.content.decode()
    assert marks(challenge) == [0, 0, 1, 0, 0] and challenge.visibility == "public"


def test_a_ladder_without_recovery_refuses_to_recover(client_for, owner, campaign):
    challenge = challenge_create(campaign=campaign, preset="chess-match")
    response = client_for(owner).post(
        url("challenge_recover", campaign, challenge.pk), {"periods": "2"}, follow=True
    )
    assert "The Chess Match loses no boxes over time." in response.content.decode()


def test_recovery_takes_the_best_boxes_first(client_for, owner, campaign):
    challenge = challenge_create(campaign=campaign, preset="word-on-the-street")
    for margin in (0, 2, 3):
        challenge_check(challenge=challenge, margin=margin)
        challenge_time_passes(campaign=campaign, period="day")
    assert "Recovery: 1 box(es) lost each week." in challenge.notes
    client_for(owner).post(url("challenge_recover", campaign, challenge.pk), {"periods": "2"})
    assert marks(challenge) == [1, 0, 0, 0, 0]


def test_a_challenge_of_another_campaign_is_not_found(client_for, owner, campaign):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    theirs = challenge_create(campaign=elsewhere, preset="static")
    for command, data in COMMANDS.items():
        assert client_for(owner).post(url(command, campaign, theirs.pk), data).status_code == 404
    assert marks(theirs) == [0, 0, 0, 0, 0]


def test_the_service_refuses_bad_shapes_and_saves_nothing(campaign):
    with pytest.raises(ValidationError):
        challenge_create(campaign=campaign, name="Too tall", rungs=[(0, 21, "")])
    with pytest.raises(ValidationError):
        challenge_create(campaign=campaign, name="Odd", rungs=[(0, 1, "")], fragility="crumbly")
    with pytest.raises(ValidationError):
        challenge_create(campaign=campaign, preset="static", visibility="hidden")
    assert not Challenge.objects.exists()


# --- the chess match (Fate 3.2.2), played through the GM's commands --------------------------


def test_the_chess_match_ends_in_checkmate_by_overflow(client_for, owner, member, campaign):
    client = client_for(owner)
    for name in ("Louis", "Ferdinand"):
        data = {"preset": "chess-match", "name": f"{name}'s attack", "visibility": "public"}
        assert client.post(url("challenge_create", campaign), data).status_code == 302
    louis = Challenge.objects.get(name="Louis's attack")
    ferdinand = Challenge.objects.get(name="Ferdinand's attack")

    def exchange(challenge, margin):
        response = client.post(
            url("challenge_check", campaign, challenge.pk), {"margin": margin}, headers=HX
        )
        assert response.status_code == 200
        return response.content.decode()

    def next_moment():
        # Its span: one check a significant moment of play, each track alike.
        moment = {"period": "significant moment of play", "periods": "1"}
        assert client.post(url("challenge_time", campaign), moment).status_code == 302

    exchange(louis, 2)  # takes a rook
    next_moment()
    exchange(ferdinand, 1)  # claims a knight
    next_moment()
    exchange(louis, 0)  # they trade pawns
    exchange(ferdinand, 0)
    assert "allows 1 check each significant moment of play" in exchange(louis, 1)
    next_moment()
    exchange(louis, 5)  # the queen
    assert marks(louis) == [1, 0, 1, 1, 0]
    next_moment()
    answer = exchange(louis, 5)  # the queen's rung is full: it rolls into the king
    assert marks(louis) == [1, 0, 1, 1, 1]
    assert marks(ferdinand) == [1, 1, 0, 0, 0]
    ladder, state = rules_challenge(louis)
    assert ladder_rules.is_done(ladder, state)
    assert "complete" in challenge_item(answer, louis)
    refused = exchange(louis, 1)
    assert "The challenge is already complete." in refused
    assert marks(louis) == [1, 0, 1, 1, 1]
    assert challenge_item(table(client_for(member), campaign), louis).count("box-marked") == 4


# --- a roll against a challenge --------------------------------------------------------------


def post_roll(client, campaign, data, htmx=True):
    headers = HX if htmx else {}
    return client.post(reverse("rolls:roll", args=[campaign.pk]), data, headers=headers)


def test_a_roll_against_a_challenge_marks_it_with_its_margin(client_for, member, campaign, hero):
    challenge = challenge_create(campaign=campaign, preset="static")
    ladder, empty = rules_challenge(challenge)
    page = table(client_for(member), campaign)
    assert 'name="challenge"' in page and "Static challenge" in page
    data = roll_form(hero, hero.traits.get(name="Chess"), challenge=challenge.pk)
    response = post_roll(client_for(member), campaign, data)
    assert response.status_code == 200
    roll = Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).get()
    expected = ladder_rules.check(ladder, empty, roll.snapshot["margin"]).state
    assert marks(challenge) == list(expected.marks)
    # The same form sent again makes no new roll and no second mark.
    post_roll(client_for(member), campaign, data)
    assert Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).count() == 1
    assert marks(challenge) == list(expected.marks)


def test_a_player_cannot_roll_against_a_gm_only_challenge(client_for, member, campaign, hero):
    secret = challenge_create(
        campaign=campaign, preset="static", name="Grand Deceit", visibility="gm"
    )
    assert "Grand Deceit" not in table(client_for(member), campaign)
    data = roll_form(hero, hero.traits.get(name="Chess"), challenge=secret.pk)
    response = post_roll(client_for(member), campaign, data)
    assert "no such challenge at this table" in response.content.decode()
    assert not Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).exists() and marks(secret) == [
        0,
        0,
        0,
        0,
        0,
    ]


def test_a_gm_may_roll_against_a_gm_only_challenge(client_for, owner, campaign, hero):
    secret = challenge_create(campaign=campaign, preset="static", visibility="gm")
    data = roll_form(hero, hero.traits.get(name="Chess"), challenge=secret.pk, difficulty=-4)
    post_roll(client_for(owner), campaign, data)
    assert (
        Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).count() == 1 and sum(marks(secret)) == 1
    )


def test_rolls_against_a_foreign_finished_or_missing_challenge_are_refused(
    client_for, owner, member, outsider, campaign, hero
):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    theirs = challenge_create(campaign=elsewhere, preset="static")
    finished = challenge_create(campaign=campaign, preset="static", name="Done deal")
    challenge_check(challenge=finished, margin=4)
    chess = hero.traits.get(name="Chess")
    client = client_for(member)
    for challenge_id in (theirs.pk, 99999):
        body = post_roll(client, campaign, roll_form(hero, chess, challenge=challenge_id))
        assert "no such challenge at this table" in body.content.decode()
    done = post_roll(client, campaign, roll_form(hero, chess, challenge=finished.pk), htmx=False)
    assert done.status_code == 302
    assert "Done deal is already over" in client.get(done["Location"]).content.decode()
    reading = {"kind": "situational", "label": "Luck", "challenge": finished.pk}
    body = post_roll(client, campaign, roll_form(**reading)).content.decode()
    assert "only a trait check marks a challenge" in body
    outsider_roll = post_roll(client_for(outsider), campaign, roll_form(hero, chess))
    assert outsider_roll.status_code == 404
    assert not Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).exists() and marks(theirs) == [
        0,
        0,
        0,
        0,
        0,
    ]


# --- the table's sockets ---------------------------------------------------------------------


async def gm_post(client, name: str, campaign, *args, data=None):
    return await sync_to_async(client.post)(url(name, campaign, *args), data or {}, headers=HX)


@pytest.mark.django_db(transaction=True)
async def test_members_receive_challenge_events_and_outsiders_are_refused(
    campaign, cookies, client_for, owner, member, hero
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    data = {"preset": "static", "name": "Build the bridge", "visibility": "public"}
    await gm_post(gm_client, "challenge_create", campaign, data=data)
    challenge = await Challenge.objects.aget()
    for socket in (gm, player):
        frame = (await until(socket, 'id="challenge-list"'))[-1]
        assert "Build the bridge" in frame and 'hx-swap-oob="true"' in frame
    await gm_post(gm_client, "challenge_check", campaign, challenge.pk, data={"margin": "4"})
    for socket in (gm, player):
        frames = await until(socket, "Build the bridge is complete. Complete")
        assert 'id="roll-log" hx-swap-oob="beforeend"' in frames[-1]
    await gm_post(gm_client, "challenge_unmark", campaign, challenge.pk, data={"rung": "4"})
    for socket in (gm, player):
        frame = (await until(socket, 'id="challenge-list"'))[-1]
        assert "box-marked" not in frame
    # A player's roll against it reaches every socket too.
    player_client = await sync_to_async(client_for)(member)
    chess = await sync_to_async(hero.traits.get)(name="Chess")
    form = await sync_to_async(roll_form)(hero, chess, challenge=challenge.pk, difficulty=-4)
    await sync_to_async(post_roll)(player_client, campaign, form)
    roll = await Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).aget()
    for socket in (gm, player):
        frames = await until(socket, f'id="roll-{encode(roll.pk)}"')
        frames += await until(socket, 'id="challenge-list"')
        assert "box-marked" in frames[-1]
    await gm.disconnect()
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_gm_only_challenge_never_reaches_a_players_socket(
    campaign, cookies, client_for, owner
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    name = "Xylocarp Heist"
    data = {"preset": "word-on-the-street", "name": name, "visibility": "gm"}
    await gm_post(gm_client, "challenge_create", campaign, data=data)
    secret = await Challenge.objects.aget(name=name)
    # MoF 3 sets off the ladder's trigger: announced to GMs only.
    await gm_post(gm_client, "challenge_check", campaign, secret.pk, data={"margin": "-3"})
    await gm_post(gm_client, "challenge_time", campaign, data={"period": "day", "periods": "1"})
    await gm_post(gm_client, "challenge_check", campaign, secret.pk, data={"margin": "2"})
    await gm_post(gm_client, "challenge_recover", campaign, secret.pk, data={"periods": "1"})
    marker = {"preset": "static", "name": "Marker", "visibility": "public"}
    await gm_post(gm_client, "challenge_create", campaign, data=marker)
    seen = await until(player, "Marker")
    gm_seen = "".join(await until(gm, "Marker"))
    assert name in gm_seen and "attacked by thugs" in gm_seen
    again = socket_for(campaign, cookies["member"])
    assert (await again.connect())[0]
    seen += await until(again, 'id="challenge-list"')
    everything = "".join(seen)
    assert name not in everything and "thugs" not in everything
    assert f'id="challenge-{secret.pk}"' not in everything
    await gm_post(gm_client, "challenge_delete", campaign, secret.pk)
    assert 'id="challenge-list"' in (await until(gm, 'id="challenge-list"'))[-1]
    for socket in (gm, player, again):
        await socket.disconnect()


# --- span and recovery (Fate ch. 3 :59-:78) ---------------------------------------------------


def announcements(**filters) -> list[str]:
    rows = Roll.objects.filter(kind=Roll.Kind.ANNOUNCEMENT, **filters).order_by("pk")
    return [roll.label for roll in rows]


def test_a_second_check_on_the_same_day_is_refused_until_the_gm_advances_the_day(
    client_for, owner, member, campaign, hero
):
    # :76 "Span: Check 1/day": Word on the Street takes one roll a day.
    rumours = challenge_create(campaign=campaign, preset="word-on-the-street")
    streetwise = trait(hero, "Streetwise", level=1)
    player = client_for(member)

    def streetwise_roll():  # a margin of 0 or less: never the secret that ends it
        return roll_form(hero, streetwise, challenge=rumours.pk, difficulty=5)

    post_roll(player, campaign, streetwise_roll())
    first = marks(rumours)
    assert Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).count() == 1
    again = post_roll(player, campaign, streetwise_roll())
    assert "Word on the Street allows 1 check each day, and it was made this day" in (
        again.content.decode()
    )
    plain = post_roll(player, campaign, streetwise_roll(), htmx=False)
    assert (
        "the next waits until the GM advances time"
        in player.get(plain["Location"]).content.decode()
    )
    # Refused before any dice rolled: no roll, no mark, nothing counted.
    assert Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).count() == 1
    assert marks(rumours) == first and rumours.state["checks"] == 1
    # The GM's own check is held to the span too.
    gm = client_for(owner)
    refused = gm.post(url("challenge_check", campaign, rumours.pk), {"margin": "2"}, headers=HX)
    assert "allows 1 check each day" in refused.content.decode() and marks(rumours) == first
    assert "Checks this day: 1 of 1" in table(player, campaign)
    next_day = gm.post(url("challenge_time", campaign), {"period": "day", "periods": "1"})
    assert next_day.status_code == 302
    assert "Time passes: one day." in announcements()
    assert "Checks this day: 0 of 1" in table(player, campaign)
    post_roll(player, campaign, streetwise_roll())
    assert Roll.objects.exclude(kind=Roll.Kind.ANNOUNCEMENT).count() == 2


def test_a_week_passing_unchecks_a_box_only_where_nobody_pursued_the_challenge(
    client_for, owner, campaign
):
    # :65 "every week the player doesn't pursue this challenge, a box will become unchecked";
    # :78 "Recovery: 1 box per week".
    pursued = challenge_create(campaign=campaign, preset="word-on-the-street", name="Docks")
    idle = challenge_create(campaign=campaign, preset="word-on-the-street", name="Market")
    for challenge in (pursued, idle):
        challenge_check(challenge=challenge, margin=3)
    challenge_time_passes(campaign=campaign, period="week")  # both were pursued that week
    assert marks(pursued) == marks(idle) == [0, 0, 0, 1, 0]
    challenge_time_passes(campaign=campaign, period="day")
    challenge_check(challenge=pursued, margin=2)  # only the docks are worked this week
    gm = client_for(owner)
    response = gm.post(
        url("challenge_time", campaign), {"period": "week", "periods": "1"}, headers=HX
    )
    assert response.status_code == 200 and 'id="challenge-list"' in response.content.decode()
    assert marks(pursued) == [0, 0, 1, 1, 0]
    assert marks(idle) == [0, 0, 0, 0, 0]
    assert announcements()[-1] == (
        "Time passes: one week. Docks was pursued and keeps its boxes. "
        "Market loses 1 box: nobody pursued it."
    )
    # Two weeks more, nobody at work: the docks lose one box for each.
    gm.post(url("challenge_time", campaign), {"period": "Week", "periods": "2"})
    assert marks(pursued) == [0, 0, 0, 0, 0]
    assert "Time passes: 2 × Week." in announcements()[-1]  # noqa: RUF001


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("observer", 403), ("outsider", 404)])
def test_only_a_gm_advances_time(client_for, campaign, who, status, request):
    rumours = challenge_create(campaign=campaign, preset="word-on-the-street")
    challenge_check(challenge=rumours, margin=3)
    rumours.refresh_from_db()
    before = rumours.state
    person = request.getfixturevalue(who)
    response = client_for(person).post(
        url("challenge_time", campaign), {"period": "week", "periods": "1"}
    )
    assert response.status_code == status
    rumours.refresh_from_db()
    assert rumours.state == before and not announcements()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"period": "month", "periods": "1"}, "No challenge here counts the month."),
        ({"period": "week", "periods": "0"}, "greater than or equal to 1"),
        ({"period": "week", "periods": "101"}, "less than or equal to 100"),
        ({"period": "", "periods": "1"}, "This field is required."),
        ({"period": "w" * 41, "periods": "1"}, "at most 40 characters"),
    ],
)
def test_bad_time_is_refused_with_a_message_and_changes_nothing(
    client_for, owner, campaign, data, message
):
    rumours = challenge_create(campaign=campaign, preset="word-on-the-street")
    challenge_check(challenge=rumours, margin=3)
    rumours.refresh_from_db()
    before = rumours.state
    client = client_for(owner)
    plain = client.post(url("challenge_time", campaign), data, follow=True)
    assert message in plain.content.decode()
    htmx = client.post(url("challenge_time", campaign), data, headers=HX)
    assert message in htmx.content.decode()
    rumours.refresh_from_db()
    assert rumours.state == before and not announcements()


def test_the_gm_offers_only_the_periods_the_challenges_count(client_for, owner, member, campaign):
    static = challenge_create(campaign=campaign, preset="static")
    assert "Advance time" not in table(client_for(owner), campaign)
    challenge_create(campaign=campaign, preset="word-on-the-street")
    page = table(client_for(owner), campaign)
    assert "Advance time" in page
    assert '<option value="day">day</option><option value="week">week</option>' in page
    assert "Advance time" not in table(client_for(member), campaign)
    assert static.pk  # a ladder without span or recovery takes no part


def test_a_shape_of_ones_own_sets_its_span_and_recovery(client_for, owner, campaign):
    data = {
        "name": "Court the baron",
        "rungs": "0 2\n1 2\n2 1 Invited to dine",
        "span_count": "2",
        "span_period": " week ",
        "recovery_count": "1",
        "recovery_period": "month",
        "visibility": "public",
    }
    assert client_for(owner).post(url("challenge_create", campaign), data).status_code == 302
    challenge = Challenge.objects.get()
    ladder, _ = rules_challenge(challenge)
    assert ladder.span == ladder_rules.Pace(2, "week")
    assert ladder.recovery == ladder_rules.Pace(1, "month")
    assert challenge.notes == "Span: 2 check(s) each week.\nRecovery: 1 box(es) lost each month."
    challenge_check(challenge=challenge, margin=0)
    challenge_check(challenge=challenge, margin=0)
    with pytest.raises(RulesError):
        challenge_check(challenge=challenge, margin=0)
    challenge_time_passes(campaign=campaign, period="month")  # a month holds its weeks
    challenge_check(challenge=challenge, margin=1)
    assert marks(challenge) == [2, 1, 0]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"span_count": "1"}, "Give the span both its checks allowed and its period"),
        ({"recovery_period": "week"}, "Give the recovery both its boxes lost and its period"),
        ({"span_count": "0", "span_period": "day"}, "greater than or equal to 1"),
        ({"span_count": "21", "span_period": "day"}, "less than or equal to 20"),
        ({"recovery_count": "1", "recovery_period": "y" * 41}, "at most 40 characters"),
    ],
)
def test_a_bad_span_or_recovery_is_refused_and_nothing_saved(
    client_for, owner, campaign, data, message
):
    form = {"name": "Court the baron", "rungs": "0 2\n1 1", "visibility": "public", **data}
    client = client_for(owner)
    assert (
        message
        in client.post(url("challenge_create", campaign), form, follow=True).content.decode()
    )
    htmx = client.post(url("challenge_create", campaign), form, headers=HX)
    assert message in htmx.content.decode() and 'id="challenges"' in htmx.content.decode()
    assert not Challenge.objects.exists()


def test_time_passing_on_a_gm_only_challenge_is_logged_among_the_gms(
    client_for, owner, member, campaign
):
    public = challenge_create(campaign=campaign, preset="word-on-the-street", name="Docks")
    secret = challenge_create(
        campaign=campaign, preset="word-on-the-street", name="Xylocarp Heist", visibility="gm"
    )
    for challenge in (public, secret):
        challenge_check(challenge=challenge, margin=3)
    challenge_time_passes(campaign=campaign, period="week")
    challenge_time_passes(campaign=campaign, period="week")
    assert marks(secret) == [0, 0, 0, 0, 0]
    player_page = table(client_for(member), campaign)
    assert "Docks loses 1 box" in player_page and "Xylocarp" not in player_page
    gm_page = table(client_for(owner), campaign)
    assert "Xylocarp Heist loses 1 box: nobody pursued it." in gm_page
    only_secret = CampaignFactory(owner=owner, name="Elsewhere")
    hidden = challenge_create(campaign=only_secret, preset="static", name="Quiet", visibility="gm")
    assert hidden.pk
    challenge_create(
        campaign=only_secret, preset="word-on-the-street", name="Hush", visibility="gm"
    )
    challenge_time_passes(campaign=only_secret, period="day")
    assert Roll.objects.get(campaign=only_secret).visibility == Roll.Visibility.GM
