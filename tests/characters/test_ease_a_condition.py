"""A Fudge point spent to reduce a condition's severity (Fudge Lite, "Fudge Points": "Reduce a
condition's severity by one level, clearing it if it's already at the weakest level. A
condition cannot be moved to a lower slot unless there is free space for it.")"""

import pytest
from django.urls import reverse

from fudgetable.rules.tracks import LITE_PENALTY_TRACK
from tests.characters.test_sheet import messages_of
from tests.rolls.conftest import observer, set_rules  # noqa: F401

pytestmark = pytest.mark.django_db

# The seed's example track: Scratch boxes 0-2, Hurt 3, Very Hurt 4, Incapacitated 5.
HURT, VERY_HURT = 3, 4


@pytest.fixture
def hurt(campaign, hero):
    set_rules(
        campaign, injury_track=LITE_PENALTY_TRACK.to_dict(), fudge_point_uses=["reduce-condition"]
    )
    hero.tracks = {"injury": {"boxes": ["x", None, None, "x", None, None]}}
    hero.fudge_points = 2
    hero.save()
    return hero


def boxes(character) -> list:
    character.refresh_from_db()
    return character.tracks["injury"]["boxes"]


def test_a_point_moves_hurt_down_into_a_free_scratch_and_clears_a_scratch(command, member, hurt):
    command(member, hurt, "track-ease", {"track": "injury", "box": HURT})
    assert [b is not None for b in boxes(hurt)] == [True, True, False, False, False, False]
    command(member, hurt, "track-ease", {"track": "injury", "box": 0})
    assert [b is not None for b in boxes(hurt)] == [False, True, False, False, False, False]
    assert hurt.fudge_points == 0


def test_no_free_lower_box_means_nothing_moves_and_nothing_is_paid(command, member, hurt):
    hurt.tracks = {"injury": {"boxes": ["x", "x", "x", "x", None, None]}}
    hurt.save()
    response = command(member, hurt, "track-ease", {"track": "injury", "box": HURT})
    assert messages_of(response) == ["no free Scratch box to move into"]
    hurt.refresh_from_db()
    assert hurt.fudge_points == 2 and boxes(hurt)[HURT] is not None


def test_the_sheet_offers_it_only_where_it_can_be_spent(client_for, member, campaign, hurt):
    url = reverse("characters:sheet", args=[campaign.pk, hurt.pk])
    page = client_for(member).get(url).content.decode()
    assert "Spend a Fudge point to ease" in page and "Hurt (box 1)" in page
    hurt.fudge_points = 0
    hurt.save()
    assert "Spend a Fudge point to ease" not in client_for(member).get(url).content.decode()


def test_a_campaign_that_does_not_allow_it_refuses(command, member, campaign, hurt):
    set_rules(campaign, fudge_point_uses=["reroll"])
    response = command(member, hurt, "track-ease", {"track": "injury", "box": HURT})
    assert messages_of(response) == ["this campaign does not spend Fudge points on conditions"]
    hurt.refresh_from_db()
    assert hurt.fudge_points == 2


def test_only_the_player_and_the_gm_may_spend(
    command,
    owner,
    member,
    outsider,
    observer,  # noqa: F811
    hurt,
):
    assert (
        command(outsider, hurt, "track-ease", {"track": "injury", "box": HURT}).status_code == 404
    )
    assert (
        command(observer, hurt, "track-ease", {"track": "injury", "box": HURT}).status_code == 403
    )
    command(owner, hurt, "track-ease", {"track": "injury", "box": HURT})
    hurt.refresh_from_db()
    assert hurt.fudge_points == 1
