"""A Fudge point for a favourable coincidence (Fudge Lite, "Fudge Points": "Ensure a favorable
coincidence in the world around them"): the player asks, the GM allows, the point is paid once."""

import pytest
from django.urls import reverse

from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.rolls.conftest import set_rules

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def allowed(campaign, hero):
    set_rules(campaign, fudge_point_uses=["coincidence"])
    return hero


def ask(client, campaign, character, text="The ferryman owes me a favour", key="coin-key-0001"):
    url = reverse("rolls:coincidence_ask", args=[campaign.pk])
    return client.post(url, {"character": character.pk, "text": text, "key": key}, headers=HX)


def allow(client, roll):
    url = reverse("rolls:coincidence_allow", args=[roll.campaign_id, roll.pk])
    return client.post(url, headers=HX)


def points(character) -> int:
    character.refresh_from_db()
    return character.fudge_points


def test_the_gm_allows_a_coincidence_and_the_point_is_paid_once(
    client_for, owner, member, campaign, allowed
):
    answer = ask(client_for(member), campaign, allowed)
    assert "the GM sees it in the log" in answer.content.decode()
    asked = Roll.objects.get()
    assert entry_label(asked) == "Louie spends a Fudge point: The ferryman owes me a favour"
    assert points(allowed) == 3  # nothing paid until the GM allows it
    gm_table = client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert "Allow it (1 Fudge point)" in gm_table
    player_table = client_for(member).get(reverse("rolls:table", args=[campaign.pk]))
    assert "Waiting for the GM." in player_table.content.decode()
    assert allow(client_for(owner), asked).status_code == 204
    allow(client_for(owner), asked)  # a double tap
    assert points(allowed) == 2
    allowed_entry = Roll.objects.get(follows=asked)
    assert entry_label(allowed_entry) == "The GM allows it: The ferryman owes me a favour"


def test_only_a_gm_allows_and_only_a_campaign_that_offers_it(
    client_for,
    owner,
    member,
    outsider,
    observer,
    campaign,
    hero,
):
    answer = ask(client_for(member), campaign, hero)
    assert "does not spend Fudge points on coincidences" in answer.content.decode()
    set_rules(campaign, fudge_point_uses=["coincidence"])
    ask(client_for(member), campaign, hero)
    asked = Roll.objects.get()
    assert allow(client_for(member), asked).status_code == 422
    assert allow(client_for(outsider), asked).status_code == 404
    refused = ask(client_for(observer), campaign, hero, key="coin-key-0002")
    assert "observers watch" in refused.content.decode()
    assert points(hero) == 3 and Roll.objects.count() == 1


def test_a_player_spends_only_their_own_pcs_points(client_for, campaign, allowed, rival):
    rival_user, _ = rival
    answer = ask(client_for(rival_user), campaign, allowed)
    assert "spend the Fudge points of a PC you play" in answer.content.decode()
    assert not Roll.objects.exists()


def test_no_point_left_means_no_asking(client_for, member, campaign, allowed):
    allowed.fudge_points = 0
    allowed.save()
    answer = ask(client_for(member), campaign, allowed)
    assert "Louie has no Fudge points left" in answer.content.decode()
    assert not Roll.objects.exists()


def test_an_outsider_asks_nothing(client_for, outsider, campaign, allowed):
    assert ask(client_for(outsider), campaign, allowed).status_code == 404
    assert not Roll.objects.exists()
