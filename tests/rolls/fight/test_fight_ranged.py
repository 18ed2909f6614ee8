"""EZFudge's ranged phase at the table (EZFudge Essentials "Fight Scenes": "Shooting is ranged
action", "The Combat Round" step 3, "Ranged Optional Rules"): the GM rolls a shot, the log
proposes the wound, the GM confirms it as a melee exchange's; everyone else is kept out. The
Brute is an NPC: EZFudge's foes roll nothing, so his shots need no loaded dice."""

import pytest
from django.urls import reverse

from characters.services import character_create, gear_add
from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, set_rules
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import HTMX, fight_form, ranged_form, role, weapon

pytestmark = pytest.mark.django_db
MINUS = "\u2212"


def shoot(client, campaign, data, *, htmx=True):
    url = reverse("rolls:fight_ranged", args=[campaign.pk])
    return client.post(url, data, headers=HTMX if htmx else {})


def brute_shoots_jason(brute, crossbow, jason, **extra):
    return ranged_form(brute, role(brute, "Fighter"), crossbow, jason, **extra)


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


# --- who may ------------------------------------------------------------------------------


def test_the_gm_gets_the_ranged_form_with_only_self_powered_weapons(
    client_for, owner, member, ez, jason, brute, crossbow
):
    page = table(client_for(owner), ez)
    assert "Roll a ranged exchange" in page
    assert f'<option value="{crossbow.pk}">Brute: Crossbow (INJ 5)</option>' in page
    assert "Touch (T): Mediocre (0)" in page and "Long (L): Great (+3)" in page
    assert f'<option value="{crossbow.pk}">Brute: Crossbow</option>' not in page  # not melee
    assert "Roll a ranged exchange" not in table(client_for(member), ez)


def test_a_player_or_observer_may_not_shoot_and_an_outsider_gets_404(
    client_for, owner, member, observer, outsider, ez, jason, brute, crossbow
):
    data = brute_shoots_jason(brute, crossbow, jason)
    assert shoot(client_for(member), ez, data).status_code == 403
    assert shoot(client_for(observer), ez, data).status_code == 403
    assert "Roll a ranged exchange" not in table(client_for(observer), ez)
    assert shoot(client_for(outsider), ez, data).status_code == 404
    assert client_for(owner).get(reverse("rolls:fight_ranged", args=[ez.pk])).status_code == 405
    assert not Roll.objects.exists()


# --- the shot and its wound ---------------------------------------------------------------


def test_a_hit_proposes_the_wound_and_confirming_marks_it_on_the_pc(
    client_for, owner, member, ez, jason, brute, crossbow
):
    """Good Fighter, no roll (an EZFudge foe), at Touch range: Mediocre, margin 2; damage
    2 + INJ 5 - CPD 4 = 3, Hurt."""
    gm = client_for(owner)
    page = shoot(gm, ez, brute_shoots_jason(brute, crossbow, jason, range="T")).content.decode()
    made = Roll.objects.get()
    assert entry_label(made) == "Shot: Brute at Jason Free" and made.succeeded
    fight = made.snapshot["fight"]
    assert (fight["phase"], fight["result"], fight["difficulty"]) == ("ranged", "hit", 0)
    assert fight["conditions"] == "Touch (T), Good light, No cover"
    assert len(made.snapshot["sides"]) == 1  # Jason does not evade: he rolls nothing
    (wound,) = fight["wounds"]
    assert (wound["name"], wound["damage"], wound["level_name"]) == ("Jason Free", 3, "Hurt")
    assert "Brute hits Jason Free." in page and "Difficulty Mediocre (0): Touch (T)" in page
    assert "Confirm: mark the wound" in page

    answer = gm.post(reverse("rolls:fight_confirm", args=[ez.pk, made.pk]), headers=HTMX)
    assert "Wound marked on Jason Free: Hurt" in answer.content.decode()
    jason.refresh_from_db()
    assert jason.tracks["wounds"]["levels"][1] == ["wound", "clear"]
    log = client_for(member).get(reverse("rolls:log", args=[ez.pk])).content.decode()
    assert "Brute hits Jason Free." in log and "Confirm: mark" not in log
    markdown = client_for(member).get(reverse("rolls:log_markdown", args=[ez.pk]))
    assert "Shot: Brute at Jason Free: Brute Good (+2): success by +2" in markdown.content.decode()


def test_an_evading_target_rolls_and_the_better_of_difficulty_and_evade_is_the_bar(
    client_for, owner, ez, jason, brute, crossbow, dice
):
    """ "only one die roll per phase": Jason's is the Target Evade."""
    dice(1, 0, 0, 0)  # Jason evades with Agility: Good +1 = Great
    agility = role(jason, "Agility")
    data = brute_shoots_jason(brute, crossbow, jason, evade=agility.pk, target="")
    page = shoot(client_for(owner), ez, data).content.decode()
    made = Roll.objects.get()
    _, evader = made.snapshot["sides"]
    assert (evader["name"], evader["trait"], evader["result"]) == ("Jason Free", "Agility", 3)
    assert made.snapshot["fight"]["bar_name"] == "Great (+3)"
    assert made.snapshot["relative_degree"] == 2 - 3 and made.succeeded is False
    assert made.snapshot["fight"]["wounds"] == []
    assert "Brute misses Jason Free." in page and "the better of it and the evade" in page
    assert "Confirm: mark" not in page


def test_the_gm_may_set_the_difficulty_instead_of_the_helper(
    client_for, owner, ez, jason, brute, crossbow
):
    data = brute_shoots_jason(brute, crossbow, jason, range="L", difficulty="-1")
    page = shoot(client_for(owner), ez, data).content.decode()
    fight = Roll.objects.get().snapshot["fight"]
    assert (fight["difficulty"], fight["conditions"]) == (-1, "")
    assert fight["wounds"][0]["damage"] == 3 + 5 - 4
    assert "Difficulty Poor (-1): the GM's call" in page


def test_option_4_is_the_gms_choice_for_each_shot(
    client_for, owner, ez, jason, brute, crossbow, dice
):
    """ "I think 4 might be best for ranged phase only": the campaign's setting is the default,
    and the form's box turns it on or off for this shot."""
    gm = client_for(owner)
    assert 'name="shift_die" checked' not in table(gm, ez)
    dice(1)  # option 4's die: the wound shifts up a level
    shoot(gm, ez, brute_shoots_jason(brute, crossbow, jason, range="T", shift_die="on"))
    made = Roll.objects.get()
    assert made.snapshot["fight"]["options"] == [4]
    assert made.snapshot["fight"]["wounds"][0]["level_name"] == "Very Hurt"
    set_rules(ez, damage_options=[3, 4])
    assert 'name="shift_die" checked' in table(gm, ez)
    shoot(gm, ez, brute_shoots_jason(brute, crossbow, jason, range="T"))  # box left empty
    latest = Roll.objects.order_by("-pk").first()
    assert latest is not None and latest.snapshot["fight"]["options"] == []


def test_an_aimed_shot_says_where_it_lands(client_for, owner, ez, jason, brute, crossbow):
    aim = {"shooter_aim": "the lantern", "shooter_aim_modifier": "-1", "shooter_aim_needs": "2"}
    data = brute_shoots_jason(brute, crossbow, jason, range="T", **aim)
    page = shoot(client_for(owner), ez, data).content.decode()
    (wound,) = Roll.objects.get().snapshot["fight"]["wounds"]
    assert (wound["margin"], wound["aimed"]) == (1, "foe-decides")
    assert "aimed at the lantern" in page
    assert "Jason Free decides where the hit lands." in page


def test_a_pc_shoots_with_the_campaigns_dice_and_an_outmanoeuvred_shooter_takes_1_less(
    client_for, owner, ez, jason, brute, dice
):
    gm = client_for(owner)
    gun = gear_add(character=jason, kind="weapon", name="Large Handgun", inj=5)
    # In melee the Brute goes All-Out Defend, holds Jason off, and outmanoeuvres him.
    dice(-1, -1, 0, 0)  # Jason Fair against the Brute's Good +2
    data = fight_form(jason, role(jason, "Quarterstaff for Hire"), brute, role(brute, "Fighter"))
    gm.post(
        reverse("rolls:fight", args=[ez.pk]),
        {**data, "defender_tactic": "all-out-defend"},
        headers=HTMX,
    )
    held = Roll.objects.get()
    dice(1, 0, 0, 0)
    url = reverse("rolls:fight_manoeuvre", args=[ez.pk, held.pk])
    gm.post(url, {"side": "defender", "trait": role(brute, "Fighter").pk, "key": fresh_key()})
    dice(1, 1, 0, 0)  # Jason shoots: Good (Agility) -1 +2 = Great against Fair
    shoot(gm, ez, ranged_form(jason, role(jason, "Agility"), gun, brute))
    shot = Roll.objects.order_by("-pk").first()
    assert shot is not None
    shooter = shot.snapshot["sides"][0]
    assert (shooter["modifiers"], shooter["outmanoeuvred_by"], shooter["roll"]) == (
        [-1],
        "Brute",
        2,
    )
    assert shot.snapshot["relative_degree"] == 2 - 1 + 2 - 1
    assert "fight-pending" not in table(gm, ez)  # the -1 is used


# --- refusals -----------------------------------------------------------------------------


def test_a_muscle_powered_weapon_or_anothers_weapon_is_refused(
    client_for, owner, ez, jason, brute, crossbow
):
    gm = client_for(owner)
    club = weapon(brute)
    page = shoot(gm, ez, brute_shoots_jason(brute, club, jason)).content.decode()
    assert "Club is a melee weapon: it fights in melee" in page
    staff = weapon(jason)
    page = shoot(gm, ez, brute_shoots_jason(brute, staff, jason)).content.decode()
    assert "That is not one of Brute&#x27;s weapons." in page
    assert not Roll.objects.exists()


def test_bad_targets_and_bad_fields_are_refused_with_a_message(
    client_for, owner, ez, jason, brute, crossbow
):
    gm = client_for(owner)
    bad = [
        ({"target": ""}, "Pick the target from this table."),
        ({"target": brute.pk}, "A character cannot shoot itself."),
        ({"evade": role(brute, "Fighter").pk}, "That trait is not on Jason Free&#x27;s sheet."),
        ({"evade": "untrained", "target": ""}, "An untrained target still needs a name"),
        ({"range": "X"}, "Check the ranged form: range."),
        ({"difficulty": "99"}, "Check the ranged form: difficulty."),
        ({"shooter_weapon": ""}, "Pick the weapon shot or thrown: a gun, or a bow or the like"),
        ({"shooter_aim_needs": "2"}, "Say what the aimed shot aims at"),
    ]
    for change, words in bad:
        data = {**brute_shoots_jason(brute, crossbow, jason), **change}
        response = shoot(gm, ez, data)
        assert response.status_code == 200
        assert words in response.content.decode(), change
    assert not Roll.objects.exists()


def test_a_campaign_without_a_wound_track_has_no_ranged_phase(client_for, owner, campaign, member):
    pc = character_create(campaign=campaign, owner=member, name="Louie")
    npc = character_create(campaign=campaign, owner=None, name="Guard", kind="npc")
    gun = gear_add(character=npc, kind="weapon", name="Pistol", inj=3)
    data = ranged_form(npc, None, gun, pc)
    page = shoot(client_for(owner), campaign, data).content.decode()
    assert "this campaign&#x27;s rules have none" in page
    assert not Roll.objects.exists()


def test_without_javascript_the_gm_is_sent_back_with_the_shot_or_the_problem(
    client_for, owner, ez, jason, brute, crossbow
):
    gm = client_for(owner)
    response = shoot(gm, ez, brute_shoots_jason(brute, crossbow, jason, secret="on"), htmx=False)
    assert response.status_code == 302
    assert "Shot: Brute at Jason Free" in gm.get(response.url).content.decode()
    assert Roll.objects.get().secret
    response = shoot(gm, ez, {"key": fresh_key()}, htmx=False)
    assert "Check the ranged form" in gm.get(response.url).content.decode()


def test_a_resent_shot_rolls_once(client_for, owner, ez, jason, brute, crossbow):
    data = brute_shoots_jason(brute, crossbow, jason)
    shoot(client_for(owner), ez, data)
    shoot(client_for(owner), ez, data)
    assert Roll.objects.count() == 1


def test_a_secret_shot_shows_a_player_nothing(
    client_for, owner, member, ez, jason, brute, crossbow
):
    shoot(client_for(owner), ez, brute_shoots_jason(brute, crossbow, jason, secret="on"))
    log = client_for(member).get(reverse("rolls:log", args=[ez.pk])).content.decode()
    assert "The GM rolled (secret)" in log and "Crossbow" not in log
    assert f"{MINUS} CPD" not in log
