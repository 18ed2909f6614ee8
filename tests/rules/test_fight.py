"""EZFudge melee exchanges (EZFudge Essentials "Fight Scenes"), checked against the seed's own
fighter, Jason Free: Great Quarterstaff for Hire, CPD 4, quarterstaff INJ 5, knife INJ 4."""

import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules import blows, fight, odds
from fudgetable.rules.blows import Aim
from fudgetable.rules.character import Gift, Modifier, Weapon
from fudgetable.rules.errors import RulesError
from fudgetable.rules.fight import (
    ATTACKER,
    DEFENDER,
    Fighter,
    Tactic,
    WoundDice,
    exchange,
)
from fudgetable.rules.resolution import Outcome
from fudgetable.rules.rulesets import PRESETS, resolve
from fudgetable.rules.sheet import ATTRIBUTE, ROLE, Sheet, SheetTrait
from fudgetable.rules.sheet_tracks import CONDITION, INJURY, WOUNDS, sheet_tracks
from fudgetable.rules.tracks import TrackState
from fudgetable.rules.wounds import EZ_WOUND_TRACK, Box

EZ = PRESETS["ezfudge"]
TRACK = EZ_WOUND_TRACK  # damage 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Out of It, 9+ Near Death
SCRATCH, HURT, VERY_HURT, NEAR_DEATH = 0, 1, 2, 4
AOA, AOD = Tactic.ALL_OUT_ATTACK, Tactic.ALL_OUT_DEFEND
GOOD, GREAT = 2, 3

JASON_SHEET = Sheet(
    traits=(
        SheetTrait(ROLE, "Quarterstaff for Hire", GREAT),
        SheetTrait(ATTRIBUTE, "Body", GREAT),
        SheetTrait(ATTRIBUTE, "Agility", GOOD),
        SheetTrait(ATTRIBUTE, "Mind", GOOD),
        SheetTrait(ATTRIBUTE, "Will", GOOD),
    ),
    gifts=(Gift("Toughness", (Modifier("CPD", 1),)),),
    armor_bonus=1,  # leather
    weapons=(Weapon("Quarterstaff", damage_factor=2), Weapon("Knife", damage_factor=1)),
)


def jason(**choices) -> Fighter:
    return Fighter(GREAT, 5, 4, **choices)


def brute(**choices) -> Fighter:
    """A Good fighter with a club (INJ 4) and chain mail: CPD 3."""
    return Fighter(GOOD, 4, 3, **choices)


def melee(attacker: Fighter, defender: Fighter, rolls: tuple[int, int], **kwargs):
    return exchange(
        TRACK,
        attacker,
        defender,
        attacker_roll=rolls[0],
        defender_roll=rolls[1],
        rules=EZ.opposed_rules,
        **kwargs,
    )


def wound_on(result, side: str):
    return next(wound for wound in result.wounds if wound.to == side)


# --- the seed's fighter -----------------------------------------------------------------


def test_jason_frees_cpd_and_inj_come_from_his_sheet():
    assert fight.cpd_of(JASON_SHEET) == 4
    staff, knife = JASON_SHEET.weapons
    assert fight.inj_of(JASON_SHEET, staff, fighting_role=True) == 5
    assert fight.inj_of(JASON_SHEET, knife, fighting_role=True) == 4


def test_bare_hands_strike_with_factor_0_for_a_fighting_role_and_minus_1_without():
    assert fight.inj_of(JASON_SHEET, None, fighting_role=True) == 3
    assert fight.inj_of(JASON_SHEET, None, fighting_role=False) == 2


def test_a_self_powered_weapon_is_not_a_melee_weapon():
    with pytest.raises(RulesError) as error:
        fight.inj_of(JASON_SHEET, Weapon("Small Handgun", inj=3), fighting_role=True)
    assert error.value.setting == "weapon"


def test_a_bow_is_shot_not_swung():
    """ezfudge-essentials.txt:440 "melee action, where the character uses fists or handheld
    muscle-powered weapons"; "Shooting is ranged action": a bow's strength powers a shot."""
    with pytest.raises(RulesError) as error:
        fight.inj_of(JASON_SHEET, Weapon("Bow", damage_factor=1, ranged=True), fighting_role=True)
    assert "shot or thrown: it shoots in the ranged phase" in error.value.message


# --- the melee contest ------------------------------------------------------------------


def test_the_winner_wounds_the_loser_by_margin_plus_inj_minus_cpd():
    result = melee(jason(), brute(), (1, 0))  # Superb 4 against Good 2
    assert result.outcome.relative_degree == 2
    assert result.result == ATTACKER
    (wound,) = result.wounds
    assert (wound.to, wound.damage, wound.level, wound.level_name) == (DEFENDER, 4, HURT, "Hurt")
    assert result.to_dict()["wounds"][0]["damage"] == 4


def test_a_defender_who_wins_wounds_the_attacker_with_its_own_inj():
    result = melee(jason(), brute(), (-3, 0))  # Mediocre 0 against Good 2
    assert result.result == DEFENDER
    (wound,) = result.wounds
    assert (wound.to, wound.margin, wound.inj, wound.cpd) == (ATTACKER, 2, 4, 4)
    assert (wound.damage, wound.level_name) == (2, "Scratch")


def test_an_outcome_of_0_is_a_draw_with_no_wound():
    result = melee(jason(), brute(), (-1, 0))
    assert result.outcome.outcome is Outcome.DRAW
    assert result.result == "draw"
    assert result.wounds == ()


def test_melee_draws_on_0_even_where_the_campaigns_contests_tie_otherwise():
    rules = resolve("ezfudge", {"opposed_tie": "success"}).opposed_rules
    result = exchange(TRACK, jason(), brute(), attacker_roll=-1, defender_roll=0, rules=rules)
    assert result.outcome.outcome is Outcome.DRAW
    assert result.wounds == ()


def test_a_hit_too_weak_for_the_armour_is_no_wound():
    armoured = Fighter(GOOD, 4, 9)
    (wound,) = melee(jason(), armoured, (0, 0)).wounds
    assert (wound.damage, wound.level, wound.level_name) == (-3, None, "")


@pytest.mark.parametrize("side", ["attacker", "defender"])
def test_both_sides_must_fight_at_poor_or_better(side):
    terrible = Fighter(-2, 1, 1)
    sides = (terrible, brute()) if side == ATTACKER else (jason(), terrible)
    with pytest.raises(RulesError) as error:
        melee(*sides, (0, 0))
    assert error.value.setting == f"{side}.level"
    assert "Poor or better" in error.value.message
    assert melee(Fighter(-1, 1, 1), Fighter(-1, 1, 1), (0, 0)).result == "draw"


def test_a_worse_position_costs_1_or_2_and_nothing_else():
    assert melee(jason(position=-2), brute(), (1, 0)).result == "draw"
    assert jason(position=-1).modifiers == (-1,)
    with pytest.raises(RulesError) as error:
        jason(position=-3)
    assert error.value.setting == "position"


def test_a_fighter_refuses_an_unknown_tactic_and_a_level_that_is_not_a_number():
    with pytest.raises(RulesError):
        Fighter(GREAT, 5, 4, tactic="berserk")  # type: ignore[arg-type]
    with pytest.raises(RulesError) as error:
        Fighter("Great", 5, 4)  # type: ignore[arg-type]
    assert error.value.setting == "level"
    assert jason(tactic="all-out-attack").tactic is AOA  # type: ignore[arg-type]
    assert jason().to_dict() == {
        "level": 3,
        "inj": 5,
        "cpd": 4,
        "tactic": "none",
        "position": 0,
        "pull": None,
        "aim": None,
        "outmanoeuvred": False,
    }


# --- tactics ----------------------------------------------------------------------------


def test_all_out_attack_adds_1_to_the_fighter_and_1_to_the_foes_wound():
    result = melee(jason(tactic=AOA), brute(), (0, 0))  # Superb 4 (3 + 1) against 2
    assert result.outcome.active.modifier == 1
    wound = wound_on(result, DEFENDER)
    assert (wound.bonus, wound.damage, wound.level_name) == (1, 5, "Very Hurt")


def test_an_all_out_attackers_tie_counts_as_the_foes_success_with_2_more_wound():
    result = melee(jason(tactic=AOA), brute(), (-2, 0))  # 2 against 2
    assert result.outcome.relative_degree == 0
    assert result.result == DEFENDER
    wound = wound_on(result, ATTACKER)
    assert (wound.margin, wound.bonus, wound.damage, wound.level_name) == (0, 2, 2, "Scratch")


def test_an_all_out_attacker_who_loses_takes_2_more_wound():
    wound = wound_on(melee(jason(tactic=AOA), brute(), (-4, 0)), ATTACKER)
    assert (wound.margin, wound.bonus, wound.damage, wound.level_name) == (2, 2, 4, "Hurt")


def test_a_foes_all_out_attack_works_the_same_way_from_the_other_side():
    result = melee(jason(), brute(tactic=AOA), (-2, -1))  # 1 against 2: Fair against Good
    assert result.result == DEFENDER
    assert wound_on(result, ATTACKER).bonus == 1
    tie = melee(jason(), brute(tactic=AOA), (-1, -1))  # 2 against 2
    assert tie.result == ATTACKER
    assert wound_on(tie, DEFENDER).bonus == 2


def test_two_all_out_attackers_who_tie_both_land_a_blow():
    result = melee(jason(tactic=AOA), brute(tactic=AOA), (-2, -1))  # 2 against 2
    assert result.result == "both"
    assert wound_on(result, ATTACKER).damage == 0 + 4 - 4 + 2
    assert wound_on(result, DEFENDER).damage == 0 + 5 - 3 + 2


def test_all_out_defend_adds_2_and_injures_nobody():
    result = melee(jason(tactic=AOD), brute(), (0, 0))  # 5 against 2
    assert result.outcome.active.modifier == 2
    assert (result.result, result.wounds) == (ATTACKER, ())


def test_an_all_out_defender_who_loses_is_still_wounded():
    result = melee(jason(tactic=AOD), brute(), (-4, 0))  # 1 against 2
    assert wound_on(result, ATTACKER).level_name == "Scratch"


def test_an_all_out_attack_tied_by_an_all_out_defender_hurts_nobody():
    result = melee(jason(tactic=AOA), brute(tactic=AOD), (0, 0))  # 4 against 4
    assert (result.result, result.wounds) == (DEFENDER, ())


# --- melee optional rules (EZ "Melee Optional Rules", "Optional Rule: Tactics") -----------


def test_first_blood_pulled_punches_count_any_wound_above_a_scratch_as_a_scratch():
    """ezfudge-essentials.txt:470 "Pulling Your Punch": a duel "to first blood" - both pull
    their punches, and "any wound higher than a Scratch would be counted as a Scratch"."""
    duel = {"pull": SCRATCH}
    hard = melee(jason(**duel), brute(**duel), (1, 0))  # 4 damage: Hurt, pulled to Scratch
    (blow,) = hard.wounds
    assert (blow.damage, blow.level_name, blow.pulled) == (4, "Scratch", True)
    back = melee(jason(**duel), brute(**duel), (-3, 0))  # the brute wins by 2: 2, a Scratch
    assert (back.wounds[0].level_name, back.wounds[0].pulled) == ("Scratch", False)
    full = melee(jason(), brute(), (1, 0))
    assert (full.wounds[0].level_name, full.wounds[0].pulled) == ("Hurt", False)


def test_a_pulled_punch_caps_after_the_damage_options_and_never_adds_a_wound():
    """ezfudge-essentials.txt:470 "setting a highest possible wound effect"; 522-525."""
    capped = melee(
        jason(pull=HURT), brute(), (4, 0), options=[2, 4], to_defender=WoundDice(1, 1)
    )  # 5 + 5 - 3 + 1 = 8, Out of It, shifted to Near Death: counted as Hurt
    assert (capped.wounds[0].damage, capped.wounds[0].level_name) == (8, "Hurt")
    armoured = Fighter(GOOD, 4, 9)
    (none,) = melee(jason(pull=HURT), armoured, (0, 0)).wounds
    assert (none.level, none.pulled) == (None, False)


def test_a_pull_is_a_level_of_the_track():
    """ezfudge-essentials.txt:470: the cap is a wound effect, a level of the track."""
    with pytest.raises(RulesError) as error:
        jason(pull=-1)
    assert error.value.setting == "pull"
    with pytest.raises(RulesError) as error:
        melee(jason(pull=len(TRACK.levels)), brute(), (0, 0))
    assert error.value.setting == "pull"


def test_an_aimed_strike_takes_the_gms_modifier_and_lands_with_the_margin_it_needs():
    """ezfudge-essentials.txt:474 "require a really good action outcome, but there are mods";
    :476 "if the outcome is good enough to wound, but not good enough [for] the hit location
    requirement, the foe decides where the hit lands"."""
    at_the_hand = Aim(modifier=-1, needs=2)
    landed = melee(jason(aim=at_the_hand), brute(), (1, 0))  # 3 - 1 + 1 = 3 against 2
    assert landed.outcome.active.modifiers == (-1,)
    assert (landed.wounds[0].margin, landed.wounds[0].aimed) == (1, blows.FOE_DECIDES)
    sure = melee(jason(aim=at_the_hand), brute(), (2, 0))  # margin 2
    assert sure.wounds[0].aimed == blows.AIM_LANDED
    armoured = Fighter(GOOD, 4, 12)
    (glance,) = melee(jason(aim=Aim(needs=0)), armoured, (2, 0)).wounds
    assert (glance.level, glance.aimed) == (None, "")  # not good enough to wound: nowhere
    with pytest.raises(RulesError):
        Aim(modifier=1)
    with pytest.raises(RulesError):
        Aim(needs=-1)


def test_a_successful_all_out_defense_may_test_to_outmanoeuvre_the_foe():
    """ezfudge-essentials.txt:490 "A successful All-Out Defense followed by a Fair (+1) or
    better test ... In the following round, the opponent would have a -1 mod"."""
    held = melee(jason(tactic=AOD), brute(), (0, 0))  # 5 against 2: Jason wins, injures nobody
    assert fight.defended(held) == (ATTACKER,)
    drawn = melee(jason(), brute(tactic=AOD), (1, 0))  # 4 against 4
    assert fight.defended(drawn) == (DEFENDER,)
    beaten = melee(jason(tactic=AOD), brute(), (-4, 0))  # 1 against 2: Jason is scratched
    assert fight.defended(beaten) == ()
    scratched = melee(jason(tactic=AOD), brute(), (-3, 0), options=[3])  # option 3's Scratch
    assert fight.defended(scratched) == ()
    assert fight.defended(melee(jason(), brute(), (0, 0))) == ()  # nobody went all out
    assert fight.MANOEUVRE_DIFFICULTY == 1
    next_round = melee(jason(), brute(outmanoeuvred=True), (0, 0))  # 3 against 2 - 1
    assert next_round.outcome.passive.modifiers == (-1,)
    assert next_round.outcome.relative_degree == 2


# --- damage options ---------------------------------------------------------------------


def test_option_1_a_superb_roll_always_scratches():
    armoured = Fighter(GOOD, 4, 12)  # plate on a giant: 5 + 5 - 12 even on a Superb roll
    (wound,) = melee(jason(), armoured, (4, 0), options=[1]).wounds
    assert (wound.level_name, wound.superb) == ("Scratch", True)
    (plain,) = melee(jason(), armoured, (3, 0), options=[1]).wounds
    assert (plain.level, plain.superb) == (None, False)
    (hard,) = melee(jason(), brute(), (4, 0), options=[1]).wounds
    assert (hard.damage, hard.level_name, hard.superb) == (7, "Out of It", False)


def test_option_2_adds_a_fudge_die_to_each_wound_calculation():
    plus = WoundDice(damage=1)
    (wound,) = melee(jason(), brute(), (1, 0), options=[2], to_defender=plus).wounds
    assert (wound.die, wound.damage, wound.level_name) == (1, 5, "Very Hurt")
    (off,) = melee(jason(), brute(), (1, 0), to_defender=plus).wounds
    assert (off.die, off.damage) == (0, 4)


def test_option_3_a_tie_scratches_each_fighter():
    result = melee(jason(), brute(), (-1, 0), options=[3])
    assert result.result == "draw"
    assert {(w.to, w.level_name, w.tie_scratch) for w in result.wounds} == {
        (ATTACKER, "Scratch", True),
        (DEFENDER, "Scratch", True),
    }
    assert wound_on(result, ATTACKER).damage is None


def test_option_3_spares_the_foe_of_an_all_out_defender():
    result = melee(jason(tactic=AOD), brute(), (-3, 0), options=[3])  # 2 against 2
    assert [(w.to, w.level_name) for w in result.wounds] == [(ATTACKER, "Scratch")]


def test_option_4_shifts_the_wound_level_up_or_down_one():
    up = melee(jason(), brute(), (1, 0), options=[4], to_defender=WoundDice(shift=1))
    assert (up.wounds[0].shift, up.wounds[0].level_name) == (1, "Very Hurt")
    down = melee(jason(), brute(), (-3, 0), options=[4], to_attacker=WoundDice(shift=-1))
    assert (down.wounds[0].damage, down.wounds[0].level) == (2, None)


def test_option_4_lifts_no_wound_to_a_scratch_and_stops_at_the_top():
    armoured = Fighter(GOOD, 4, 9)
    lifted = melee(jason(), armoured, (0, 0), options=[4], to_defender=WoundDice(shift=1))
    assert lifted.wounds[0].level_name == "Scratch"
    frail = Fighter(GOOD, 4, -9)
    top = melee(jason(), frail, (1, 0), options=[4], to_defender=WoundDice(shift=1))
    assert top.wounds[0].level_name == "Near Death"


def test_unknown_damage_options_and_impossible_dice_are_refused():
    with pytest.raises(RulesError) as error:
        melee(jason(), brute(), (0, 0), options=[5])
    assert error.value.setting == "damage_options"
    with pytest.raises(RulesError):
        WoundDice(damage=2)
    assert melee(jason(), brute(), (1, 0), options=[4, 1, 4]).options == (1, 4)


def test_the_campaign_setting_keeps_the_seeds_numbers_in_order():
    assert EZ.damage_options == ()
    ruleset = resolve("ezfudge", {"damage_options": [2, 1, 2]})
    assert ruleset.damage_options == (1, 2)
    assert ruleset.overrides == {"damage_options": [1, 2]}
    for bad in ("1", [0], [True], [[1]]):
        with pytest.raises(RulesError) as error:
            resolve("ezfudge", {"damage_options": bad})
        assert error.value.setting == "damage_options"


# --- rolling it -------------------------------------------------------------------------


def test_a_campaign_without_a_wound_track_has_no_fights():
    with pytest.raises(RulesError) as error:
        fight.fight(PRESETS["fudge-lite"], jason(), brute())
    assert error.value.setting == "wound_track"


def test_fighters_below_poor_are_refused_before_any_die_is_rolled():
    class NoDice(random.Random):
        def randrange(self, *args, **kwargs):  # type: ignore[override]
            raise AssertionError("rolled")

    with pytest.raises(RulesError):
        fight.fight(EZ, Fighter(-3, 0, 0), brute(), rng=NoDice())


def test_a_pc_rolls_the_opposed_dice_and_an_ezfudge_npc_rolls_nothing():
    rolled = fight.fight(EZ, jason(), brute(), defender_is_npc=True, rng=random.Random(3))
    assert rolled.attacker_dice.method == "4dF"
    assert (rolled.defender_dice.method, rolled.defender_dice.total) == ("none", 0)
    assert rolled.exchange.outcome.active.roll == rolled.attacker_dice.total
    assert rolled.chance == odds.opposed_success_chance(
        "4dF",
        "none",
        active_level=GREAT,
        passive_level=GOOD,
        rules=fight.melee_rules(EZ.opposed_rules),
    )
    assert rolled.to_dict()["chance"] == str(rolled.chance)
    assert fight.dice_for(EZ, npc=False) == "4dF"


def test_the_chance_counts_only_outright_wins():
    rolled = fight.fight(EZ, brute(), brute(), attacker_is_npc=True, defender_is_npc=True)
    assert rolled.chance == Fraction(0)
    assert rolled.exchange.result == "draw"


def test_damage_option_dice_are_rolled_only_when_the_campaign_uses_them():
    ruleset = resolve("ezfudge", {"damage_options": [2, 4]})
    seen = set()
    for seed in range(40):
        rolled = fight.fight(ruleset, jason(), brute(), rng=random.Random(seed))
        for wound in rolled.exchange.wounds:
            seen.add((wound.die, wound.shift))
            assert wound.die in (-1, 0, 1) and wound.shift in (-1, 0, 1)
    assert len(seen) > 1
    for seed in range(10):
        plain = fight.fight(EZ, jason(), brute(), rng=random.Random(seed))
        assert all(w.die == w.shift == 0 for w in plain.exchange.wounds)


@given(
    st.integers(-1, 5),
    st.integers(-1, 5),
    st.integers(-4, 4),
    st.integers(-4, 4),
    st.sampled_from(list(Tactic)),
    st.sampled_from(list(Tactic)),
)
def test_only_a_winner_or_a_tie_against_an_all_out_attack_lands_a_blow(
    a_level, d_level, a_roll, d_roll, a_tactic, d_tactic
):
    attacker, defender = Fighter(a_level, 4, 3, a_tactic), Fighter(d_level, 4, 3, d_tactic)
    result = melee(attacker, defender, (a_roll, d_roll))
    margin = result.outcome.relative_degree
    struck = {wound.to for wound in result.wounds}
    if margin > 0:
        assert struck <= {DEFENDER} and result.result == ATTACKER
    elif margin < 0:
        assert struck <= {ATTACKER} and result.result == DEFENDER
    elif Tactic.ALL_OUT_ATTACK not in (a_tactic, d_tactic):
        assert result.result == "draw" and not struck
    if a_tactic is AOD:
        assert DEFENDER not in struck
    if d_tactic is AOD:
        assert ATTACKER not in struck


# --- marking the wound ------------------------------------------------------------------


def test_a_pcs_wound_goes_on_the_wound_track_and_promotes_when_full():
    templates = sheet_tracks(EZ)
    key = fight.wound_track_key(templates)
    assert key == WOUNDS
    template = templates[key]
    state = template.empty()
    for expected in ("Hurt", "Hurt", "Very Hurt"):
        marked = fight.mark_wound(key, template, state, HURT, "Hurt")
        assert (marked.level_name, marked.boxes, marked.overflow) == (expected, 1, False)
        state = marked.state
    assert state.levels[HURT] == (Box.WOUND, Box.WOUND)


def test_a_wound_with_no_room_left_overflows_for_the_gm_to_rule():
    template = sheet_tracks(EZ)[WOUNDS]
    state = template.empty()
    for _ in range(2):
        state = fight.mark_wound(WOUNDS, template, state, NEAR_DEATH, "Near Death").state
    marked = fight.mark_wound(WOUNDS, template, state, NEAR_DEATH, "Near Death")
    assert (marked.level_name, marked.boxes, marked.overflow) == ("", 0, True)


def test_an_npcs_wound_marks_one_condition_box_per_rung():
    templates = sheet_tracks(EZ, npc_boxes=4)
    key = fight.wound_track_key(templates)
    assert key == CONDITION
    template = templates[key]
    marked = fight.mark_wound(key, template, template.empty(), HURT, "Hurt")
    assert marked.state == TrackState(("Hurt", "Hurt", None, None))
    assert (marked.boxes, marked.overflow) == (2, False)
    worse = fight.mark_wound(key, template, marked.state, VERY_HURT, "Very Hurt")
    assert (worse.boxes, worse.overflow, worse.level_name) == (2, True, "Very Hurt")
    full = fight.mark_wound(key, template, worse.state, SCRATCH, "Scratch")
    assert (full.state, full.boxes, full.overflow, full.level_name) == (worse.state, 0, True, "")
    assert [fight.npc_boxes_for(level) for level in range(5)] == [1, 2, 3, 4, 5]


def test_a_sheet_with_only_an_injury_track_takes_no_wound():
    templates = sheet_tracks(PRESETS["fudge-lite"])
    assert set(templates) == {INJURY}
    with pytest.raises(RulesError):
        fight.wound_track_key(templates)
