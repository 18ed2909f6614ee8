"""EZFudge: Fudge points "can be converted to Experience Points" (3 FP per XP unless the
campaign sets another rate), and back at 2 FP per XP, which the GM allows: "If someone finds
themselves desperately short of Fudge Points, I allow back-conversion … but only 2 Fudge
Points per Experience Point converted.\""""

import pytest
from django.urls import reverse

from tests.characters.test_sheet import messages_of
from tests.rolls.conftest import set_rules

pytestmark = pytest.mark.django_db


@pytest.fixture
def ez_hero(campaign, hero):
    set_rules(campaign, "ezfudge")
    hero.fudge_points, hero.xp = 4, 1
    hero.save()
    return hero


def points(character) -> tuple[int, int]:
    character.refresh_from_db()
    return character.fudge_points, character.xp


def test_a_player_trades_three_points_for_an_xp(command, member, ez_hero):
    command(member, ez_hero, "points-to-xp", {"spend": 3})
    assert points(ez_hero) == (1, 2)
    response = command(member, ez_hero, "points-to-xp", {"spend": 3})
    assert messages_of(response) == ["only 1 Fudge Points to spend"]
    assert points(ez_hero) == (1, 2)


def test_a_spend_that_is_not_a_whole_xp_is_refused(command, member, ez_hero):
    response = command(member, ez_hero, "points-to-xp", {"spend": 2})
    assert messages_of(response) == ["spend a positive multiple of 3 FP"]
    assert points(ez_hero) == (4, 1)


def test_the_campaign_sets_the_rate(client_for, command, campaign, member, ez_hero):
    set_rules(campaign, fudge_points_per_xp=2)
    command(member, ez_hero, "points-to-xp", {"spend": 4})
    assert points(ez_hero) == (0, 3)
    url = reverse("characters:sheet", args=[campaign.pk, ez_hero.pk])
    assert "2 FP for 1 XP" in client_for(member).get(url).content.decode()
    detail = client_for(member).get(reverse("campaigns:detail", args=[campaign.pk]))
    assert "2 FP for 1 XP" in detail.content.decode()


def test_back_conversion_is_the_gms_at_two_points_per_xp(command, owner, member, ez_hero):
    assert command(member, ez_hero, "xp-to-points", {"spend": 1}).status_code == 403
    command(owner, ez_hero, "xp-to-points", {"spend": 1})
    assert points(ez_hero) == (6, 0)


def test_only_ezfudge_trades(command, campaign, member, hero):
    hero.fudge_points = 3
    hero.save()
    response = command(member, hero, "points-to-xp", {"spend": 3})
    assert messages_of(response) == ["Fudge points and XP are traded in EZFudge campaigns"]


def test_the_sheet_offers_the_trade_to_its_player_and_not_to_others(
    client_for, owner, member, outsider, other_player, campaign, ez_hero
):
    url = reverse("characters:sheet", args=[campaign.pk, ez_hero.pk])
    mine = client_for(member).get(url).content.decode()
    assert "3 FP for 1 XP" in mine and "1 XP for 2 FP" not in mine
    assert "1 XP for 2 FP" in client_for(owner).get(url).content.decode()
    assert "3 FP for 1 XP" not in client_for(other_player).get(url).content.decode()
    assert client_for(outsider).get(url).status_code == 404


def test_an_outsider_trades_nothing(command, outsider, ez_hero):
    assert command(outsider, ez_hero, "points-to-xp", {"spend": 3}).status_code == 404
    assert points(ez_hero) == (4, 1)
