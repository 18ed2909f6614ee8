"""The GM's melee exchange at an EZFudge table: the roll, the proposed wound, the confirmation
that marks it once, and everyone else kept out. Dice are loaded through the dice module's
random source, so each exchange comes out as the test says."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Character, Trait
from characters.services import character_create, gear_add, trait_add
from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import fresh_key, set_rules
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import HTMX, fight_form, role, weapon

pytestmark = pytest.mark.django_db


def post_fight(client, campaign, data, *, htmx=True):
    url = reverse("rolls:fight", args=[campaign.pk])
    return client.post(url, data, headers=HTMX if htmx else {})


def confirm(client, roll, *, htmx=True, **data):
    url = reverse("rolls:fight_confirm", args=[roll.campaign_id, roll.pk])
    return client.post(url, data, headers=HTMX if htmx else {})


def jason_hits_brute(client, campaign, jason, brute, dice, **extra):
    dice(1, 0, 0, 0)  # Jason: Great +1 = Superb against the Brute's Good: margin 2
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    return post_fight(client, campaign, {**data, **extra})


def condition(npc: Character) -> list:
    npc.refresh_from_db()
    return npc.tracks["condition"]["boxes"]


# --- who may ------------------------------------------------------------------------------


def test_the_gm_gets_the_fight_panel_a_player_does_not_and_an_outsider_gets_404(
    client_for, owner, member, outsider, ez, jason, brute
):
    url = reverse("rolls:table", args=[ez.pk])
    page = client_for(owner).get(url).content.decode()
    assert 'id="fight"' in page and "Jason Free: Quarterstaff for Hire, Great (+3)" in page
    assert "Brute: Club" in page
    assert 'id="fight"' not in client_for(member).get(url).content.decode()
    assert client_for(outsider).get(url).status_code == 404


def test_a_player_may_not_roll_or_confirm_a_fight_and_an_outsider_gets_404(
    client_for, owner, member, outsider, ez, jason, brute, dice
):
    jason_hits_brute(client_for(owner), ez, jason, brute, dice)
    made = Roll.objects.get()
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    assert post_fight(client_for(member), ez, data).status_code == 403
    assert post_fight(client_for(outsider), ez, data).status_code == 404
    assert confirm(client_for(member), made).status_code == 403
    assert confirm(client_for(outsider), made).status_code == 404
    assert Roll.objects.count() == 1
    assert condition(brute) == [None] * 4
    assert client_for(owner).get(reverse("rolls:fight", args=[ez.pk])).status_code == 405


# --- the exchange and its wound -----------------------------------------------------------


def test_a_hit_shows_the_wound_and_confirming_marks_it_once(
    client_for, owner, ez, jason, brute, dice
):
    gm = client_for(owner)
    page = jason_hits_brute(gm, ez, jason, brute, dice).content.decode()
    made = Roll.objects.get()
    assert entry_label(made) == "Fight: Jason Free vs Brute" and made.kind == Roll.Kind.CONTEST
    (wound,) = made.snapshot["fight"]["wounds"]
    assert (wound["name"], wound["damage"], wound["level_name"]) == ("Brute", 3, "Hurt")
    assert (wound["margin"], wound["inj"], wound["cpd"]) == (2, 5, 4)
    assert "damage 3 = margin 2 + INJ 5 \u2212 CPD 4" in page and "Confirm: mark the wound" in page
    assert condition(brute) == [None] * 4  # proposed only

    answer = confirm(gm, made).content.decode()
    assert "Wound marked on Brute: Hurt (2 boxes)" in answer
    assert condition(brute) == ["Hurt", "Hurt", None, None]
    again = confirm(gm, made).content.decode()
    assert "Already marked" in again
    assert condition(brute) == ["Hurt", "Hurt", None, None]
    follow_up = Roll.objects.get(follows=made)
    assert follow_up.snapshot["marked"][0]["boxes"] == 2
    table = gm.get(reverse("rolls:table", args=[ez.pk])).content.decode()
    assert "Marked on the sheet." in table and "Confirm: mark the wound" not in table


def test_a_resent_form_rolls_once_and_the_trait_names_its_fighter(
    client_for, owner, ez, jason, brute, dice
):
    dice(1, 0, 0, 0)
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    data["attacker"] = ""
    gm = client_for(owner)
    post_fight(gm, ez, data)
    post_fight(gm, ez, data)
    assert Roll.objects.get().snapshot["sides"][0]["name"] == "Jason Free"


def test_a_pc_who_loses_takes_the_wound_on_the_wound_track(
    client_for, owner, ez, jason, brute, dice
):
    dice(-1, -1, -1, 0)  # Jason: Great -3 = Mediocre against Good: the Brute wins by 2
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    post_fight(client_for(owner), ez, data)
    made = Roll.objects.get()
    (wound,) = made.snapshot["fight"]["wounds"]
    assert (wound["name"], wound["damage"], wound["level_name"]) == ("Jason Free", 1, "Scratch")
    assert made.succeeded is False
    confirm(client_for(owner), made)
    jason.refresh_from_db()
    assert jason.tracks["wounds"]["levels"][0] == ["scratch", "clear", "clear"]


def test_a_draw_deals_no_wound_and_has_nothing_to_confirm(
    client_for, owner, ez, jason, brute, dice
):
    dice(0, 0, -1, 0)  # Good against Good
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    page = post_fight(client_for(owner), ez, data).content.decode()
    made = Roll.objects.get()
    assert made.snapshot["outcome"] == "draw" and made.succeeded is None
    assert "A draw: neither lands a blow." in page and "Confirm: mark" not in page
    answer = confirm(client_for(owner), made).content.decode()
    assert "That exchange dealt no wound to mark." in answer
    assert not Roll.objects.filter(follows=made).exists()


def test_the_campaigns_damage_options_apply_a_tie_scratches_both(
    client_for, owner, ez, jason, brute, dice
):
    set_rules(ez, damage_options=[3])
    dice(0, 0, -1, 0)
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    post_fight(client_for(owner), ez, data)
    made = Roll.objects.get()
    assert {w["name"] for w in made.snapshot["fight"]["wounds"]} == {"Jason Free", "Brute"}
    answer = confirm(client_for(owner), made).content.decode()
    assert "Wounds marked on Jason Free: Scratch; Brute: Scratch (1 box)" in answer
    assert condition(brute) == ["Scratch", None, None, None]


def test_the_gm_turns_damage_options_on_in_the_campaign_settings(client_for, owner, ez):
    ez.refresh_from_db()
    data = {"name": ez.name, "pitch": ez.pitch, "ruleset": "ezfudge", "version": ez.version}
    url = reverse("campaigns:settings", args=[ez.pk])
    client_for(owner).post(url, {**data, "advanced": '{"damage_options": [2, 1]}'})
    ez.refresh_from_db()
    assert ez.overrides["damage_options"] == [1, 2]
    refused = client_for(owner).post(url, {**data, "advanced": '{"damage_options": [7]}'})
    assert "damage_options: 7 is not one of 1, 2, 3, 4" in refused.content.decode()


def test_all_out_attack_turns_a_tie_into_the_foes_blow_with_2_more(
    client_for, owner, ez, jason, brute, dice
):
    dice(0, 0, -1, -1)  # Great +1 -2 = Good against Good: a tie, counted for the Brute
    data = fight_form(
        jason,
        role(jason, "Quarterstaff for Hire"),
        brute,
        role(brute, "Fighter"),
        attacker_tactic="all-out-attack",
    )
    page = post_fight(client_for(owner), ez, data).content.decode()
    (wound,) = Roll.objects.get().snapshot["fight"]["wounds"]
    assert (wound["name"], wound["bonus"], wound["damage"]) == ("Jason Free", 2, 0 + 3 - 4 + 2)
    assert "All-Out Attack" in page and "Brute wins the exchange." in page


def test_all_out_defend_wins_without_injuring(client_for, owner, ez, jason, brute, dice):
    dice(0, 0, 0, 0)
    data = fight_form(
        jason,
        role(jason, "Quarterstaff for Hire"),
        brute,
        role(brute, "Fighter"),
        attacker_tactic="all-out-defend",
        defender_position="-1",
    )
    page = post_fight(client_for(owner), ez, data).content.decode()
    made = Roll.objects.get()
    assert made.snapshot["relative_degree"] == 3 + 2 - (2 - 1)
    assert made.snapshot["fight"]["wounds"] == []
    assert "No wound this round." in page


def test_an_untrained_fighter_with_bare_hands_fights_at_poor(
    client_for, owner, ez, jason, brute, dice
):
    dice(0, 0, 0, 0)
    data = fight_form(brute, None, jason, role(jason, "Quarterstaff for Hire"))
    data["attacker_weapon"] = ""
    post_fight(client_for(owner), ez, data)
    attacker = Roll.objects.get().snapshot["sides"][0]
    assert (attacker["trait"], attacker["level_name"], attacker["weapon"]) == (
        "untrained",
        "Poor (-1)",
        "Unarmed",
    )
    assert attacker["inj"] == 1 - 1  # Body Fair, no helpful fighting role


# --- refusals -----------------------------------------------------------------------------


def test_a_fighter_below_poor_is_refused(client_for, owner, ez, jason, brute, dice):
    Trait.objects.filter(pk=role(brute, "Fighter").pk).update(level=-2)
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    page = post_fight(client_for(owner), ez, data).content.decode()
    assert "Poor or better" in page
    assert not Roll.objects.exists()


def test_a_campaign_without_a_wound_track_has_no_fights(client_for, owner, campaign, member):
    pc = character_create(campaign=campaign, owner=member, name="Louie")
    npc = character_create(campaign=campaign, owner=None, name="Guard", kind="npc")
    page = client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert 'id="fight"' not in page
    data = fight_form(pc, pc.traits.first(), npc, npc.traits.first())
    answer = post_fight(client_for(owner), campaign, data).content.decode()
    assert "this campaign&#x27;s rules have none" in answer
    response = post_fight(client_for(owner), campaign, {**data, "key": fresh_key()}, htmx=False)
    assert response.status_code == 302
    assert not Roll.objects.exists()


def test_ids_from_another_campaign_are_refused(client_for, owner, ez, jason, brute, dice):
    other = CampaignFactory(owner=owner, ruleset="ezfudge")
    stranger = character_create(campaign=other, owner=None, name="Stranger", kind="npc")
    trait_add(character=stranger, name="Knife Fighter", level=2, kind="role")
    knife = gear_add(character=stranger, kind="weapon", name="Knife", damage_factor=1)
    quarterstaff = role(jason, "Quarterstaff for Hire")
    fighter = role(brute, "Fighter")
    bad = [
        {"defender": stranger.pk},
        {"defender": "", "defender_trait": role(stranger, "Knife Fighter").pk},
        {"defender_weapon": knife.pk},
        {"attacker_weapon": weapon(brute).pk},  # the Brute's club in Jason's hands
        {"attacker_trait": fighter.pk},  # the Brute's trait on Jason
        {"attacker_trait": "9" * 18},  # the longest a form takes: longer is refused at the door
        {"defender": "", "defender_trait": "untrained"},
        {"defender": jason.pk, "defender_trait": quarterstaff.pk},  # Jason against himself
    ]
    gm = client_for(owner)
    for change in bad:
        data = {**fight_form(jason, quarterstaff, brute, fighter), **change}
        response = post_fight(gm, ez, data)
        assert response.status_code == 200
        assert "message-error" in response.content.decode(), change
    assert not Roll.objects.exists()
    dice(1, 0, 0, 0)
    theirs = Roll.objects.create(
        campaign=other,
        kind="contest",
        label="x",
        snapshot={"fight": {"wounds": []}},
        idempotency_key=fresh_key(),
    )
    url = reverse("rolls:fight_confirm", args=[ez.pk, theirs.pk])
    assert gm.post(url, headers=HTMX).status_code == 404


def test_a_self_powered_weapon_stays_out_of_melee(client_for, owner, ez, jason, brute):
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    gun = gear_add(character=jason, kind="weapon", name="Small Handgun", inj=3)
    page = post_fight(client_for(owner), ez, {**data, "attacker_weapon": gun.pk}).content.decode()
    assert "ranged phase" in page
    assert not Roll.objects.exists()


def test_only_a_fight_is_confirmed(client_for, owner, ez, jason, brute):
    check = Roll.objects.create(
        campaign=ez, kind="check", label="x", snapshot={}, idempotency_key=fresh_key()
    )
    answer = confirm(client_for(owner), check).content.decode()
    assert "not a fight exchange" in answer


# --- without JavaScript, and the log ------------------------------------------------------


def test_without_javascript_the_gm_is_sent_back_with_the_outcome(
    client_for, owner, ez, jason, brute, dice
):
    gm = client_for(owner)
    response = jason_hits_brute(gm, ez, jason, brute, dice, secret="on")
    assert response.status_code == 200  # htmx: the panel
    made = Roll.objects.get()
    assert made.secret
    log = reverse("rolls:log", args=[ez.pk])
    response = confirm(gm, made, htmx=False, next=log)
    assert response.status_code == 302 and response.url == log
    page = gm.get(log).content.decode()
    assert "Wound marked on Brute: Hurt (2 boxes)" in page and "after <a" in page
    dice(1, 0, 0, 0)
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    response = post_fight(gm, ez, data, htmx=False)
    assert "Brute: Hurt" in gm.get(response.url).content.decode()
    response = post_fight(gm, ez, {"key": fresh_key()}, htmx=False)
    assert response.status_code == 302
    assert "Check the fight form" in gm.get(response.url).content.decode()


def test_the_log_and_its_exports_read_a_fight_for_every_member(
    client_for, owner, member, ez, jason, brute, dice
):
    jason_hits_brute(client_for(owner), ez, jason, brute, dice)
    confirm(client_for(owner), Roll.objects.get())
    player = client_for(member)
    page = player.get(reverse("rolls:log", args=[ez.pk])).content.decode()
    assert "Brute: <strong>Hurt</strong>" in page and "Wound marked on Brute" in page
    assert "Confirm: mark" not in page
    markdown = player.get(reverse("rolls:log_markdown", args=[ez.pk])).content.decode()
    assert "Superb (+4) vs Brute Good (+2): success by +2; Brute: Hurt" in markdown
    assert "Wound marked on Brute: Hurt (2 boxes)" in markdown
    assert client_for(member).get(reverse("rolls:log_json", args=[ez.pk])).status_code == 200


def test_a_full_track_says_so(client_for, owner, ez, jason, brute, dice):
    Character.objects.filter(pk=brute.pk).update(
        tracks={"condition": {"boxes": ["", "", "", None]}}
    )
    jason_hits_brute(client_for(owner), ez, jason, brute, dice)
    answer = confirm(client_for(owner), Roll.objects.get()).content.decode()
    assert "Brute: Hurt (1 box, and the track is full)" in answer
    assert Membership.objects.filter(campaign=ez).count() == 2
