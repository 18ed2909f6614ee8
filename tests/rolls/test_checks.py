"""Trait checks through the roll form: the ruleset's modifiers, advantage dice, hidden
difficulties, secret rolls, untrained defaults, and who may roll for whom."""

import pytest
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from characters.models import Character
from fudgetable.rules import checks
from rolls import fragments
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import post_roll, roll_form, set_rules, trait

pytestmark = pytest.mark.django_db


def expected_result(campaign, snapshot) -> int:
    rules = campaign_ruleset(campaign).static_rules
    return rules.clamp(snapshot["level"] + snapshot["modifier"] + snapshot["roll"])


def test_a_players_check_is_logged_with_everything_as_rolled(client_for, member, campaign, hero):
    stealth = trait(hero, "Stealth")
    response = post_roll(client_for(member), campaign, roll_form(hero, stealth, difficulty=2))
    assert response.status_code == 200
    roll = Roll.objects.get()
    s = roll.snapshot
    assert (roll.kind, roll.character, roll.roller, roll.label) == (
        "check",
        hero,
        member,
        "Louie: Stealth",
    )
    assert s["trait"] == "Stealth" and s["level_name"] == "Poor (-1)"
    assert s["method"] == "4dF" and len(s["faces"]) == 4 and len(s["shown"]) == 4
    assert set(s["shown"]) <= {"⊞", "▢", "⊟"}
    assert s["result"] == expected_result(campaign, s)
    assert s["difficulty_name"] == "Good (+2)" and s["margin"] == s["result"] - 2
    assert s["outcome"] == ("success" if s["margin"] >= 0 else "failure")
    assert roll.succeeded is (s["margin"] >= 0)
    html = response.content.decode()
    assert "You rolled" in html and "Louie: Stealth" in html and "vs Good (+2)" in html


def test_fudge_lite_counts_only_the_largest_bonus_and_largest_penalty(
    client_for, owner, campaign, hero
):
    stealth = trait(hero, "Stealth")
    post_roll(client_for(owner), campaign, roll_form(hero, stealth, modifiers="+2 +1 -1 -3"))
    s = Roll.objects.get().snapshot
    assert s["modifiers"] == [2, 1, -1, -3]
    assert s["modifier"] == -1  # +2 and -3 count; +1 and -1 do not
    assert s["result"] == expected_result(campaign, s)


def test_fudge_1995_caps_the_modifiers_at_three(client_for, member, campaign, hero):
    set_rules(campaign, "fudge-1995")
    stealth = trait(hero, "Stealth")
    post_roll(client_for(member), campaign, roll_form(hero, stealth, modifiers="+2 +2 +1"))
    s = Roll.objects.get().snapshot
    assert s["modifier"] == 3
    post_roll(client_for(member), campaign, roll_form(hero, stealth, modifiers="-3 -2"))
    assert Roll.objects.first().snapshot["modifier"] == -3


def test_advantage_dice_replace_fudge_dice(client_for, member, campaign, hero):
    stealth = trait(hero, "Stealth")
    post_roll(client_for(member), campaign, roll_form(hero, stealth, advantage=2))
    s = Roll.objects.get().snapshot
    assert s["method"] == checks.dice_for(campaign_ruleset(campaign), advantage=2)
    assert "advantage" in s["method_label"] and len(s["faces"]) == 4


def test_advantage_and_disadvantage_in_one_roll_are_refused(client_for, member, campaign, hero):
    data = roll_form(hero, trait(hero), advantage=1, disadvantage=1)
    response = post_roll(client_for(member), campaign, data)
    assert "never mix in one roll" in response.content.decode()
    assert not Roll.objects.exists()


def test_a_hidden_difficulty_shows_only_to_gms(client_for, owner, member, outsider, campaign, hero):
    stealth = trait(hero, "Stealth")
    data = roll_form(hero, stealth, difficulty=6, hidden_difficulty="on")
    assert post_roll(client_for(owner), campaign, data).status_code == 200
    roll = Roll.objects.get()
    assert roll.hidden_difficulty and roll.snapshot["difficulty_name"] == "Good Superhuman (+6)"
    url = reverse("rolls:table", args=[campaign.pk])
    gm_page = client_for(owner).get(url).content.decode()
    assert "vs Good Superhuman (+6)" in gm_page and "hidden difficulty" in gm_page
    player_page = client_for(member).get(url).content.decode()
    log = player_page[player_page.index('id="roll-log"') :]
    assert "Louie: Stealth" in log and "Against a difficulty the GM keeps hidden" in log
    assert "Good Superhuman" not in player_page
    for word in ("margin", "uccess", "ailure", "beforehand"):
        assert word not in log
    assert client_for(outsider).get(url).status_code == 404


def test_a_player_cannot_hide_the_difficulty_or_roll_in_secret(client_for, member, campaign, hero):
    data = roll_form(hero, trait(hero), hidden_difficulty="on", secret="on")
    post_roll(client_for(member), campaign, data)
    roll = Roll.objects.get()
    assert not roll.hidden_difficulty and not roll.secret


def test_a_secret_roll_shows_players_only_that_the_gm_rolled(
    client_for, owner, member, campaign, villain
):
    poison = trait(villain, "Poisoncraft")
    post_roll(client_for(owner), campaign, roll_form(villain, poison, secret="on"))
    assert Roll.objects.get().secret
    url = reverse("rolls:table", args=[campaign.pk])
    assert "Zanzibar Quell: Poisoncraft" in client_for(owner).get(url).content.decode()
    page = client_for(member).get(url).content.decode()
    assert "The GM rolled (secret)" in page
    assert "Zanzibar" not in page and "Poisoncraft" not in page


@pytest.mark.parametrize(
    ("ruleset", "commonness", "level"),
    [
        ("fudge-lite", "everyone", 1),
        ("fudge-lite", "some", 0),
        ("fudge-lite", "specialised", -1),
        ("fudge-1995", "some", -1),
        ("ezfudge", "some", -1),
        ("peupfudge", "some", 0),
    ],
)
def test_untrained_checks_use_the_rulesets_default(
    client_for, member, campaign, hero, ruleset, commonness, level
):
    set_rules(campaign, ruleset)
    assert checks.untrained_level(campaign_ruleset(campaign), commonness=commonness) == level
    data = roll_form(hero, None, trait="untrained", commonness=commonness, difficulty=0)
    post_roll(client_for(member), campaign, data)
    roll = Roll.objects.get()
    assert roll.label == "Louie: untrained" and roll.snapshot["level"] == level


def test_observers_cannot_roll(client_for, observer, campaign, hero):
    response = post_roll(client_for(observer), campaign, roll_form(None, None, trait="untrained"))
    assert response.status_code == 403
    assert not Roll.objects.exists()


def test_outsiders_get_404_for_the_roll_form_and_the_odds(client_for, outsider, campaign, hero):
    response = post_roll(client_for(outsider), campaign, roll_form(hero, trait(hero)))
    assert response.status_code == 404
    odds = client_for(outsider).get(reverse("rolls:odds", args=[campaign.pk]))
    assert odds.status_code == 404
    assert not Roll.objects.exists()


def test_a_player_cannot_roll_for_another_players_pc_or_an_npc(
    client_for, member, campaign, hero, rival, villain
):
    _, marla = rival
    client = client_for(member)
    for character, row in ((marla, trait(marla)), (villain, trait(villain, "Poisoncraft"))):
        response = post_roll(client, campaign, roll_form(character, row))
        assert "you cannot roll for that character" in response.content.decode()
        # Naming only the trait does not get round it.
        response = post_roll(client, campaign, roll_form(None, row))
        assert "no such trait on a sheet you may roll for" in response.content.decode()
    assert not Roll.objects.exists()


def test_the_gm_rolls_for_anyone_and_the_trait_names_its_character(
    client_for, owner, campaign, hero, villain
):
    post_roll(client_for(owner), campaign, roll_form(None, trait(villain, "Poisoncraft")))
    roll = Roll.objects.get()
    assert roll.character == villain and roll.roller == owner


def test_ids_from_another_campaign_are_refused_with_a_message(
    client_for, owner, member, campaign, hero
):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    stranger = Character.objects.create(campaign=elsewhere, owner=member, name="Stranger")
    far_trait = trait(stranger, "Stealth", level=2)
    client = client_for(owner)
    cases = [
        (roll_form(stranger, far_trait), "you cannot roll for that character"),
        (roll_form(hero, far_trait), "no such trait on a sheet you may roll for"),
        # The largest id a form takes (a longer number is refused at the door: test_input_rule).
        (roll_form(None, None, trait="9" * 18), "no such trait on a sheet you may roll for"),
        (
            {**roll_form(None, None, trait="untrained"), "character": 10**18 - 1},
            "you cannot roll for",
        ),
    ]
    for data, message in cases:
        response = post_roll(client, campaign, data)
        assert response.status_code == 200 and message in response.content.decode()
        # Without JavaScript the same message comes back on the table page.
        data["key"] += "-plain"
        response = post_roll(client, campaign, data, htmx=False)
        assert response.status_code == 302
        assert message in client.get(response.url).content.decode()
    assert not Roll.objects.exists()


def test_bad_modifiers_are_refused_with_a_message(client_for, member, campaign, hero):
    client = client_for(member)
    for modifiers, message in (("+1 lots", "Write modifiers"), ("+11", "from -10 to +10")):
        data = roll_form(hero, trait(hero), modifiers=modifiers)
        assert message in post_roll(client, campaign, data).content.decode()
    assert not Roll.objects.exists()


def test_the_same_form_sent_twice_makes_one_roll(client_for, member, campaign, hero):
    data = roll_form(hero, trait(hero))
    client = client_for(member)
    first = post_roll(client, campaign, data)
    second = post_roll(client, campaign, data)
    assert first.status_code == second.status_code == 200
    assert Roll.objects.count() == 1
    assert post_roll(client, campaign, {**data, "key": data["key"] + "x"}).status_code == 200
    assert Roll.objects.count() == 2


def test_without_javascript_a_roll_redirects_with_its_summary(client_for, member, campaign, hero):
    client = client_for(member)
    response = post_roll(client, campaign, roll_form(hero, trait(hero)), htmx=False)
    assert response.status_code == 302
    page = client.get(response.url).content.decode()
    assert "Louie: Stealth:" in page


def test_the_odds_are_exact_and_charted(client_for, owner, member, campaign, hero):
    stealth = trait(hero, "Stealth", level=1)
    ruleset = campaign_ruleset(campaign)
    want = checks.chance(ruleset, level=1, difficulty=2, modifiers=(1, 2, -1))
    from fudgetable.rules.odds import success_chance

    assert want == success_chance(
        "4dF", level=1, difficulty=2, modifiers=(1, 2, -1), rules=ruleset.static_rules
    )
    query = {"kind": "check", "trait": stealth.pk, "difficulty": 2, "modifiers": "+1 +2 -1"}
    for user in (owner, member):
        html = client_for(user).get(reverse("rolls:odds", args=[campaign.pk]), query)
        text = html.content.decode()
        assert f"exactly {want}" in text and f"{round(float(want) * 100, 1)}%" in text
        assert "<svg" in text and "<rect" in text


def test_the_odds_explain_a_trait_they_cannot_read(client_for, member, campaign, villain):
    query = {"kind": "check", "trait": trait(villain, "Poisoncraft").pk}
    html = client_for(member).get(reverse("rolls:odds", args=[campaign.pk]), query)
    assert html.status_code == 200 and "no such trait" in html.content.decode()


# --- Fudge 1995 3.4: "If a high attribute could logically help an *untrained* skill, set the
# default at Mediocre." ------------------------------------------------------------------------


def test_a_high_attribute_raises_an_untrained_roll_to_mediocre_in_fudge_1995(
    client_for, member, campaign, hero
):
    set_rules(campaign, "fudge-1995")
    client = client_for(member)
    helped = roll_form(hero, None, trait="untrained", helped="on", difficulty=1)
    response = post_roll(client, campaign, helped)
    roll = Roll.objects.get()
    assert roll.snapshot["level"] == 0 and roll.snapshot["level_name"] == "Mediocre (0)"
    assert roll.snapshot["untrained_helped"] is True
    assert "Untrained, but a high attribute helps: Mediocre (0)" in response.text
    post_roll(client, campaign, roll_form(hero, None, trait="untrained", difficulty=1))
    plain = Roll.objects.first()
    assert plain.snapshot["level"] == -1 and "untrained_helped" not in plain.snapshot
    ruleset = campaign_ruleset(campaign)
    query = {"kind": "check", "character": hero.pk, "trait": "untrained", "difficulty": 1}
    url = reverse("rolls:odds", args=[campaign.pk])
    for ticked, level in (({"helped": "on"}, 0), ({}, -1)):
        want = checks.chance(ruleset, level=level, difficulty=1)
        assert f"exactly {want}" in client.get(url, {**query, **ticked}).text
    page = client.get(reverse("rolls:table", args=[campaign.pk])).text
    assert 'name="helped"' in page


def test_only_fudge_1995_offers_or_reads_the_high_attribute(client_for, member, campaign, hero):
    client = client_for(member)
    post_roll(client, campaign, roll_form(hero, None, trait="untrained", helped="on"))
    roll = Roll.objects.get()
    assert roll.snapshot["level"] == 0  # Fudge Lite's "some can": Mediocre anyway
    assert "untrained_helped" not in roll.snapshot
    assert 'name="helped"' not in client.get(reverse("rolls:table", args=[campaign.pk])).text


# --- Fudge 1995 3.3: "If a character has a secondary trait that could contribute
# significantly to a task, the GM may allow a +1 bonus if the trait is Good or better." -------


def test_verne_researches_at_great_helped_by_his_good_anthropology(
    client_for, owner, member, campaign, hero
):
    set_rules(campaign, "fudge-1995")
    research, anthropology = trait(hero, "Research", level=2), trait(hero, "Anthropology", 2)
    client = client_for(member)
    response = post_roll(client, campaign, roll_form(hero, research, helper=anthropology.pk))
    roll = Roll.objects.get()
    s = roll.snapshot
    assert s["helper"] == {"trait": "Anthropology", "level_name": "Good (+2)", "bonus": 1}
    assert s["modifiers"] == [1] and s["modifier"] == 1
    assert s["result"] == 2 + 1 + s["roll"]  # Great, before the dice
    line = "Helped by Anthropology (Good (+2)): +1"
    assert line in response.text
    assert "(helped by Anthropology +1)" in fragments.roll_summary(roll)
    for user in (owner, member):
        assert line in client_for(user).get(reverse("rolls:table", args=[campaign.pk])).text
    query = {"kind": "check", "trait": research.pk, "difficulty": 3, "helper": anthropology.pk}
    odds = client.get(reverse("rolls:odds", args=[campaign.pk]), query).text
    want = checks.chance(campaign_ruleset(campaign), level=2, difficulty=3, modifiers=(1,))
    assert f"exactly {want}" in odds and "with Anthropology&#x27;s +1" in odds


def test_a_second_trait_below_good_or_not_the_rollers_is_refused(
    client_for, owner, member, campaign, hero, villain, rival
):
    _, marla = rival
    research = trait(hero, "Research", level=2)
    client = client_for(member)
    cases = [
        (trait(hero, "Anthropology", level=1), "helps only at Good or better, not Fair (+1)"),
        (research, "pick a second trait, not the one rolled"),
        (trait(marla, "Anthropology", level=3), "helps only the character who has it"),
        (trait(villain, "Poisoncraft"), "helps only the character who has it"),
    ]
    for helper, message in cases:
        data = roll_form(hero, research, helper=helper.pk)
        assert message in post_roll(client, campaign, data).text
        data["key"] += "-plain"
        response = post_roll(client, campaign, data, htmx=False)
        assert response.status_code == 302 and message in client.get(response.url).text
    # Even the GM lends one character's trait only to that character.
    data = roll_form(villain, trait(villain, "Poisoncraft"), helper=research.pk)
    assert (
        "helps only the character who has it" in post_roll(client_for(owner), campaign, data).text
    )
    untrained = roll_form(None, None, trait="untrained", helper=research.pk)
    assert "helps only the character who has it" in post_roll(client, campaign, untrained).text
    assert not Roll.objects.exists()


def test_observers_and_outsiders_lend_no_trait(client_for, observer, outsider, campaign, hero):
    research, anthropology = trait(hero, "Research", 2), trait(hero, "Anthropology", 2)
    data = roll_form(hero, research, helper=anthropology.pk)
    assert post_roll(client_for(observer), campaign, data).status_code == 403
    assert post_roll(client_for(outsider), campaign, data).status_code == 404
    assert not Roll.objects.exists()


def test_peupfudge_offers_no_second_trait(client_for, member, campaign, hero):
    set_rules(campaign, "peupfudge")
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).text
    assert 'name="helper"' not in page
    data = roll_form(hero, trait(hero, "Climbing", 3), helper=trait(hero, "Strength", 3).pk)
    assert "this ladder has no Good" in post_roll(client_for(member), campaign, data).text
