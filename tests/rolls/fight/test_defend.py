"""An attack from the board on a PC another player plays waits for that player's defence (issue
#39): the GM's NPC (or another player's PC) attacks, the defender's player sees a card and
defends in one tap, a GM may roll for a player away, the attacker or a GM withdraws it, and
the round moving on lapses it. The GM (owner), the defending player, a player who may not
answer for that PC, an observer and an outsider each get what is theirs; an NPC the players
have not met is never declared, so never named to them."""

import pytest
from django.urls import reverse

from characters.services import npc_set_revealed
from fudgetable.rules.dice import base as dice_base
from rolls.fight.models import DeclaredAttack
from rolls.models import Roll
from rolls.scene import moves
from tests.rolls.conftest import headed, headed_all
from tests.rolls.fight.defend_setup import *  # noqa: F403
from tests.rolls.fight.defend_setup import declare, defend, table_page, waiting, withdraw
from tests.rolls.fight_setup import LoadedDice
from tests.rolls.scene_setup import HTMX, area, figure_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def good_dice(monkeypatch):
    """Every Fudge die a +: a PC's 4dF is +4 (the NPCs roll nothing in EZFudge)."""
    monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice([1] * 80))


def bring_to_hall(scene, owner, name: str) -> None:
    moves.figure_move(
        membership=scene.campaign.memberships.get(user=owner),
        figure_id=figure_of(scene, name).pk,
        area_id=area(scene, "Hall").pk,
    )


def test_a_gms_npc_shooting_a_players_pc_waits_for_her_defence(
    scene, client_for, owner, member, other, crossbow
):
    gm = client_for(owner)
    answer = declare(gm, scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    assert answer.status_code == 200
    assert "waiting for Jason Free to defend" in answer.content.decode()
    assert not Roll.objects.filter(snapshot__has_key="fight").exists()  # nothing rolled yet
    attack = waiting()
    # What the areas gave: Long from the Gallery to the Hall, whose light is dim.
    assert (attack.kind, attack.range, attack.light, attack.cover) == ("ranged", "L", "dim", "none")
    # Her card: the attack, where from, what it needs, and the defences, one tap each.
    page = table_page(client_for(member), scene.campaign)
    assert "Brute shoots at Jason Free with Crossbow" in page
    assert "Gallery to Hall: Long (L) · to hit: Superb (+4), from Long" in page
    assert "Evade · Agility" in page and "Take the shot (no roll)" in page
    assert "Roll for Jason Free" not in page and "Withdraw the attack" not in page
    # The GMs' card: roll for her, or withdraw it.
    gm_page = table_page(gm, scene.campaign)
    assert "Roll for Jason Free" in gm_page and "Withdraw the attack" in gm_page
    # Another player sees nothing of it.
    assert "Brute shoots at" not in table_page(client_for(other), scene.campaign)


def test_she_evades_in_one_tap_and_a_second_tap_rolls_nothing_more(
    scene, client_for, owner, member, crossbow
):
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    attack = waiting()
    her = client_for(member)
    answer = defend(her, attack, defence="evade")
    assert answer.status_code == 200
    shot = headed("Shot: Brute at Jason Free")
    assert shot.roller == owner and not shot.secret  # the attacker's roll, as if rolled at once
    _, jason = shot.snapshot["sides"]
    assert (jason["name"], jason["trait"]) == ("Jason Free", "Agility")  # the evade proposed
    cards, news = answer.content.decode().split('id="attack-news"')
    assert "Brute shoots at" not in cards  # her card is gone
    assert "Shot: Brute at Jason Free" in news  # and what she rolled is said to her
    again = defend(her, attack, defence="evade")
    assert again.status_code == 200
    assert Roll.objects.filter(snapshot__said__key="shot").count() == 1
    attack.refresh_from_db()
    assert (attack.end, attack.exchange_id) == ("defended", shot.pk)
    # The GM confirms the wound in one tap, as ever (a +4 evade may have left none).
    if shot.snapshot["fight"]["to_mark"]:
        confirm = reverse("rolls:fight_confirm", args=[scene.campaign.pk, shot.pk])
        assert client_for(owner).post(confirm, headers=HTMX).status_code == 200


def test_in_melee_she_fights_back_all_out_with_the_trait_named_for_her_weapon(
    scene, client_for, owner, member
):
    bring_to_hall(scene, owner, "Brute")
    club = figure_of(scene, "Brute").character.gear.get(name="Club")
    declare(client_for(owner), scene, "Brute", "Jason Free", reach_weapon=club.pk)
    page = table_page(client_for(member), scene.campaign)
    assert "Brute attacks Jason Free with Club</strong>: defend" in page
    assert "Defend · Quarterstaff for Hire" in page
    answer = defend(client_for(member), waiting(), defence="all-out-defend", trait="")
    assert answer.status_code == 200
    exchange = headed("Fight: Brute vs Jason Free")
    brute, jason = exchange.snapshot["sides"]
    assert (jason["trait"], jason["weapon"], jason["tactic"]) == (
        "Quarterstaff for Hire",
        "Quarterstaff",
        "all-out-defend",
    )
    assert (brute["trait"], brute["weapon"]) == ("Fighter", "Club")


def test_who_may_answer_an_attack_by_role(
    scene, client_for, owner, member, other, observer, outsider, crossbow
):
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    attack = waiting()
    for person in (other, observer, outsider):
        client = client_for(person)
        assert defend(client, attack, defence="evade").status_code == 404, person
        assert withdraw(client, attack).status_code == 404, person
    assert withdraw(client_for(member), attack).status_code == 403  # the attacker's to take back
    assert waiting() == attack
    # The GM rolls for a player away: she takes the shot, and rolls nothing.
    assert defend(client_for(owner), attack).status_code == 200
    shot = headed("Shot: Brute at Jason Free")
    assert len(shot.snapshot["sides"]) == 1
    assert not DeclaredAttack.objects.filter(ended_at__isnull=True).exists()


def test_a_player_attacking_another_players_pc_waits_and_may_not_defend_for_her(
    scene, client_for, member, other, wren
):
    knife = wren.gear.get(name="Knife")
    theirs = client_for(other)
    answer = declare(theirs, scene, "Wren", "Jason Free", reach_weapon=knife.pk)
    assert answer.status_code == 200 and "waiting for Jason Free" in answer.content.decode()
    attack = waiting()
    assert defend(theirs, attack, defence="defend").status_code == 403
    page = table_page(theirs, scene.campaign)
    assert "Wren attacks Jason Free with Knife" in page and "Withdraw the attack" in page
    assert "Defend ·" not in page
    assert defend(client_for(member), attack, defence="defend").status_code == 200
    assert len(headed_all("Fight: Wren vs Jason Free")) == 1


def test_the_attacker_withdraws_and_the_card_goes(scene, client_for, member, other, wren):
    knife = wren.gear.get(name="Knife")
    theirs = client_for(other)
    declare(theirs, scene, "Wren", "Jason Free", reach_weapon=knife.pk)
    attack = waiting()
    assert withdraw(theirs, attack).status_code == 200
    attack.refresh_from_db()
    assert attack.end == "withdrawn"
    assert "Wren attacks" not in table_page(client_for(member), scene.campaign)
    late = defend(client_for(member), attack, defence="defend")
    assert late.status_code == 200 and "withdrawn" in late.content.decode()
    assert not Roll.objects.filter(snapshot__has_key="fight").exists()


def test_a_hidden_npcs_attack_is_rolled_at_once_and_named_to_no_player(
    scene, client_for, owner, member, other, lurker_sling
):
    answer = declare(client_for(owner), scene, "Lurker", "Jason Free", range_weapon=lurker_sling.pk)
    assert answer.status_code == 200
    assert not DeclaredAttack.objects.exists()  # never declared: its exchange is the GMs'
    shot = headed("Shot: Lurker at Jason Free")
    assert shot.secret
    for person in (member, other):
        assert "Lurker" not in table_page(client_for(person), scene.campaign)


def test_the_same_taps_declare_once_and_an_attacker_has_one_attack_waiting(
    scene, client_for, owner, crossbow
):
    gm = client_for(owner)
    for _ in range(2):
        assert (
            declare(gm, scene, "Brute", "Jason Free", range_weapon=crossbow.pk).status_code == 200
        )
    assert DeclaredAttack.objects.count() == 1
    second = declare(gm, scene, "Brute", "Jason Free", range_weapon=crossbow.pk, key="other-key")
    assert second.status_code == 422 and "waits for its defence" in second.content.decode()


def test_the_round_moving_on_lapses_the_attack(scene, client_for, owner, member, crossbow):
    moves.round_step(scene=scene, step="start")
    moves.round_step(scene=scene, step="next")  # the ranged phase
    gm = client_for(owner)
    declare(gm, scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    attack = waiting()
    scene.refresh_from_db()
    moves.round_step(scene=scene, step="next")
    attack.refresh_from_db()
    assert attack.end == "lapsed"
    assert "Brute shoots at" not in table_page(client_for(member), scene.campaign)
    late = defend(client_for(member), attack, defence="evade")
    assert "lapsed" in late.content.decode()
    assert not Roll.objects.filter(snapshot__has_key="fight").exists()


def test_a_target_who_has_rolled_this_phase_takes_the_shot(
    scene, client_for, owner, member, crossbow
):
    moves.round_step(scene=scene, step="start")
    moves.round_step(scene=scene, step="next")  # the ranged phase
    jason = figure_of(scene, "Jason Free").character
    scene.refresh_from_db()
    scene.rolled = {str(jason.pk): 1}
    scene.save(update_fields=["rolled"])
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    her = client_for(member)
    page = table_page(her, scene.campaign)
    assert "Evade ·" not in page and "one roll each phase" in page
    refused = defend(her, waiting(), defence="evade")
    assert "one roll each phase" in refused.content.decode()
    assert defend(her, waiting(), defence="take-the-shot").status_code == 200
    assert len(headed("Shot: Brute at Jason Free").snapshot["sides"]) == 1


def test_a_defence_the_attack_does_not_allow_is_refused_in_words(
    scene, client_for, owner, member, crossbow
):
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    her = client_for(member)
    refused = defend(her, waiting(), defence="all-out-defend")
    assert refused.status_code == 200 and "choose one of evade" in refused.content.decode()
    unknown = defend(her, waiting(), defence="evade", trait="999999")
    assert "not a trait on Jason Free" in unknown.content.decode()
    assert not Roll.objects.filter(snapshot__has_key="fight").exists()


def test_a_pc_its_own_player_or_a_gm_plays_is_rolled_at_once(
    scene, client_for, owner, member, crossbow
):
    jason = figure_of(scene, "Jason Free").character
    jason.owner = owner
    jason.save(update_fields=["owner"])
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    assert not DeclaredAttack.objects.exists()
    assert headed_all("Shot: Brute at Jason Free")


def test_an_attacker_hidden_again_leaves_the_players_card_and_the_gm_rolls_for_her(
    scene, client_for, owner, member, crossbow
):
    declare(client_for(owner), scene, "Brute", "Jason Free", range_weapon=crossbow.pk)
    attack = waiting()
    npc_set_revealed(npc=attack.attacker, revealed=False)
    her = client_for(member)
    assert "Brute" not in table_page(her, scene.campaign)
    assert defend(her, attack, defence="evade").status_code == 404
    assert "Roll for Jason Free" in table_page(client_for(owner), scene.campaign)
    assert defend(client_for(owner), attack).status_code == 200
    assert headed("Shot: Brute at Jason Free").secret  # the GMs' line now
