"""The sheet's tracks: circling a stun on an EZFudge wound track, and taking a named condition
on a Fudge Lite condition track, through the sheet's commands."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.services import character_create, track_take_wound
from fudgetable.rules.tracks import LITE_INJURY_TRACK
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import set_rules

pytestmark = pytest.mark.django_db

HURT = 3  # EZFudge's wound boxes down the sheet: Scratch 0-2, Hurt 3-4, Very Hurt 5, ...


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def observer(campaign):
    user = UserFactory(username="sheet-observer")
    MembershipFactory(campaign=campaign, user=user, role=Membership.Role.OBSERVER)
    return user


@pytest.fixture
def ez_hero(campaign, member):
    set_rules(campaign, "ezfudge")
    return character_create(campaign=campaign, owner=member, name="Dorothy")


@pytest.fixture
def blank_hero(campaign, member):
    set_rules(campaign, injury_track={**LITE_INJURY_TRACK.to_dict(), "blank": True})
    return character_create(campaign=campaign, owner=member, name="Toto")


def sheet(client_for, user, character):
    url = reverse("characters:sheet", args=[character.campaign_id, character.pk])
    return client_for(user).get(url)


def wounds_of(character) -> list[list[str]]:
    character.refresh_from_db()
    return character.tracks["wounds"]["levels"]


def boxes_of(character) -> list[str | None]:
    character.refresh_from_db()
    return character.tracks["injury"]["boxes"]


# --- a stun circled on the wound track (EZFudge "Stun Results") ----------------------------


@pytest.mark.parametrize("who", ["owner", "member"])
def test_the_player_and_the_gm_circle_a_stun_with_the_tick_beside_the_boxes(
    request, command, ez_hero, who
):
    """ezfudge-essentials.txt:377 "otherwise lightly circle the result"."""
    user = request.getfixturevalue(who)
    response = command(
        user, ez_hero, "track-box", {"track": "wounds", "box": f"{HURT}:mark", "stun": "on"}
    )
    assert response.status_code == 200
    assert wounds_of(ez_hero)[1] == ["stun", "clear"]


def test_a_plain_tap_still_marks_a_wound_in_one_tap(command, member, ez_hero):
    command(member, ez_hero, "track-box", {"track": "wounds", "box": f"{HURT}:mark"})
    assert wounds_of(ez_hero)[1] == ["wound", "clear"]


def test_a_stun_that_would_be_a_scratch_is_refused_in_words(command, member, ez_hero):
    """ezfudge-essentials.txt:377 "An injury that would have generated a Scratch result has
    no effect"."""
    response = command(
        member, ez_hero, "track-box", {"track": "wounds", "box": "0:mark", "stun": "on"}
    )
    assert messages_of(response) == ["a stun that would be a Scratch has no effect"]
    assert wounds_of(ez_hero)[0] == ["clear", "clear", "clear"]


def test_a_stun_without_javascript_posts_and_comes_back_to_the_sheet(command, member, ez_hero):
    response = command(
        member,
        ez_hero,
        "track-box",
        {"track": "wounds", "box": f"{HURT}:mark", "stun": "on"},
        htmx=False,
    )
    assert response.status_code == 302
    assert response["Location"] == reverse(
        "characters:sheet", args=[ez_hero.campaign_id, ez_hero.pk]
    )
    assert wounds_of(ez_hero)[1] == ["stun", "clear"]


def test_the_circle_shows_on_the_sheet_and_the_tick_only_to_who_may_change_it(
    client_for, command, owner, member, observer, ez_hero
):
    command(member, ez_hero, "track-box", {"track": "wounds", "box": f"{HURT}:mark", "stun": "on"})
    for user in (owner, member):
        html = sheet(client_for, user, ez_hero).content.decode()
        assert "Circle as a stun" in html
        assert 'aria-label="Hurt box 1: stun"' in html
    html = sheet(client_for, observer, ez_hero).content.decode()
    assert 'aria-label="Hurt box 1: stun"' in html
    assert "Circle as a stun" not in html


def test_observers_and_other_players_may_not_circle_and_outsiders_find_nothing(
    command, observer, other_player, outsider, ez_hero
):
    data = {"track": "wounds", "box": f"{HURT}:mark", "stun": "on"}
    assert command(observer, ez_hero, "track-box", data).status_code == 403
    assert command(other_player, ez_hero, "track-box", data).status_code == 403
    assert command(outsider, ez_hero, "track-box", data).status_code == 404
    assert wounds_of(ez_hero)[1] == ["clear", "clear"]


def test_after_the_fight_the_circles_go_too(command, client_for, member, ez_hero):
    """ezfudge-essentials.txt:400 "All Stun results heal like Scratches"."""
    command(member, ez_hero, "track-box", {"track": "wounds", "box": "6:mark", "stun": "on"})
    html = sheet(client_for, member, ez_hero).content.decode()
    assert "Takes no actions" in html  # Out of It, though only circled
    url = reverse("rolls:sheet_heal", args=[ez_hero.campaign_id, ez_hero.pk])
    client_for(member).post(
        url, {"track": "wounds", "action": "after-fight", "key": "after-fight-1"}
    )
    assert wounds_of(ez_hero)[3] == ["clear"]


# --- a named condition on a blank track (Fudge Lite "Blank Conditions") --------------------


@pytest.mark.parametrize("who", ["owner", "member"])
def test_a_condition_is_named_as_it_is_taken(request, command, client_for, blank_hero, who):
    """fudge-lite-3.1.0.txt:817 the two minor conditions "twisted ankle" and "hurt
    feelings", and the serious condition "cracked ribs"."""
    user = request.getfixturevalue(who)
    for name in ("twisted ankle", "hurt feelings", "cracked ribs"):
        response = command(
            user, blank_hero, "track-condition", {"track": "injury", "name": name, "effect": 0}
        )
        assert response.status_code == 200
    assert boxes_of(blank_hero) == ["twisted ankle", "hurt feelings", "cracked ribs", None]
    html = sheet(client_for, user, blank_hero).content.decode()
    assert "twisted ankle, hurt feelings" in html
    assert 'aria-label="Serious injury box 1: marked, cracked ribs"' in html


def test_an_effect_marks_several_boxes_at_once(command, member, blank_hero):
    """fudge-lite-3.1.0.txt:821-831: "Great effect: 4 boxes"."""
    command(
        member, blank_hero, "track-condition", {"track": "injury", "name": "stabbed", "effect": 3}
    )
    assert boxes_of(blank_hero) == ["stabbed"] * 4


def test_a_blank_track_offers_the_form_and_no_bare_tap_on_a_clear_box(
    client_for, member, blank_hero
):
    html = sheet(client_for, member, blank_hero).content.decode()
    assert "Take a condition" in html
    assert "Superb effect: 5 boxes" in html
    assert 'disabled aria-label="Minor injury box 1: clear"' in html


def test_a_nameless_condition_on_a_blank_track_is_refused_and_nothing_is_marked(
    command, member, blank_hero
):
    response = command(
        member, blank_hero, "track-condition", {"track": "injury", "name": "  ", "effect": 0}
    )
    assert messages_of(response) == ["name the condition as it is taken"]
    assert boxes_of(blank_hero) == [None] * 4


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"track": "injury", "name": "x", "effect": "lots"}, "effect: Enter a whole number."),
        (
            {"track": "injury", "name": "x" * 61, "effect": 0},
            "name: Ensure this value has at most 60 characters (it has 61).",
        ),
        ({"track": "wounds", "name": "x", "effect": 0}, "this sheet has no wounds track"),
        (
            {"track": "injury", "name": "x", "effect": 9},
            "effect: Ensure this value is less than or equal to 8.",
        ),
    ],
)
def test_bad_conditions_get_a_message_not_a_500(command, member, blank_hero, data, message):
    response = command(member, blank_hero, "track-condition", data)
    assert response.status_code == 200
    assert messages_of(response) == [message]
    assert boxes_of(blank_hero) == [None] * 4


def test_observers_and_other_players_may_not_take_a_condition_and_outsiders_find_nothing(
    command, observer, other_player, outsider, blank_hero
):
    data = {"track": "injury", "name": "twisted ankle", "effect": 0}
    assert command(observer, blank_hero, "track-condition", data).status_code == 403
    assert command(other_player, blank_hero, "track-condition", data).status_code == 403
    assert command(outsider, blank_hero, "track-condition", data).status_code == 404
    assert boxes_of(blank_hero) == [None] * 4


def test_a_condition_without_javascript_posts_and_comes_back(command, member, blank_hero):
    data = {"track": "injury", "name": "hurt feelings", "effect": 0}
    response = command(member, blank_hero, "track-condition", data, htmx=False)
    assert response.status_code == 302
    assert boxes_of(blank_hero) == ["hurt feelings", None, None, None]


def test_a_track_that_is_not_blank_keeps_its_tap_and_folds_the_form_away(
    client_for, command, member, hero
):
    command(member, hero, "track-box", {"track": "injury", "box": "0:mark"})
    assert boxes_of(hero) == ["", None, None, None]
    html = sheet(client_for, member, hero).content.decode()
    assert "Mark several boxes or name a condition" in html
    assert 'disabled aria-label="Minor injury box 2: clear"' not in html
    command(member, hero, "track-condition", {"track": "injury", "name": "", "effect": 1})
    assert boxes_of(hero) == ["", "", "", None]


def test_a_condition_taken_reaches_the_sheets_open_copies(command, member, blank_hero, monkeypatch):
    pushed = []
    monkeypatch.setattr("characters.views.sheet_changed", lambda c, **kw: pushed.append(c.pk))
    command(member, blank_hero, "track-condition", {"track": "injury", "name": "cold", "effect": 0})
    assert pushed == [blank_hero.pk]


# --- a fight's stun (EZFudge "Attacking to Stun"), the sheet's half ------------------------


def test_a_fight_s_stun_is_circled_on_a_pc_s_wound_track(ez_hero):
    """ezfudge-essentials.txt:472 "the injury is counted along the Stun level track"."""
    marked = track_take_wound(character=ez_hero, level=2, name="Very Hurt", stun=True)
    assert (marked.track, marked.level_name, marked.boxes, marked.overflow) == (
        "wounds",
        "Very Hurt",
        1,
        False,
    )
    assert wounds_of(ez_hero)[2] == ["stun"]
    # A Scratch's worth of stun has no effect (ezfudge-essentials.txt:377).
    nothing = track_take_wound(character=ez_hero, level=0, name="Scratch", stun=True)
    assert (nothing.level_name, nothing.boxes) == ("", 0)
    assert wounds_of(ez_hero)[0] == ["clear"] * 3


def test_a_fight_s_stun_on_an_npc_marks_boxes_named_as_a_stun(campaign):
    set_rules(campaign, "ezfudge")
    npc = character_create(
        campaign=campaign, owner=None, name="Winged monkey", kind="npc", npc_boxes=4
    )
    marked = track_take_wound(character=npc, level=1, name="Hurt", stun=True)
    assert (marked.track, marked.level_name, marked.boxes) == ("condition", "Hurt (stun)", 2)
    npc.refresh_from_db()
    assert npc.tracks["condition"]["boxes"] == ["Hurt (stun)", "Hurt (stun)", None, None]
