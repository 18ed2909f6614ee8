"""Odds before every roll from the table: an opposed roll (against an NPC by the campaign's NPC
roll mode, or a PC), a situational roll and an NPC's reaction, exact and charted."""

import pytest
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from fudgetable.rules import checks
from rolls.models import Roll
from tests.rolls.conftest import set_rules, trait

pytestmark = pytest.mark.django_db


def odds(client, campaign, **params):
    return client.get(reverse("rolls:odds", args=[campaign.pk]), params)


def test_the_gm_sees_the_chance_of_beating_an_npc_under_its_roll_mode(
    client_for, owner, campaign, hero, villain
):
    for mode in ("none", "2dF"):
        set_rules(campaign, npc_roll=mode)
        ruleset = campaign_ruleset(campaign)
        stealth, poison = trait(hero, "Stealth", level=2), trait(villain, "Poisoncraft")
        want = checks.contest_odds(
            ruleset, active_level=2, passive_level=2, active_modifiers=(1,), passive_is_npc=True
        ).chance
        page = odds(
            client_for(owner),
            campaign,
            kind="contest",
            trait=stealth.pk,
            modifiers="+1",
            opponent=villain.pk,
            opponent_trait=poison.pk,
        )
        text = page.content.decode()
        assert f"exactly {want}" in text
        assert "to win against Zanzibar Quell (Poisoncraft)" in text
        assert "by +1:" in text and "<svg" in text


def test_a_player_sees_the_odds_against_another_pc_but_not_an_npc(
    client_for, member, campaign, hero, villain, rival
):
    _, marla = rival
    stealth, notice = trait(hero, "Stealth", level=1), trait(marla, "Notice", level=1)
    page = odds(
        client_for(member),
        campaign,
        kind="contest",
        trait=stealth.pk,
        opponent=marla.pk,
        opponent_trait=notice.pk,
    )
    want = checks.contest_odds(campaign_ruleset(campaign), active_level=1, passive_level=1)
    assert f"exactly {want.chance}" in page.content.decode()
    hidden = odds(
        client_for(member),
        campaign,
        kind="contest",
        trait=stealth.pk,
        opponent=villain.pk,
        opponent_trait=trait(villain, "Poisoncraft").pk,
    )
    assert "Poisoncraft" not in hidden.content.decode()
    assert hidden.context["odds_error"].startswith("pick an opponent you may roll against")


def test_an_opposed_roll_without_an_opponent_says_what_is_missing(
    client_for, member, campaign, hero
):
    page = odds(client_for(member), campaign, kind="contest", trait=trait(hero, "Stealth").pk)
    assert "Pick the opponent and the trait they oppose with." in page.content.decode()


def test_a_situational_roll_shows_each_result_and_a_reaction_each_band(
    client_for, owner, member, observer, outsider, campaign
):
    for person in (owner, member, observer):
        text = odds(client_for(person), campaign, kind="situational").content.decode()
        assert "Each result, read from Fair" in text
        assert "Good (+2): 19.8%" in text and "Fair (+1): 23.5%" in text
    reaction = odds(client_for(owner), campaign, kind="reaction", modifiers="+1").content.decode()
    # +1: reacts well on a roll of 0 or better (50/81), mildly helpful on -1 (16/81)
    assert "reacts well <strong>61.7%</strong>" in reaction
    assert "mildly helpful <strong>19.8%</strong>" in reaction
    assert "unhelpful <strong>18.5%</strong>" in reaction
    assert odds(client_for(outsider), campaign, kind="situational").status_code == 404


def test_the_poker_deck_shows_the_odds_of_what_is_left_and_the_log_keeps_them(
    client_for, member, campaign, hero
):
    """The seed's two decks, reshuffled after any Ace: a pile of two cards left."""
    set_rules(campaign, dice="deck")
    campaign.deck = {"pile": ["AH", "KS"]}
    campaign.save(update_fields=["deck"])
    stealth = trait(hero, "Stealth", level=1)
    page = odds(client_for(member), campaign, kind="check", trait=stealth.pk, difficulty=4)
    assert "exactly 1/2" in page.content.decode()
    post = reverse("rolls:roll", args=[campaign.pk])
    data = {"kind": "check", "trait": stealth.pk, "difficulty": 4, "key": "deck-roll-0001"}
    client_for(member).post(post, data, headers={"HX-Request": "true"})
    snapshot = Roll.objects.get().snapshot
    assert snapshot["faces"] == ["AH"] and snapshot["chance"] == "1/2"


def test_peupfudge_odds_are_those_of_its_own_roll(client_for, member, campaign, hero):
    """Peupfudge 2: level + ability + roll against the difficulty, with its own dice."""
    set_rules(campaign, "peupfudge")
    muscle = trait(hero, "Muscle", level=3)
    ruleset = campaign_ruleset(campaign)
    want = checks.chance(ruleset, level=3, difficulty=4)
    page = odds(client_for(member), campaign, kind="check", trait=muscle.pk, difficulty=4)
    assert f"exactly {want}" in page.content.decode()
