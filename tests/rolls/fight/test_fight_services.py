"""The fight services on their own: what they refuse whoever calls them, and what confirming
says when a wound is promoted, finds no room, or its fighter has left the table."""

import pytest

from campaigns.models import Membership
from characters.models import Character
from fudgetable.rules.errors import RulesError
from rolls.entry_words import entry_label
from rolls.fight.exchange import fight_confirm, fight_exchange
from rolls.models import Roll
from tests.factories import CampaignFactory
from tests.rolls.conftest import fresh_key, set_rules
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import role, weapon

pytestmark = pytest.mark.django_db


def gm_of(campaign) -> Membership:
    return Membership.objects.get(campaign=campaign, role=Membership.Role.GM)


def exchange(membership, attacker, defender, **extra) -> Roll:
    return fight_exchange(
        membership=membership,
        attacker=attacker,
        attacker_trait=attacker.traits.filter(kind="role").first(),
        weapon=weapon(attacker),
        defender=defender,
        defender_trait=defender.traits.filter(kind="role").first(),
        defender_weapon=weapon(defender),
        key=extra.pop("key", fresh_key()),
        **extra,
    )


def test_a_player_fights_with_her_own_pc_alone_and_only_a_gm_confirms(member, ez, jason, brute):
    player = Membership.objects.get(campaign=ez, user=member)
    with pytest.raises(RulesError):
        exchange(player, brute, jason)  # an NPC is the GM's to fight with
    assert exchange(player, jason, brute).roller == member  # her PC, from the board (issue #39)
    with pytest.raises(RulesError):
        fight_confirm(membership=player, roll=Roll(campaign=ez, snapshot={}))


def test_a_fighter_from_elsewhere_or_with_the_wrong_gear_is_refused(owner, ez, jason, brute):
    gm = gm_of(ez)
    other = CampaignFactory(owner=owner, ruleset="ezfudge")
    with pytest.raises(RulesError) as error:
        exchange(gm_of(other), jason, brute)
    assert error.value.setting == "character"
    with pytest.raises(RulesError) as error:
        fight_exchange(
            membership=gm,
            attacker=jason,
            attacker_trait=role(brute, "Fighter"),
            weapon=None,
            defender=brute,
            defender_trait=None,
            key=fresh_key(),
        )
    assert error.value.setting == "trait"
    with pytest.raises(RulesError) as error:
        fight_exchange(
            membership=gm,
            attacker=jason,
            attacker_trait=None,
            weapon=weapon(brute),
            defender=brute,
            defender_trait=None,
            key=fresh_key(),
        )
    assert error.value.setting == "weapon"
    with pytest.raises(RulesError):
        exchange(gm, jason, jason)
    assert not Roll.objects.exists()


def test_no_wound_track_no_fight(ez, jason, brute):
    set_rules(ez, wound_track=None)
    with pytest.raises(RulesError) as error:
        exchange(gm_of(ez), jason, brute)
    assert error.value.setting == "wound_track"


def test_a_resent_key_returns_the_roll_already_made(ez, jason, brute, dice):
    dice(1, 0, 0, 0)
    first = exchange(gm_of(ez), jason, brute, key="same-key-1")
    assert exchange(gm_of(ez), jason, brute, key="same-key-1") == first


def test_a_wound_at_a_full_level_is_marked_higher_and_says_so(ez, jason, brute, dice):
    dice(-1, -1, -1, 0)  # the Brute wins by 2: a Scratch on Jason
    Character.objects.filter(pk=jason.pk).update(
        tracks={"wounds": {"levels": [["scratch"] * 3, [], [], [], []]}}
    )
    done = fight_confirm(membership=gm_of(ez), roll=exchange(gm_of(ez), jason, brute))
    assert entry_label(done) == (
        "Wound marked on Jason Free: Scratch, marked as Hurt (the Scratch boxes are full)"
    )


def test_a_wound_with_no_room_left_is_for_the_gm_to_rule(ez, jason, brute, dice):
    dice(-1, -1, -1, 0)
    full = [["scratch"] * 3, ["wound"] * 2, ["wound"], ["wound"], ["wound"]]
    Character.objects.filter(pk=jason.pk).update(tracks={"wounds": {"levels": full}})
    done = fight_confirm(membership=gm_of(ez), roll=exchange(gm_of(ez), jason, brute))
    assert done.snapshot["marked"][0]["overflow"] is True
    assert "no box is free at or above it (the GM rules)" in entry_label(done)


def test_a_fighter_who_left_the_table_is_named_but_not_marked(ez, jason, brute, dice):
    dice(1, 0, 0, 0)
    made = exchange(gm_of(ez), jason, brute)
    brute.delete()
    done = fight_confirm(membership=gm_of(ez), roll=made)
    assert entry_label(done) == "Wound marked on Brute: Hurt, but they are no longer at the table"
    assert fight_confirm(membership=gm_of(ez), roll=made) == done
