import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import EZFUDGE, FUDGE_1995, FUDGE_LITE
from fudgetable.rules.resolution import (
    FATE_DEGREES,
    NPC_ROLL_MODES,
    PLAIN_OPPOSED_RULES,
    ActionRules,
    Commonness,
    Critical,
    Criticals,
    ModifierPolicy,
    OpposedOutcome,
    Outcome,
    Reaction,
    Side,
    StaticOutcome,
    fate_degree,
    npc_roll_method,
    reaction,
    resolve_opposed,
    resolve_static,
    situational_result,
    untrained_ezfudge,
    untrained_fudge_1995,
    untrained_fudge_lite,
)

LITE = ActionRules(modifiers=ModifierPolicy.LARGEST, floor=FUDGE_LITE.floor)
F95 = ActionRules(modifiers=ModifierPolicy.CAPPED)
F95_OPPOSED = ActionRules(tie=Outcome.STATUS_QUO, modifiers=ModifierPolicy.CAPPED)
PEUP_OPPOSED = ActionRules(tie=Outcome.TIE)
EZ_MELEE = ActionRules(tie=Outcome.DRAW)


def test_lightfingers_louie_fails_his_superb_lock_by_1():
    # EZFudge: Great Cat Burglar, +1 for fine lockpicks, rolls -1 against a Superb lock.
    great, superb = EZFUDGE.value("Great"), EZFUDGE.value("Superb")
    outcome = resolve_static(level=great, modifiers=[1], roll=-1, difficulty=superb)
    assert EZFUDGE.name(outcome.result) == "Great"
    assert outcome.outcome is Outcome.FAILURE
    assert outcome.margin == -1  # a Failure Margin of 1, "a Poor (-1) outcome"
    assert EZFUDGE.describe(outcome.margin) == "Poor (-1)"
    assert not outcome.succeeded


def test_kotorikh_and_obazana_both_sleep_through_the_thief():
    # Peupfudge: D = 3; both Tired (A = -1).
    kotorikh = resolve_static(level=4, modifiers=[-1], roll=-1, difficulty=3)
    obazana = resolve_static(level=3, modifiers=[-1], roll=0, difficulty=3)
    assert kotorikh.result == obazana.result == 2
    assert not kotorikh.succeeded and not obazana.succeeded


def test_the_mage_builds_the_bridge_with_8_against_7():
    outcome = resolve_static(level=6, modifiers=[-1], roll=3, difficulty=7)
    assert outcome.result == 8 and outcome.succeeded and outcome.margin == 1


def test_adams_arrow_has_a_relative_performance_of_minus_3():
    assert resolve_static(level=2, roll=-1, difficulty=4).margin == -3


def test_the_cave_race_goes_to_nyrv():
    # Peupfudge example 4: 3dF each; equal totals would be a tie.
    gromanno = Side(2, 0, (1,))
    nyrv = Side(5, 2, (-1,))
    polthova = Side(8, -3)
    assert resolve_opposed(active=nyrv, passive=polthova, rules=PEUP_OPPOSED).succeeded
    assert resolve_opposed(active=nyrv, passive=gromanno, rules=PEUP_OPPOSED).succeeded
    assert resolve_opposed(active=polthova, passive=gromanno, rules=PEUP_OPPOSED).succeeded


def test_peupfudge_opposed_equal_totals_are_a_tie_not_a_success():
    outcome = resolve_opposed(active=Side(3, 0), passive=Side(2, 1), rules=PEUP_OPPOSED)
    assert outcome.relative_degree == 0
    assert outcome.outcome is Outcome.TIE
    assert not outcome.succeeded


def test_the_arm_wrestling_ant_loses_badly():
    hobbit_vs_cyborg = resolve_opposed(active=Side(2, 1), passive=Side(5, -1))
    assert hobbit_vs_cyborg.outcome is Outcome.FAILURE
    ant = resolve_opposed(active=Side(2, -1, (-1,)), passive=Side(-43, 1))
    assert ant.relative_degree == 42


@pytest.mark.parametrize(("roll", "rung"), [(0, "Good"), (1, "Great"), (-3, "Poor")])
def test_nathaniel_reads_his_archery_roll_up_and_down_the_ladder(roll, rung):
    outcome = resolve_static(level=FUDGE_1995.value("Good"), roll=roll, difficulty=1, rules=F95)
    assert FUDGE_1995.name(outcome.result) == rung


def test_the_cliff_climb_parri_makes_it_and_mickey_is_stuck_one_short():
    good = FUDGE_1995.value("Good")
    parri = resolve_static(level=FUDGE_1995.value("Great"), roll=1, difficulty=good, rules=F95)
    mickey = resolve_static(level=good, roll=-1, difficulty=good, rules=F95)
    assert FUDGE_1995.name(parri.result) == "Superb" and parri.succeeded
    assert FUDGE_1995.name(mickey.result) == "Fair" and mickey.margin == -1


def test_a_static_tie_succeeds_with_margin_0():
    outcome = resolve_static(level=1, roll=0, difficulty=1)
    assert outcome.outcome is Outcome.SUCCESS and outcome.margin == 0


def test_fudge_lite_results_never_go_below_terrible():
    # Mediocre Dexterity rolls -3: "Just Terrible. It doesn't go below that."
    outcome = resolve_static(level=0, roll=-3, difficulty=-2, rules=LITE)
    assert FUDGE_LITE.name(outcome.result) == "Terrible"
    assert outcome.succeeded  # Terrible meets a Terrible difficulty


def test_fudge_lite_counts_only_the_largest_bonus_and_the_largest_penalty():
    assert LITE.combine([1, 2, 1, -1, -3]) == 2 - 3
    assert LITE.combine([1, 1, 1]) == 1
    assert LITE.combine([]) == 0


def test_fudge_1995_caps_the_total_modifier_at_3():
    assert F95.combine([2, 2]) == 3
    assert F95.combine([-2, -2, -1]) == -3
    assert F95.combine([1, -1, 2]) == 2
    assert ActionRules(modifiers=ModifierPolicy.CAPPED, modifier_cap=5).combine([4, 4]) == 5


def test_joe_hurt_is_only_fair_with_his_sword_and_verne_researches_at_great():
    assert resolve_static(level=2, modifiers=[-1], roll=0, difficulty=1).result == 1
    assert resolve_static(level=2, modifiers=[1], roll=0, difficulty=1).result == 3


def test_plain_rules_sum_every_modifier():
    assert ActionRules().combine([2, 2, -1]) == 3


def test_lisa_and_joe_both_great_keep_the_status_quo():
    outcome = resolve_opposed(active=Side(3, 0), passive=Side(3, 0), rules=F95_OPPOSED)
    assert outcome.relative_degree == 0
    assert outcome.outcome is Outcome.STATUS_QUO
    beaten = resolve_opposed(active=Side(3, 0), passive=Side(3, 1), rules=F95_OPPOSED)
    assert beaten.relative_degree == -1 and beaten.outcome is Outcome.FAILURE


def test_a_mediocre_telepath_fails_a_fair_minimum_whatever_the_victim_rolls():
    outcome = resolve_opposed(
        active=Side(0, 0), passive=Side(-1, 0), minimum=FUDGE_1995.value("Fair"), rules=F95
    )
    assert outcome.relative_degree == 1
    assert outcome.outcome is Outcome.FAILURE
    fair = resolve_opposed(active=Side(1, 0), passive=Side(-1, 0), minimum=1, rules=F95)
    assert fair.succeeded


def test_ezfudge_melee_margin_0_is_a_draw():
    outcome = resolve_opposed(active=Side(2, 0), passive=Side(2, 0), rules=EZ_MELEE)
    assert outcome.outcome is Outcome.DRAW


def test_fudge_lite_opposed_ties_succeed_and_results_clamp_on_both_sides():
    outcome = resolve_opposed(active=Side(-2, -4), passive=Side(-1, -4), rules=LITE)
    assert outcome.active.result == outcome.passive.result == -2
    assert outcome.outcome is Outcome.SUCCESS


def test_plain_opposed_ties_are_ties():
    assert PLAIN_OPPOSED_RULES.tie is Outcome.TIE


@pytest.mark.parametrize(
    ("criticals", "roll", "difficulty", "expected"),
    [
        (Criticals.OFF, 4, 1, None),
        (Criticals.NATURAL, 4, 1, Critical.SUCCESS),
        (Criticals.NATURAL, -4, -5, Critical.FAILURE),  # natural -4 even though it succeeds
        (Criticals.NATURAL, 3, -5, None),  # 4+ past the difficulty, but only natural counts
        (Criticals.MARGIN, 0, -4, Critical.SUCCESS),
        (Criticals.MARGIN, 0, 4, Critical.FAILURE),
        (Criticals.MARGIN, 4, 1, None),
        (Criticals.BOTH, 4, 9, Critical.SUCCESS),  # the natural roll wins over the margin
        (Criticals.BOTH, 1, -3, Critical.SUCCESS),
        (Criticals.BOTH, 1, 0, None),
    ],
)
def test_criticals_follow_fudge_1995_3_6(criticals, roll, difficulty, expected):
    rules = ActionRules(criticals=criticals)
    assert (
        resolve_static(level=0, roll=roll, difficulty=difficulty, rules=rules).critical == expected
    )


def test_opposed_criticals_read_the_relative_degree():
    rules = ActionRules(tie=Outcome.TIE, criticals=Criticals.MARGIN)
    assert resolve_opposed(active=Side(4, 2), passive=Side(0, 0), rules=rules).critical == (
        Critical.SUCCESS
    )


def test_static_outcomes_round_trip_through_json():
    outcome = resolve_static(
        level=3,
        modifiers=[1, 2, -1],
        roll=-2,
        difficulty=2,
        rules=ActionRules(modifiers="largest", criticals="both", floor=-2, ceiling=8),
    )
    data = json.loads(json.dumps(outcome.to_dict()))
    assert data["modifier"] == 1 and data["outcome"] == "success"
    assert StaticOutcome.from_dict(data) == outcome


def test_opposed_outcomes_round_trip_through_json():
    outcome = resolve_opposed(
        active=Side(2, 0, (1,)), passive=Side(3, 0), minimum=1, rules=F95_OPPOSED
    )
    data = json.loads(json.dumps(outcome.to_dict()))
    assert data["outcome"] == "status-quo"
    assert OpposedOutcome.from_dict(data) == outcome


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"margin": 3}, "outcome.margin"),
        ({"result": 9}, "outcome.result"),
        ({"outcome": "failure"}, "outcome.outcome"),
        ({"level": "Good"}, "outcome.level"),
        ({"difficulty": None}, "outcome.difficulty"),
        ({"modifiers": "+1"}, "outcome.modifiers"),
        ({"rules": {"tie": "maybe"}}, "rules.tie"),
        ({"rules": {"luck": 1}}, "rules"),
        ({"rules": {"modifier_cap": -1}}, "rules.modifier_cap"),
        ({"rules": {"floor": 1, "ceiling": 0}}, "rules.floor"),
        ({"rules": {"ceiling": "high"}}, "rules.ceiling"),
    ],
)
def test_stored_static_outcomes_that_the_rules_would_not_give_are_refused(change, setting):
    data = resolve_static(level=1, roll=1, difficulty=1).to_dict() | change
    with pytest.raises(RulesError) as error:
        StaticOutcome.from_dict(data)
    assert error.value.setting == setting


@pytest.mark.parametrize(
    ("change", "setting"),
    [
        ({"relative_degree": 2}, "outcome.relative_degree"),
        ({"active": {"level": 1, "roll": 0, "result": 5}}, "outcome.active.result"),
        ({"passive": "Good"}, "outcome.passive"),
        ({"minimum": "Fair"}, "outcome.minimum"),
    ],
)
def test_stored_opposed_outcomes_that_the_rules_would_not_give_are_refused(change, setting):
    data = resolve_opposed(active=Side(1, 0), passive=Side(0, 0)).to_dict() | change
    with pytest.raises(RulesError) as error:
        OpposedOutcome.from_dict(data)
    assert error.value.setting == setting


@pytest.mark.parametrize(
    ("kwargs", "setting"),
    [
        ({"level": 1.5}, "level"),
        ({"roll": "1"}, "roll"),
        ({"difficulty": True}, "difficulty"),
        ({"modifiers": [1, "2"]}, "modifiers"),
    ],
)
def test_bad_inputs_are_refused_naming_the_argument(kwargs, setting):
    with pytest.raises(RulesError) as error:
        resolve_static(**({"level": 1, "roll": 0, "difficulty": 1} | kwargs))
    assert error.value.setting == setting


def test_bad_opposed_inputs_name_the_side():
    with pytest.raises(RulesError) as error:
        resolve_opposed(active=Side(1, 0), passive=Side("Good", 0))  # type: ignore[arg-type]
    assert error.value.setting == "passive.level"
    with pytest.raises(RulesError) as error:
        resolve_opposed(active=Side(1, 0), passive=Side(1, 0), minimum="Fair")  # type: ignore[arg-type]
    assert error.value.setting == "minimum"


def test_action_rules_take_their_enum_settings_as_text():
    rules = ActionRules(tie="status-quo", modifiers="capped", criticals="natural")  # type: ignore[arg-type]
    assert rules.tie is Outcome.STATUS_QUO
    assert ActionRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    with pytest.raises(RulesError) as error:
        ActionRules.from_dict("plain")
    assert error.value.setting == "rules"


@given(
    level=st.integers(-10, 10),
    roll=st.integers(-4, 4),
    difficulty=st.integers(-10, 10),
    modifiers=st.lists(st.integers(-3, 3), max_size=4),
    policy=st.sampled_from(list(ModifierPolicy)),
    tie=st.sampled_from(list(Outcome)),
)
def test_margin_is_result_minus_difficulty_and_outcome_follows_the_margin(
    level, roll, difficulty, modifiers, policy, tie
):
    rules = ActionRules(tie=tie, modifiers=policy, floor=-2)
    outcome = resolve_static(
        level=level, roll=roll, difficulty=difficulty, modifiers=modifiers, rules=rules
    )
    assert outcome.result == max(-2, level + rules.combine(modifiers) + roll)
    assert outcome.margin == outcome.result - difficulty
    expected = Outcome.SUCCESS if outcome.margin > 0 else Outcome.FAILURE
    assert outcome.outcome is (tie if outcome.margin == 0 else expected)
    assert StaticOutcome.from_dict(json.loads(json.dumps(outcome.to_dict()))) == outcome


@given(st.lists(st.integers(-5, 5), max_size=6))
def test_largest_and_capped_modifiers_stay_within_bounds(modifiers):
    assert -5 <= LITE.combine(modifiers) <= 5
    assert -3 <= F95.combine(modifiers) <= 3


# Situational and reaction rolls, untrained defaults, Fate degrees (resolution/readings.py).


def test_a_situational_roll_reads_0_as_fair():
    assert situational_result(0) == FUDGE_1995.value("Fair")
    assert situational_result(1) == FUDGE_1995.value("Good")
    assert situational_result(-1, [2, -1]) == FUDGE_1995.value("Fair")


def test_nathaniel_gets_a_mildly_helpful_vegetable_seller():
    # Charismatic +1, skilful small talk +1, a prickly subject -2; the GM rolls a Fair result.
    outcome = reaction(0, [1, 1, -2])
    assert outcome.result == FUDGE_1995.value("Fair")
    assert outcome.reaction is Reaction.MILDLY_HELPFUL
    assert outcome.to_dict() == {"result": 1, "reaction": "mildly-helpful"}


@pytest.mark.parametrize(
    ("roll", "expected"),
    [
        (4, Reaction.WELL),
        (1, Reaction.WELL),
        (0, Reaction.MILDLY_HELPFUL),
        (-1, Reaction.UNHELPFUL),
    ],
)
def test_reactions_split_at_good_and_fair(roll, expected):
    assert reaction(roll).reaction is expected


@pytest.mark.parametrize(
    ("commonness", "rung"),
    [("everyone", "Fair"), ("some", "Mediocre"), (Commonness.SPECIALISED, "Poor")],
)
def test_fudge_lite_untrained_levels_run_from_fair_to_poor(commonness, rung):
    assert FUDGE_LITE.name(untrained_fudge_lite(commonness)) == rung


def test_fudge_lite_untrained_needs_a_known_commonness():
    with pytest.raises(RulesError) as error:
        untrained_fudge_lite("rare")
    assert error.value.setting == "commonness"


def test_fudge_1995_untrained_is_poor_or_mediocre_with_a_helpful_attribute():
    # Arnold has no Climbing: Poor. Superb Dexterity palming coins: Mediocre Sleight of Hand.
    assert FUDGE_1995.name(untrained_fudge_1995()) == "Poor"
    assert FUDGE_1995.name(untrained_fudge_1995(high_attribute_helps=True)) == "Mediocre"


@pytest.mark.parametrize(
    ("attribute", "rung"),
    [(None, "Poor"), (4, "Fair"), (3, "Fair"), (2, "Mediocre"), (1, "Poor"), (-2, "Poor")],
)
def test_ezfudge_untrained_is_poor_or_an_attribute_at_minus_2_capped_at_fair(attribute, rung):
    assert EZFUDGE.name(untrained_ezfudge(attribute)) == rung


@pytest.mark.parametrize(
    ("margin", "name"),
    [
        (0, "Minimal"),
        (1, "Competent"),
        (2, "Solid"),
        (3, "Significant"),
        (4, "Perfection"),
        (9, "Perfection"),
    ],
)
def test_fate_static_degrees(margin, name):
    reading = fate_degree(margin)
    assert reading.succeeded and reading.margin == margin and reading.degree.name == name


@pytest.mark.parametrize(
    ("margin", "name"),
    [
        (0, "Minimal"),
        (1, "Competent"),
        (2, "Solid"),
        (4, "Solid"),
        (5, "Significant"),
        (6, "Significant"),
        (7, "Perfection"),
        (12, "Perfection"),
    ],
)
def test_fate_dynamic_degrees(margin, name):
    assert fate_degree(margin, dynamic=True).degree.name == name


def test_the_chess_match_readings():
    # Louis takes a rook (MoS 2), Ferdinand a knight (1), a tie trades pawns, Louis wins by 5.
    assert fate_degree(2, dynamic=True).degree.magnitude == "Moderate"
    assert fate_degree(1, dynamic=True).degree.magnitude == "Minor"
    assert fate_degree(0, dynamic=True).degree.rung == 0
    assert fate_degree(5, dynamic=True).degree.magnitude == "Major"


def test_fate_failures_read_on_the_same_scale_as_an_equivalent_mos():
    reading = fate_degree(-3)
    assert not reading.succeeded
    assert reading.margin == 3
    assert reading.degree.name == "Significant"
    assert reading.to_dict() == {
        "succeeded": False,
        "margin": 3,
        "degree": "Significant",
        "rung": 3,
    }
    assert fate_degree(-1).degree.name == "Competent"


def test_fate_degree_table_matches_the_seed():
    rows = [(d.rung, d.name, d.magnitude, d.duration) for d in FATE_DEGREES]
    assert rows == [
        (0, "Minimal", "Negligible", "Instant"),
        (1, "Competent", "Minor", "Momentary"),
        (2, "Solid", "Moderate", "Scene"),
        (3, "Significant", "Major", "Session"),
        (4, "Perfection", "Overwhelming", "Long term"),
    ]


def test_a_ceiling_caps_the_result():
    rules = ActionRules(ceiling=4)
    assert resolve_static(level=4, roll=3, difficulty=4, rules=rules).result == 4


def test_npc_roll_modes_are_the_seeds_six():
    # F95 3.5's none / 1dF / 2dF / NPC d6, EZFudge's 4dF and Peupfudge's opposed 3dF.
    assert [npc_roll_method(mode).key for mode in NPC_ROLL_MODES] == [
        "none",
        "1dF",
        "2dF",
        "3dF",
        "4dF",
        "npc-d6",
    ]
    for mode in ("5dF", "deck", None):
        with pytest.raises(RulesError) as error:
            npc_roll_method(mode)
        assert error.value.setting == "npc_roll"
