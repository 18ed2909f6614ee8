"""Opposed rolls (PC against NPC under the NPC roll mode, PC against PC) and the rolls with no
trait behind them: situational and NPC reaction rolls."""

from fractions import Fraction

import pytest
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from fudgetable.rules import checks
from fudgetable.rules.dice import get_method
from fudgetable.rules.odds import opposed_success_chance
from fudgetable.rules.resolution import reaction, situational_result
from rolls.entry_words import entry_label
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
    assert roll.kind == "contest" and entry_label(roll) == "Louie vs Zanzibar Quell"
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
    assert entry_label(Roll.objects.get()) == "Situational roll"


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


# --- Fudge 1995 3.5: "Some Opposed actions have a minimum level needed for success." ---------


def test_a_mediocre_telepath_fails_a_fair_minimum_against_a_poor_will(
    client_for, owner, member, campaign, hero, villain
):
    """F95 3.5: "If the telepath only gets a Mediocre result, it doesn't matter if the intended
    victim rolls a Poor resistance: the attempt fails." Nobody rolls dice here, so each side's
    result is its level."""
    set_rules(campaign, "fudge-1995", opposed_dice="none", npc_roll="none")
    telepathy, will = trait(hero, "Telepathy", level=0), trait(villain, "Will", level=-1)
    data = contest_form(hero, telepathy, villain, will, minimum=1)
    response = post_roll(client_for(owner), campaign, data)
    roll = Roll.objects.get()
    s = roll.snapshot
    assert [side["result"] for side in s["sides"]] == [0, -1] and s["relative_degree"] == 1
    assert s["outcome"] == "failure" and roll.succeeded is False
    assert s["minimum"] == 1 and s["minimum_name"] == "Fair (+1)"
    assert s["chance"] == "0"
    words = "Needed at least Fair (+1): fell short, so it fails whatever the other side rolled"
    assert words in response.text
    assert words in client_for(member).get(reverse("rolls:table", args=[campaign.pk])).text
    post_roll(client_for(owner), campaign, contest_form(hero, telepathy, villain, will))
    assert Roll.objects.first().snapshot["outcome"] == "success"  # no minimum: +1 wins
    trait(hero, "Telepathy", level=1)
    post_roll(client_for(owner), campaign, contest_form(hero, telepathy, villain, will, minimum=1))
    fair = Roll.objects.first()
    assert fair.snapshot["outcome"] == "success"
    assert (
        "Needed at least Fair (+1)</p>"
        in client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).text
    )


def test_a_fudge_point_on_an_opposed_roll_still_needs_its_minimum(
    client_for, owner, member, campaign, hero, villain
):
    """A Poor telepath beats a Terrible will by one but falls short of Fair; a Fudge point's
    +1 makes it Mediocre, still short: the spend does not drop the minimum."""
    set_rules(
        campaign,
        "fudge-1995",
        opposed_dice="none",
        npc_roll="none",
        fudge_point_uses=["alter-by-one"],
    )
    telepathy, will = trait(hero, "Telepathy", level=-1), trait(villain, "Will", level=-2)
    post_roll(client_for(owner), campaign, contest_form(hero, telepathy, villain, will, minimum=1))
    first = Roll.objects.get()
    assert first.snapshot["outcome"] == "failure"
    url = reverse("rolls:fudge_point", args=[campaign.pk, first.pk])
    client_for(member).post(url, {"use": "alter-by-one", "key": fresh_key()}, headers=HX)
    spent = Roll.objects.get(follows=first)
    assert spent.snapshot["sides"][0]["result"] == 0 and spent.snapshot["minimum"] == 1
    assert spent.snapshot["outcome"] == "failure" and spent.succeeded is False


def test_the_odds_of_an_opposed_roll_count_its_minimum(client_for, member, campaign, hero, rival):
    _, marla = rival
    mine, theirs = trait(hero, "Telepathy", level=0), trait(marla, "Will", level=-1)
    query = {
        "kind": "contest",
        "trait": mine.pk,
        "opponent": marla.pk,
        "opponent_trait": theirs.pk,
        "minimum": 1,
    }
    page = client_for(member).get(reverse("rolls:odds", args=[campaign.pk]), query).text
    want = checks.contest_odds(
        campaign_ruleset(campaign), active_level=0, passive_level=-1, minimum=1
    )
    assert want.reaches_minimum == Fraction(31, 81)
    assert f"exactly {want.chance}" in page
    assert "needing at least Fair (+1), reached 38.3% of the time" in page
    data = contest_form(hero, mine, marla, theirs, minimum=1)
    post_roll(client_for(member), campaign, data)
    assert Roll.objects.get().snapshot["chance"] == str(want.chance)


def test_a_minimum_off_the_ladder_is_refused(client_for, owner, campaign, hero, villain):
    data = contest_form(hero, trait(hero), villain, trait(villain, "Poisoncraft"), minimum=99)
    response = post_roll(client_for(owner), campaign, data)
    assert "less than or equal to 60" in response.text
    assert not Roll.objects.exists()


def test_a_second_trait_helps_the_active_side_of_an_opposed_roll(
    client_for, member, observer, outsider, campaign, hero, rival
):
    _, marla = rival
    mine, theirs = trait(hero, "Seduction", level=2), trait(marla, "Will", level=1)
    appearance = trait(hero, "Appearance", level=3)
    data = contest_form(hero, mine, marla, theirs, helper=appearance.pk)
    for user, status in ((observer, 403), (outsider, 404)):
        assert post_roll(client_for(user), campaign, data).status_code == status
    response = post_roll(client_for(member), campaign, data)
    active, _ = Roll.objects.get().snapshot["sides"]
    assert active["helper"] == {"trait": "Appearance", "level_name": "Great (+3)", "bonus": 1}
    assert active["modifier"] == 1
    assert "Helped by Appearance (Great (+3)): +1" in response.text
    query = {**data, "key": ""}
    page = client_for(member).get(reverse("rolls:odds", args=[campaign.pk]), query).text
    want = checks.contest_odds(
        campaign_ruleset(campaign), active_level=2, passive_level=1, active_modifiers=(1,)
    )
    assert f"exactly {want.chance}" in page and "with Appearance&#x27;s +1" in page
