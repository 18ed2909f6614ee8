"""EZFudge's melee optional rules at the table (EZFudge Essentials "Melee Optional Rules" and
"Optional Rule: Tactics"): a pulled punch, an aimed strike, and the manoeuvre test a successful
All-Out Defense allows, with its -1 on the opponent's next exchange. Dice are loaded."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from fudgetable.rules.errors import RulesError
from rolls.entry_words import entry_label
from rolls.fight.manoeuvres import fight_manoeuvre
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import fresh_key, set_rules
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import HTMX, attribute, fight_form, role

pytestmark = pytest.mark.django_db
MINUS = "\u2212"  # the log's minus sign


def post_fight(client, campaign, data, *, htmx=True):
    url = reverse("rolls:fight", args=[campaign.pk])
    return client.post(url, data, headers=HTMX if htmx else {})


def exchange_data(jason, brute, **extra):
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    return {**data, **extra}


def post_manoeuvre(client, roll, side, trait, *, htmx=True, **extra):
    url = reverse("rolls:fight_manoeuvre", args=[roll.campaign_id, roll.pk])
    data = {"side": side, "trait": trait.pk, "key": fresh_key(), **extra}
    return client.post(url, data, headers=HTMX if htmx else {})


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def wound_boxes(pc) -> list:
    pc.refresh_from_db()
    return [mark for level in pc.tracks.get("wounds", {}).get("levels", []) for mark in level]


def condition(npc) -> list:
    npc.refresh_from_db()
    return npc.tracks["condition"]["boxes"]


# --- pulling your punch -------------------------------------------------------------------


def test_a_pulled_punch_counts_a_worse_wound_as_the_cap_and_confirms_it(
    client_for, owner, ez, jason, brute, dice
):
    """ "any wound higher than a Scratch would be counted as a Scratch" ("to first blood")."""
    gm = client_for(owner)
    assert "Pull the punch, attack to stun or aim a strike" in table(gm, ez)
    assert '<option value="0">At most Scratch</option>' in table(gm, ez)
    dice(1, 0, 0, 0)  # Superb against Good: 3 damage, Hurt
    page = post_fight(gm, ez, exchange_data(jason, brute, attacker_pull="0")).content.decode()
    made = Roll.objects.get()
    (wound,) = made.snapshot["fight"]["wounds"]
    assert (wound["damage"], wound["level_name"], wound["pulled"]) == (3, "Scratch", True)
    assert made.snapshot["sides"][0]["pull_name"] == "Scratch"
    assert "pulling the punch (at most Scratch)" in page
    assert "a pulled punch counts it as Scratch" in page
    gm.post(reverse("rolls:fight_confirm", args=[ez.pk, made.pk]), headers=HTMX)
    assert condition(brute) == ["Scratch", None, None, None]


def test_only_the_gm_announces_a_pull_or_an_aim(
    client_for, member, observer, outsider, ez, jason, brute
):
    data = exchange_data(jason, brute, attacker_pull="0", attacker_aim="the eyes")
    assert post_fight(client_for(member), ez, data).status_code == 403
    assert post_fight(client_for(observer), ez, data).status_code == 403
    assert post_fight(client_for(outsider), ez, data).status_code == 404
    assert not Roll.objects.exists()


def test_a_pull_off_the_track_or_not_a_number_is_refused(client_for, owner, ez, jason, brute):
    gm = client_for(owner)
    page = post_fight(gm, ez, exchange_data(jason, brute, attacker_pull="9")).content.decode()
    assert "has no level 10" in page
    page = post_fight(gm, ez, exchange_data(jason, brute, defender_pull="x")).content.decode()
    assert "Check the fight form: defender pull." in page
    assert not Roll.objects.exists()


# --- aimed strikes ------------------------------------------------------------------------


def test_an_aimed_strike_lands_with_its_margin_and_the_log_says_what_it_does(
    client_for, owner, member, ez, jason, brute, dice
):
    aim = {
        "attacker_aim": "the club hand: the club drops",
        "attacker_aim_modifier": "-1",
        "attacker_aim_needs": "2",
    }
    gm = client_for(owner)
    dice(1, 1, 0, 0)  # Great -1 +2 = Superb against Good: margin 2
    page = post_fight(gm, ez, exchange_data(jason, brute, **aim)).content.decode()
    made = Roll.objects.get()
    assert made.snapshot["sides"][0]["modifiers"] == [-1]
    assert made.snapshot["fight"]["wounds"][0]["aimed"] == "landed"
    assert "aiming at the club hand: the club drops" in page
    assert "The aimed strike lands: the club hand: the club drops." in page
    player = client_for(member).get(reverse("rolls:log", args=[ez.pk])).content.decode()
    assert "The aimed strike lands: the club hand: the club drops." in player


def test_an_aimed_strike_short_of_its_margin_lands_where_the_foe_decides(
    client_for, owner, ez, jason, brute, dice
):
    """ "If the outcome is good enough to wound, but not good enough the meet the hit location
    requirement, the foe decides where the hit lands!\""""
    dice(1, 0, 0, 0)  # Great -1 +1 = Great against Good: margin 1, Scratch
    aim = {"attacker_aim": "the eyes", "attacker_aim_modifier": "-1", "attacker_aim_needs": "2"}
    page = post_fight(client_for(owner), ez, exchange_data(jason, brute, **aim)).content.decode()
    assert Roll.objects.get().snapshot["fight"]["wounds"][0]["aimed"] == "foe-decides"
    assert "Brute decides where the hit lands." in page


def test_an_aimed_strike_without_saying_at_what_is_refused(client_for, owner, ez, jason, brute):
    data = exchange_data(jason, brute, defender_aim_modifier="-2")
    page = post_fight(client_for(owner), ez, data).content.decode()
    assert "Say what the aimed strike aims at" in page
    assert not Roll.objects.exists()


# --- the damage options reach the exchange -----------------------------------------------


def test_the_damage_options_in_play_are_shown_with_the_die_they_rolled(
    client_for, owner, ez, jason, brute, dice
):
    set_rules(ez, damage_options=[2, 4])
    dice(1, 0, 0, 0, 0, 0, 0, 0)  # Jason's 4dF, then the wound's option 2 and 4 dice: 0, 0
    page = post_fight(client_for(owner), ez, exchange_data(jason, brute)).content.decode()
    assert "Damage options in play: 2, 4." in page
    assert "\u2212 CPD 4 +0 Fudge die)" in page


# --- All-Out Defense, then the manoeuvre --------------------------------------------------


def defend(client, campaign, jason, brute, dice):
    """Jason goes All-Out Defend: Great +2 against Good, he wins and injures nobody."""
    dice(0, 0, 0, 0)
    post_fight(client, campaign, exchange_data(jason, brute, attacker_tactic="all-out-defend"))
    return Roll.objects.get()


def test_a_successful_all_out_defense_offers_the_manoeuvre_and_its_success_costs_the_foe_1(
    client_for, owner, member, ez, jason, brute, dice
):
    gm = client_for(owner)
    held = defend(gm, ez, jason, brute, dice)
    assert held.snapshot["fight"]["defended"] == ["attacker"]
    page = table(gm, ez)
    assert "Jason Free held off Brute with All-Out Defend" in page
    assert reverse("rolls:fight_manoeuvre", args=[ez.pk, held.pk]) in page

    dice(0, 0, 0, 0)  # Great against Fair
    answer = post_manoeuvre(gm, held, "attacker", role(jason, "Quarterstaff for Hire"))
    test = Roll.objects.get(follows=held)
    assert entry_label(test) == "Manoeuvre: Jason Free after an All-Out Defense" and test.succeeded
    assert test.snapshot["fight"]["phase"] == "manoeuvre"
    assert f"Brute takes {MINUS}1 in their next exchange" in answer.content.decode()
    page = table(gm, ez)
    assert "held off" not in page  # tested once
    assert f"<strong>Brute</strong> takes {MINUS}1 in their next exchange" in page
    player_log = client_for(member).get(reverse("rolls:log", args=[ez.pk])).content.decode()
    assert f"Jason Free manoeuvres the fight; Brute takes {MINUS}1" in player_log

    dice(0, 0, 0, 0)
    post_fight(gm, ez, exchange_data(jason, brute))  # the following round
    following = Roll.objects.order_by("-pk").first()
    assert following is not None
    brute_side = following.snapshot["sides"][1]
    assert (brute_side["modifiers"], brute_side["outmanoeuvred_by"]) == ([-1], "Jason Free")
    assert following.snapshot["relative_degree"] == 3 - (2 - 1)
    assert "fight-pending" not in table(gm, ez)  # used

    confirm = reverse("rolls:fight_confirm", args=[ez.pk, held.pk])
    assert "dealt no wound to mark" in gm.post(confirm, headers=HTMX).content.decode()


def test_a_failed_manoeuvre_changes_nothing_and_a_second_request_rolls_nothing(
    client_for, owner, ez, jason, brute, dice
):
    gm = client_for(owner)
    held = defend(gm, ez, jason, brute, dice)
    dice(-1, -1, -1, 0)  # Great -3 = Mediocre, short of Fair
    post_manoeuvre(gm, held, "attacker", role(jason, "Quarterstaff for Hire"))
    post_manoeuvre(gm, held, "attacker", role(jason, "Quarterstaff for Hire"))
    (test,) = Roll.objects.filter(follows=held)
    assert test.succeeded is False
    page = table(gm, ez)
    assert "fight-pending" not in page and "held off" not in page
    assert "no manoeuvre; the fight goes on as it was" in page


def test_the_gm_rolls_an_npcs_manoeuvre_with_the_tables_dice(
    client_for, owner, ez, jason, brute, dice
):
    """ "(This would be a rare instance of the gamemaster rolling for an NPC.)\""""
    gm = client_for(owner)
    dice(-1, -1, 0, 0)  # Jason: Great -2 = Fair against the Brute's Good +2 = Superb
    data = exchange_data(jason, brute, defender_tactic="all-out-defend")
    post_fight(gm, ez, data)
    held = Roll.objects.get()
    assert held.snapshot["fight"]["defended"] == ["defender"]
    dice(1, 0, 0, 0)  # the Brute's own 4dF, though EZFudge NPCs roll nothing in a contest
    post_manoeuvre(gm, held, "defender", role(brute, "Fighter"))
    test = Roll.objects.get(follows=held)
    assert (test.snapshot["sides"][0]["roll"], test.snapshot["sides"][0]["result"]) == (1, 3)
    assert f"<strong>Jason Free</strong> takes {MINUS}1" in table(gm, ez)


def test_the_manoeuvre_is_the_gms_and_only_after_a_successful_all_out_defense(
    client_for, owner, member, observer, outsider, ez, jason, brute, dice
):
    gm = client_for(owner)
    held = defend(gm, ez, jason, brute, dice)
    staff = role(jason, "Quarterstaff for Hire")
    assert post_manoeuvre(client_for(member), held, "attacker", staff).status_code == 403
    assert post_manoeuvre(client_for(observer), held, "attacker", staff).status_code == 403
    assert post_manoeuvre(client_for(outsider), held, "attacker", staff).status_code == 404
    refused = post_manoeuvre(gm, held, "defender", role(brute, "Fighter")).content.decode()
    assert "The defender made no successful All-Out Defense" in refused
    wrong = post_manoeuvre(gm, held, "attacker", role(brute, "Fighter")).content.decode()
    assert "That trait is not on Jason Free&#x27;s sheet." in wrong
    bad = post_manoeuvre(gm, held, "nobody", staff).content.decode()
    assert "Check the manoeuvre form: side." in bad
    dice(1, 0, 0, 0)
    post_fight(gm, ez, exchange_data(jason, brute))
    plain = Roll.objects.order_by("-pk").first()
    assert plain is not None
    refused = post_manoeuvre(gm, plain, "attacker", staff).content.decode()
    assert "The attacker made no successful All-Out Defense" in refused
    assert not Roll.objects.filter(snapshot__fight__phase="manoeuvre").exists()
    # Jason has fought again since his defence: it is no longer on offer.
    assert "held off" not in table(gm, ez)
    response = post_manoeuvre(gm, held, "attacker", staff, htmx=False)
    assert response.status_code == 302
    assert "the fight has moved on since" in gm.get(response.url).content.decode()
    assert not Roll.objects.filter(snapshot__fight__phase="manoeuvre").exists()


def test_the_manoeuvre_service_refuses_a_player_and_a_roll_from_elsewhere(
    client_for, owner, ez, jason, brute, dice
):
    held = defend(client_for(owner), ez, jason, brute, dice)
    staff = role(jason, "Quarterstaff for Hire")
    player = Membership.objects.get(campaign=ez, role=Membership.Role.PLAYER)
    with pytest.raises(RulesError):
        fight_manoeuvre(membership=player, exchange=held, side="attacker", trait=staff, key="k" * 8)
    other = CampaignFactory(owner=owner, ruleset="ezfudge")
    gm_there = Membership.objects.get(campaign=other, role=Membership.Role.GM)
    with pytest.raises(RulesError) as error:
        fight_manoeuvre(
            membership=gm_there, exchange=held, side="attacker", trait=staff, key="k" * 8
        )
    assert error.value.setting == "roll"
    assert not Roll.objects.filter(snapshot__fight__phase="manoeuvre").exists()


# --- attacking to stun ---------------------------------------------------------------------


def test_an_attack_to_stun_marks_its_wound_as_a_stun(client_for, owner, ez, jason, brute, dice):
    """ "if the attack is successful enough to do injury, the injury is counted along the Stun
    level track": an NPC's condition track has no circles, so its boxes are named a stun."""
    gm = client_for(owner)
    assert "Attacking to stun: a wound is circled as a stun" in table(gm, ez)
    dice(1, 0, 0, 0)  # Superb against Good: 3 damage, Hurt
    page = post_fight(gm, ez, exchange_data(jason, brute, attacker_stun="on")).content.decode()
    made = Roll.objects.get()
    (wound,) = made.snapshot["fight"]["wounds"]
    assert (wound["level_name"], wound["stun"]) == ("Hurt", True)
    assert "attacking to stun" in page and "<strong>Hurt</strong> (stun)" in page
    gm.post(reverse("rolls:fight_confirm", args=[ez.pk, made.pk]), headers=HTMX)
    taken = [box for box in condition(brute) if box]
    assert taken and set(taken) == {"Hurt (stun)"}


def test_a_stun_that_would_be_a_scratch_has_no_effect_and_a_worse_one_is_circled(
    client_for, owner, ez, jason, brute, dice
):
    """ "What would be a Scratch has no effect; otherwise lightly circle the result." """
    gm = client_for(owner)
    brute_attacks = fight_form(
        brute, role(brute, "Fighter"), jason, role(jason, "Quarterstaff for Hire")
    )
    dice(-1, -1, -1, 0)  # Jason's Great rolls Fair against the Brute's Good: margin 1, a Scratch
    post_fight(gm, ez, {**brute_attacks, "attacker_stun": "on"})
    scratch = Roll.objects.get()
    assert scratch.snapshot["fight"]["wounds"][0]["level_name"] == "Scratch"
    gm.post(reverse("rolls:fight_confirm", args=[ez.pk, scratch.pk]), headers=HTMX)
    confirmed = Roll.objects.get(follows=scratch)
    assert (
        entry_label(confirmed)
        == "Wound marked on Jason Free: Scratch as a stun, which has no effect"
    )
    assert set(wound_boxes(jason)) <= {"clear"}

    attribute(jason, "Body", -2)  # a frail Jason: a low CPD, so the same blow hurts more
    Roll.objects.all().delete()
    dice(-1, -1, -1, -1)
    post_fight(gm, ez, {**brute_attacks, "attacker_stun": "on", "key": fresh_key()})
    hurt = Roll.objects.get()
    level = hurt.snapshot["fight"]["wounds"][0]["level_name"]
    assert level not in ("", "Scratch"), hurt.snapshot["fight"]["wounds"]
    gm.post(reverse("rolls:fight_confirm", args=[ez.pk, hurt.pk]), headers=HTMX)
    assert (
        entry_label(Roll.objects.get(follows=hurt))
        == f"Wound marked on Jason Free: {level} circled as a stun"
    )
    assert wound_boxes(jason).count("stun") == 1 and "wound" not in wound_boxes(jason)
