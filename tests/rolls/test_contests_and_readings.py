"""Opposed rolls (PC against NPC under the NPC roll mode, PC against PC) and the rolls with no
trait behind them: situational and NPC reaction rolls."""

import pytest
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from fudgetable.rules.dice import get_method
from fudgetable.rules.odds import opposed_success_chance
from fudgetable.rules.resolution import reaction, situational_result
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, post_roll, set_rules, trait

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def contest_form(character, row, opponent, opposing, **extra):
    return {
        "kind": "contest",
        "character": character.pk,
        "trait": row.pk,
        "opponent": opponent.pk,
        "opponent_trait": opposing.pk,
        "modifiers": "",
        "opponent_modifiers": "",
        "key": fresh_key(),
        **extra,
    }


def test_against_an_npc_under_none_the_npc_level_stands(client_for, owner, campaign, hero, villain):
    assert campaign_ruleset(campaign).npc_roll == "none"
    data = contest_form(hero, trait(hero), villain, trait(villain, "Poisoncraft"))
    data["opponent_modifiers"] = "+1"
    assert post_roll(client_for(owner), campaign, data).status_code == 200
    roll = Roll.objects.get()
    assert roll.kind == "contest" and roll.label == "Louie vs Zanzibar Quell"
    mine, theirs = roll.snapshot["sides"]
    assert len(mine["shown"]) == 4
    assert theirs["shown"] == [] and theirs["roll"] == 0
    assert theirs["method_label"] == get_method("none").label
    assert theirs["result"] == 2 + 1  # Poisoncraft Good, +1, and no dice
    assert roll.snapshot["relative_degree"] == mine["result"] - theirs["result"]


def test_against_an_npc_under_4df_the_npc_rolls_too(client_for, owner, campaign, hero, villain):
    set_rules(campaign, npc_roll="4dF")
    data = contest_form(hero, trait(hero), villain, trait(villain, "Poisoncraft"))
    post_roll(client_for(owner), campaign, data)
    roll = Roll.objects.get()
    _, theirs = roll.snapshot["sides"]
    assert len(theirs["shown"]) == 4 and theirs["method_label"] == get_method("4dF").label
    ruleset = campaign_ruleset(campaign)
    chance = opposed_success_chance(
        "4dF",
        "4dF",
        active_level=-1,
        passive_level=2,
        active_modifiers=(),
        passive_modifiers=(),
        rules=ruleset.opposed_rules,
    )
    assert roll.snapshot["chance"] == str(chance)


def test_a_player_rolls_their_pc_against_another_pc(client_for, member, campaign, hero, rival):
    _, marla = rival
    data = contest_form(hero, trait(hero, "Athletics"), marla, trait(marla, "Athletics"))
    response = post_roll(client_for(member), campaign, data)
    assert response.status_code == 200 and "Louie vs Marla" in response.content.decode()
    roll = Roll.objects.get()
    assert [len(side["shown"]) for side in roll.snapshot["sides"]] == [4, 4]
    assert roll.roller == member and roll.character == hero


def test_a_player_cannot_roll_against_an_npc_or_for_someone_else(
    client_for, member, outsider, campaign, hero, rival, villain
):
    _, marla = rival
    client = client_for(member)
    data = contest_form(hero, trait(hero), villain, trait(villain, "Poisoncraft"))
    assert "pick an opponent you may roll against" in post_roll(client, campaign, data).text
    data = contest_form(marla, trait(marla), hero, trait(hero))
    assert "you cannot roll for that character" in post_roll(client, campaign, data).text
    data = contest_form(hero, trait(hero), hero, trait(hero, "Athletics"))
    assert "cannot oppose itself" in post_roll(client, campaign, data).text
    data = contest_form(hero, trait(hero), marla, trait(marla))
    assert post_roll(client_for(outsider), campaign, data).status_code == 404
    assert not Roll.objects.exists()


def test_an_opponent_trait_of_someone_else_is_refused(client_for, owner, campaign, hero, villain):
    data = contest_form(hero, trait(hero), villain, trait(hero, "Athletics"))
    response = post_roll(client_for(owner), campaign, data)
    assert "one of its traits" in response.text
    assert not Roll.objects.exists()


def test_a_situational_roll_reads_from_fair(client_for, owner, member, campaign):
    data = {"kind": "situational", "label": "Is the ferry late?", "modifiers": "+1"}
    response = post_roll(client_for(member), campaign, {**data, "key": fresh_key()})
    assert response.status_code == 200
    roll = Roll.objects.get()
    s = roll.snapshot
    assert roll.kind == "situational" and roll.label == "Is the ferry late?"
    rules = campaign_ruleset(campaign).static_rules
    assert s["result"] == situational_result(s["roll"], (1,), rules) and s["reaction"] == ""
    assert roll.succeeded is None and "difficulty" not in s


def test_a_reaction_roll_says_how_the_npc_reacts(client_for, owner, member, campaign):
    data = {"kind": "reaction", "label": "The harbourmaster", "modifiers": "-1", "key": fresh_key()}
    post_roll(client_for(owner), campaign, {**data, "secret": "on"})
    roll = Roll.objects.get()
    rules = campaign_ruleset(campaign).static_rules
    assert roll.kind == "reaction" and roll.secret
    assert roll.snapshot["reaction"] == reaction(roll.snapshot["roll"], (-1,), rules).reaction
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).text
    assert "The GM rolled (secret)" in page and "harbourmaster" not in page
    gm_page = client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).text
    assert "The harbourmaster" in gm_page and roll.snapshot["reaction"] in gm_page


def test_a_reading_without_a_label_is_named_for_its_kind(client_for, member, campaign):
    post_roll(client_for(member), campaign, {"kind": "situational", "key": fresh_key()})
    assert Roll.objects.get().label == "Situational roll"


def test_a_fudge_point_on_an_opposed_roll_follows_it_and_moves_only_the_spenders_side(
    client_for, member, rival, campaign, hero
):
    set_rules(campaign, fudge_point_uses=["alter-by-one", "auto-success"])
    rival_user, marla = rival
    # Good: even a roll of -4 lands on Fudge Lite's floor (-2), not below it, so +1 always
    # moves the result.
    mine, theirs = trait(hero, "Athletics", level=2), trait(marla, "Athletics", level=1)
    data = contest_form(hero, mine, marla, theirs)
    answer = post_roll(client_for(member), campaign, data).content.decode()
    assert 'value="alter-by-one"' in answer
    assert 'value="auto-success"' not in answer  # "unopposed" only
    first = Roll.objects.get()
    url = reverse("rolls:fudge_point", args=[campaign.pk, first.pk])
    client_for(member).post(url, {"use": "alter-by-one", "key": fresh_key()}, headers=HX)
    spent = Roll.objects.get(follows=first)
    active, passive = spent.snapshot["sides"]
    assert spent.kind == "contest" and spent.snapshot["fudge_point_use"] == "alter-by-one"
    assert active["roll"] == first.snapshot["sides"][0]["roll"] + 1
    assert passive == first.snapshot["sides"][1]
    assert spent.snapshot["relative_degree"] == first.snapshot["relative_degree"] + 1
    hero.refresh_from_db()
    assert hero.fudge_points == 2
    refused = client_for(rival_user).post(
        reverse("rolls:fudge_point", args=[campaign.pk, spent.pk]),
        {"use": "alter-by-one", "key": fresh_key()},
        headers=HX,
    )
    assert refused.status_code == 403  # Marla's player does not spend Louie's points
