"""Fudge points spent on a check: each use the campaign allows makes a new roll that follows
the old one, which stays as it was; what the campaign does not allow, or cannot be paid for,
is refused with a message and changes nothing."""

import pytest
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import fresh_key, post_roll, roll_form, set_rules, trait

pytestmark = pytest.mark.django_db

FAILS, SUCCEEDS = 10, -10  # a Poor trait never reaches +10 and never falls below -10


def check(client, campaign, character, difficulty=FAILS, **extra) -> Roll:
    data = roll_form(character, trait(character), difficulty=difficulty, **extra)
    post_roll(client, campaign, data)
    return Roll.objects.filter(kind="check").first()


def spend(client, roll, use, *, key=None, htmx=True, **extra):
    url = reverse("rolls:fudge_point", args=[roll.campaign_id, roll.pk])
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(url, {"use": use, "key": key or fresh_key(), **extra}, headers=headers)


def points(character) -> int:
    character.refresh_from_db()
    return character.fudge_points


def test_a_reroll_follows_the_roll_and_leaves_it_as_it_was(client_for, member, campaign, hero):
    client = client_for(member)
    first = check(client, campaign, hero)
    before = dict(first.snapshot)
    response = spend(client, first, "reroll")
    assert response.status_code == 200 and "You rolled" in response.text
    rerolled = Roll.objects.get(kind="fudge-point")
    assert rerolled.follows == first and rerolled.character == hero
    assert rerolled.snapshot["fudge_point_use"] == "reroll"
    assert entry_label(rerolled) == "Louie: Stealth (Fudge point)"
    first.refresh_from_db()
    assert first.snapshot == before and first.kind == "check"
    assert points(hero) == 2


def test_alter_by_one_adds_one_to_the_same_dice(client_for, owner, campaign, hero):
    first = check(client_for(owner), campaign, hero, difficulty=1)
    spend(client_for(owner), first, "alter-by-one")
    after = Roll.objects.get(kind="fudge-point").snapshot
    # The same dice, read one step higher: the roll moves, not the modifiers.
    assert after["faces"] == first.snapshot["faces"]
    assert after["roll"] == first.snapshot["roll"] + 1
    assert after["modifiers"] == first.snapshot["modifiers"]
    rules = campaign_ruleset(campaign).static_rules
    assert after["result"] == rules.clamp(after["level"] + after["modifier"] + after["roll"])
    assert after["margin"] == after["result"] - 1


def test_alter_by_one_counts_even_beside_a_larger_bonus(client_for, owner, campaign, hero):
    first = check(client_for(owner), campaign, hero, difficulty=1, modifiers="+2")
    spend(client_for(owner), first, "alter-by-one")
    after, before = Roll.objects.get(kind="fudge-point").snapshot, first.snapshot
    # The point moves the dice, so the +2 still counts in full beside it; the result is that
    # sum on the ladder (which has a bottom: an all-minus roll may stay where it was).
    assert after["roll"] == before["roll"] + 1 and after["modifier"] == before["modifier"] == 2
    rules = campaign_ruleset(campaign).static_rules
    assert after["result"] == rules.clamp(after["level"] + 2 + after["roll"])


def test_failure_to_success_turns_only_a_failure(client_for, member, campaign, hero):
    set_rules(campaign, fudge_point_uses=["reroll", "alter-by-one", "failure-to-success"])
    client = client_for(member)
    response = post_roll(client, campaign, roll_form(hero, trait(hero), difficulty=FAILS))
    assert "Make it a success" in response.text  # offered on a failure only
    failed = Roll.objects.get()
    spend(client, failed, "failure-to-success")
    turned = Roll.objects.get(kind="fudge-point")
    assert turned.succeeded and turned.snapshot["outcome"] == "success"
    assert turned.snapshot["margin"] == failed.snapshot["margin"]  # the margin is what it was
    succeeded = check(client, campaign, hero, difficulty=SUCCEEDS)
    response = spend(client, succeeded, "failure-to-success")
    assert "already succeeded" in response.text
    assert Roll.objects.filter(kind="fudge-point").count() == 1
    assert points(hero) == 2


def test_a_use_the_campaign_does_not_allow_is_refused(client_for, member, campaign, hero):
    client = client_for(member)
    roll = check(client, campaign, hero)
    response = spend(client, roll, "failure-to-success")
    assert "does not allow that Fudge point use" in response.text
    set_rules(campaign, fudge_point_uses=["coincidence"])
    response = spend(client, roll, "coincidence")
    assert "spent outside a roll" in response.text
    assert not Roll.objects.filter(kind="fudge-point").exists() and points(hero) == 3


def test_with_no_points_left_the_spend_is_refused(client_for, member, campaign, hero):
    hero.fudge_points = 0
    hero.save(update_fields=["fudge_points"])
    roll = check(client_for(member), campaign, hero)
    response = spend(client_for(member), roll, "reroll")
    assert "No Fudge points left" in response.text
    assert not Roll.objects.filter(kind="fudge-point").exists()


def test_a_roll_is_spent_on_once_and_then_the_newer_roll(client_for, member, campaign, hero):
    client = client_for(member)
    roll = check(client, campaign, hero)
    spend(client, roll, "reroll")
    assert "already spent on this roll" in spend(client, roll, "reroll").text
    newer = Roll.objects.get(kind="fudge-point")
    spend(client, newer, "alter-by-one")
    assert Roll.objects.filter(follows=newer).count() == 1 and points(hero) == 1


def test_the_same_spend_sent_twice_spends_one_point(client_for, member, campaign, hero):
    client = client_for(member)
    roll = check(client, campaign, hero)
    spend(client, roll, "reroll", key="double-tap-key")
    spend(client, roll, "reroll", key="double-tap-key")
    assert Roll.objects.filter(kind="fudge-point").count() == 1 and points(hero) == 2


def test_who_may_spend_a_pcs_points(client_for, owner, member, outsider, campaign, hero, rival):
    rival_user, _ = rival
    roll = check(client_for(member), campaign, hero)
    assert spend(client_for(rival_user), roll, "reroll").status_code == 403
    assert spend(client_for(outsider), roll, "reroll").status_code == 404
    assert spend(client_for(owner), roll, "reroll").status_code == 200
    assert Roll.objects.get(kind="fudge-point").roller == owner and points(hero) == 2


def test_a_player_cannot_spend_on_an_npcs_roll_or_see_a_secret_one(
    client_for, owner, member, campaign, hero, villain
):
    post_roll(client_for(owner), campaign, roll_form(villain, trait(villain, "Poisoncraft")))
    npc_roll = Roll.objects.get()
    assert spend(client_for(member), npc_roll, "reroll").status_code == 403
    secret = check(client_for(owner), campaign, hero, secret="on")
    assert secret.secret
    assert spend(client_for(member), secret, "reroll").status_code == 404
    assert not Roll.objects.filter(kind="fudge-point").exists()


def test_a_roll_from_another_campaign_is_404(client_for, owner, member, campaign, hero):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    roll = check(client_for(member), campaign, hero)
    url = reverse("rolls:fudge_point", args=[elsewhere.pk, roll.pk])
    assert client_for(owner).post(url, {"use": "reroll", "key": fresh_key()}).status_code == 404


def test_only_the_gm_turns_a_hidden_difficulty_into_a_success(
    client_for, owner, member, campaign, hero
):
    set_rules(campaign, fudge_point_uses=["reroll", "failure-to-success"])
    roll = check(client_for(owner), campaign, hero, hidden_difficulty="on")
    log = client_for(member).get(reverse("rolls:log", args=[campaign.pk])).text
    assert "Reroll" in log and "Make it a success" not in log
    assert (
        "Make it a success" in client_for(owner).get(reverse("rolls:log", args=[campaign.pk])).text
    )
    response = spend(client_for(member), roll, "failure-to-success")
    assert "Only the GM turns a roll against a hidden difficulty" in response.text
    assert not Roll.objects.filter(kind="fudge-point").exists()
    spend(client_for(owner), roll, "failure-to-success")
    turned = Roll.objects.get(kind="fudge-point")
    assert turned.succeeded and turned.hidden_difficulty


def test_without_javascript_a_spend_goes_back_to_the_page_it_came_from(
    client_for, member, campaign, hero
):
    client = client_for(member)
    roll = check(client, campaign, hero)
    log = reverse("rolls:log", args=[campaign.pk]) + f"?character={hero.pk}"
    response = spend(client, roll, "reroll", htmx=False, next=log)
    assert response.status_code == 302 and response.url == log
    assert "Louie: Stealth (Fudge point)" in client.get(log).text
    newer = Roll.objects.get(kind="fudge-point")
    response = spend(client, newer, "reroll", htmx=False, next="https://evil.example/")
    assert response.url == reverse("rolls:table", args=[campaign.pk])


def test_spend_buttons_go_to_the_players_own_screen_and_every_gm(
    client_for, owner, member, campaign, hero, rival
):
    rival_user, _ = rival
    response = post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    assert "Spend a Fudge point of Louie" in response.text
    roll = Roll.objects.get()
    url = reverse("rolls:table", args=[campaign.pk])
    assert "Spend a Fudge point" in client_for(owner).get(url).text
    # The table's entries are pushed alike to every player, so they carry no spend buttons.
    assert "Spend a Fudge point" not in client_for(member).get(url).text
    log = reverse("rolls:log", args=[campaign.pk])
    assert "Spend a Fudge point of Louie" in client_for(member).get(log).text
    assert "Spend a Fudge point" not in client_for(rival_user).get(log).text
    spend(client_for(member), roll, "reroll")
    page = client_for(member).get(log).text
    assert page.count("Spend a Fudge point") == 1  # only on the newer roll
    assert client_for(owner).get(url).text.count("Spend a Fudge point") == 1


def test_a_point_passes_a_failed_check_of_superb_or_easier(client_for, member, campaign, hero):
    """Fudge Lite: "Automatically succeed at any unopposed roll of Superb or lower
    difficulty." """
    set_rules(campaign, fudge_point_uses=["auto-success"])
    client = client_for(member)
    superb = campaign_ruleset(campaign).ladder.value("Superb")
    data = roll_form(hero, trait(hero), difficulty=superb, modifiers="-9")
    assert "Succeed (Superb or easier)" in post_roll(client, campaign, data).text
    failed = Roll.objects.get(kind="check")
    spend(client, failed, "auto-success")
    passed = Roll.objects.get(kind="fudge-point")
    assert passed.succeeded and passed.snapshot["outcome"] == "success"
    assert points(hero) == 2
    too_hard = check(client, campaign, hero, difficulty=superb + 1, modifiers="-9")
    answer = spend(client, too_hard, "auto-success")
    assert "Only a difficulty of Superb or lower is passed by a point." in answer.text
    assert points(hero) == 2 and Roll.objects.filter(kind="fudge-point").count() == 1


def test_a_point_takes_plus_four_without_rolling_and_a_double_tap_pays_once(
    client_for, member, campaign, hero
):
    set_rules(campaign, fudge_point_uses=["plus-four"])
    client = client_for(member)
    first = check(client, campaign, hero, difficulty=1)
    key = fresh_key()
    spend(client, first, "plus-four", key=key)
    spend(client, first, "plus-four", key=key)
    four = Roll.objects.get(kind="fudge-point").snapshot
    assert four["roll"] == 4 and four["faces"] == [] and four["shown"] == []
    assert four["result"] == four["level"] + four["modifier"] + 4
    assert points(hero) == 2
