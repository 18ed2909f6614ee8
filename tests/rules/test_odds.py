from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules import distribution as dist
from fudgetable.rules import odds
from fudgetable.rules.dice import METHOD_KEYS, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import ActionRules, ModifierPolicy, Outcome

# Fudge 1995 3.23: chance of achieving N or better, in percent, for 4dF / d% (one column),
# 3d6 and 4d6 (lowest die). None is the seed's "-".
F95_SUCCESS_RATES = {
    5: (None, None, 0.2),
    4: (1, 2, 2),
    3: (6, 5, 7),
    2: (18, 16, 18),
    1: (38, 38, 39),
    0: (62, 62, 61),
    -1: (82, 84, 82),
    -2: (94, 95, 93),
    -3: (99, 98, 98),
    -4: (100, 100, 99.8),
    -5: (None, None, 100),
}


def _percent(chance):
    return float(chance) * 100


@pytest.mark.parametrize("threshold", sorted(F95_SUCCESS_RATES))
def test_fudge_1995_success_rates_for_d_percent_3d6_and_4d6_match_to_the_seeds_rounding(
    threshold,
):
    percent, three_d6, four_d6 = F95_SUCCESS_RATES[threshold]
    for method, printed in (("d%", percent), ("3d6", three_d6), ("4d6-lowest", four_d6)):
        if printed is None:  # the seed's "-": past what that method can roll
            method_range = get_method(method)
            assert not method_range.lowest < threshold <= method_range.highest
            continue
        exact = _percent(odds.chance_at_least(method, threshold))
        places = 1 if printed % 1 else 0
        assert abs(exact - printed) <= 0.5 * 10**-places, (method, threshold, exact)


@pytest.mark.parametrize("threshold", range(-4, 5))
def test_4df_success_rates_match_fudge_1995_table(threshold):
    # 4dF shares its column with d%, whose table was tuned to 4dF; the exact 4dF chances are
    # within one point of it (e.g. 81.5% printed as 82%).
    printed = F95_SUCCESS_RATES[threshold][0]
    assert abs(_percent(odds.chance_at_least("4dF", threshold)) - printed) < 1


# EZFudge "Percentages": chance of a Mediocre (0) or better outcome; rows are the modified trait
# rank Superb .. Terrible, columns the difficulty Terrible .. Superb. 100 = "Automatic",
# 0 = "Never".
EZ_PERCENTAGES = {
    4: (100, 100, 100, 99, 94, 82, 62),
    3: (100, 100, 99, 94, 82, 62, 38),
    2: (100, 99, 94, 82, 62, 38, 18),
    1: (99, 94, 82, 62, 38, 18, 6),
    0: (94, 82, 62, 38, 18, 6, 1),
    -1: (82, 62, 38, 18, 6, 1, 0),
    -2: (62, 38, 18, 6, 1, 0, 0),
}


@pytest.mark.parametrize("rank", sorted(EZ_PERCENTAGES))
def test_ezfudge_percentages_table(rank):
    for difficulty, printed in zip(range(-2, 5), EZ_PERCENTAGES[rank], strict=True):
        chance = odds.success_chance("4dF", level=rank, difficulty=difficulty)
        if printed in (0, 100):
            assert chance == printed // 100, (rank, difficulty)
        else:
            assert abs(_percent(chance) - printed) < 1, (rank, difficulty)


# Peupfudge appendix D: P(NdF >= D) for N = 1..9 and D = -5..5, to two places.
PEUP_APPENDIX_D = {
    1: (1.00, 1.00, 1.00, 1.00, 1.00, 0.67, 0.33, 0.00, 0.00, 0.00, 0.00),
    2: (1.00, 1.00, 1.00, 1.00, 0.89, 0.67, 0.33, 0.11, 0.00, 0.00, 0.00),
    3: (1.00, 1.00, 1.00, 0.96, 0.85, 0.63, 0.37, 0.15, 0.04, 0.00, 0.00),
    4: (1.00, 1.00, 0.99, 0.94, 0.81, 0.62, 0.38, 0.19, 0.06, 0.01, 0.00),
    5: (1.00, 1.00, 0.98, 0.91, 0.79, 0.60, 0.40, 0.21, 0.09, 0.02, 0.00),
    6: (1.00, 0.99, 0.96, 0.89, 0.77, 0.60, 0.40, 0.23, 0.11, 0.04, 0.01),
    7: (1.00, 0.98, 0.95, 0.87, 0.75, 0.59, 0.41, 0.25, 0.13, 0.05, 0.02),
    8: (0.99, 0.98, 0.94, 0.86, 0.74, 0.58, 0.42, 0.26, 0.14, 0.06, 0.02),
    9: (0.99, 0.97, 0.92, 0.84, 0.73, 0.58, 0.42, 0.27, 0.16, 0.08, 0.03),
}


@pytest.mark.parametrize("dice", sorted(PEUP_APPENDIX_D))
def test_peupfudge_appendix_d_for_1_to_9_fudge_dice(dice):
    for threshold, printed in zip(range(-5, 6), PEUP_APPENDIX_D[dice], strict=True):
        exact = float(odds.chance_at_least(f"{dice}dF", threshold))
        assert abs(exact - printed) <= 0.005 + 1e-12, (dice, threshold, exact)


def test_peupfudge_reference_sheet_4df_column():
    printed = {-3: 0.99, -2: 0.94, -1: 0.81, 0: 0.62, 1: 0.38, 2: 0.19, 3: 0.06, 4: 0.01}
    for threshold, chance in printed.items():
        assert abs(float(odds.chance_at_least("4dF", threshold)) - chance) <= 0.005


def test_adam_has_about_a_one_in_five_chance():
    chance = odds.success_chance("4dF", level=2, difficulty=4)
    assert chance == Fraction(15, 81)
    assert abs(chance - Fraction(1, 5)) < Fraction(1, 50)


def test_fudge_lite_fair_athlete_needs_plus_2_to_jump_a_great_river():
    assert odds.success_chance("4dF", level=1, difficulty=3) == odds.chance_at_least("4dF", 2)


def test_a_fair_trait_against_good_succeeds_about_two_times_in_five():
    assert round(float(odds.success_chance("3d6", level=1, difficulty=2)), 1) == 0.4


def test_margin_distribution_is_the_roll_shifted_by_level_modifiers_and_difficulty():
    margins = odds.margin_distribution("4dF", level=3, modifiers=[1], difficulty=4)
    assert margins == get_method("4dF").distribution()
    assert odds.margin_distribution("4dF", level=0, difficulty=2)[-6] == Fraction(1, 81)


def test_clamped_results_pile_up_on_the_floor():
    rules = ActionRules(floor=-2)
    results = odds.result_distribution("4dF", level=0, rules=rules)
    assert min(results) == -2
    assert results[-2] == Fraction(1 + 4 + 10, 81)
    assert odds.success_chance("4dF", level=0, difficulty=-2, rules=rules) == 1


def test_modifier_policies_change_the_odds():
    lite = ActionRules(modifiers=ModifierPolicy.LARGEST)
    capped = ActionRules(modifiers=ModifierPolicy.CAPPED)
    plain = odds.success_chance("4dF", level=0, difficulty=4, modifiers=[2, 2])
    assert plain == odds.chance_at_least("4dF", 0)
    assert odds.success_chance(
        "4dF", level=0, difficulty=4, modifiers=[2, 2], rules=lite
    ) == odds.chance_at_least("4dF", 2)
    assert odds.success_chance(
        "4dF", level=0, difficulty=4, modifiers=[2, 2], rules=capped
    ) == odds.chance_at_least("4dF", 1)


def test_tie_policy_decides_whether_margin_0_counts():
    tie = ActionRules(tie=Outcome.TIE)
    chances = odds.outcome_chances("4dF", level=1, difficulty=1, rules=tie)
    assert chances[Outcome.TIE] == Fraction(19, 81)
    assert chances[Outcome.SUCCESS] == Fraction(31, 81)
    assert sum(chances.values()) == 1
    assert odds.success_chance("4dF", level=1, difficulty=1) == Fraction(50, 81)


def test_opposed_4df_against_4df_spans_minus_8_to_8():
    # Fate 3.2.1: both sides rolling four dice give -8 .. +8.
    degrees = odds.opposed_degree_distribution("4dF", "4dF", active_level=2, passive_level=2)
    assert min(degrees) == -8 and max(degrees) == 8
    assert degrees == get_method("8dF").distribution()


def test_opposed_odds_are_a_convolution():
    degrees = odds.opposed_degree_distribution(
        "3dF", "npc-d6", active_level=3, passive_level=1, active_modifiers=[1]
    )
    expected = dist.convolve(
        dist.shift(get_method("3dF").distribution(), 3 + 1 - 1),
        dist.negate(get_method("npc-d6").distribution()),
    )
    assert degrees == expected


@pytest.mark.parametrize("npc", ["none", "1dF", "2dF", "4dF", "npc-d6"])
def test_every_npc_roll_mode_gives_opposed_odds(npc):
    chances = odds.opposed_outcome_chances(
        "4dF", npc, active_level=2, passive_level=2, rules=ActionRules(tie=Outcome.STATUS_QUO)
    )
    assert sum(chances.values()) == 1
    assert chances[Outcome.SUCCESS] == chances[Outcome.FAILURE]  # even match, symmetric dice


def test_an_npc_that_does_not_roll_is_a_static_difficulty():
    assert odds.opposed_success_chance(
        "4dF", "none", active_level=1, passive_level=2, rules=ActionRules()
    ) == odds.success_chance("4dF", level=1, difficulty=2)


def test_a_minimum_result_lowers_the_opposed_chance():
    free = odds.opposed_success_chance("4dF", "4dF", active_level=0, passive_level=-1)
    bound = odds.opposed_success_chance("4dF", "4dF", active_level=0, passive_level=-1, minimum=1)
    assert bound < free
    assert (
        odds.opposed_success_chance("4dF", "none", active_level=0, passive_level=-5, minimum=5) == 0
    )


def test_odds_are_cached():
    odds._results.cache_clear()
    odds.success_chance("d66", level=1, difficulty=2)
    odds.success_chance("d66", level=1, difficulty=2)
    assert odds._results.cache_info().hits >= 1
    odds.opposed_success_chance("d66", "2dF", active_level=1, passive_level=1)
    before = odds._opposed.cache_info().hits
    odds.opposed_success_chance("d66", "2dF", active_level=1, passive_level=1)
    assert odds._opposed.cache_info().hits == before + 1


def test_cached_answers_are_fresh_dicts():
    first = odds.margin_distribution("4dF", level=0, difficulty=0)
    first[0] = Fraction(1)
    assert odds.margin_distribution("4dF", level=0, difficulty=0)[0] == Fraction(19, 81)


@pytest.mark.parametrize(
    ("call", "setting"),
    [
        (lambda: odds.success_chance("4dX", level=0, difficulty=0), "dice_method"),
        (lambda: odds.success_chance("4dF", level="Good", difficulty=0), "level"),
        (lambda: odds.success_chance("4dF", level=0, difficulty=None), "difficulty"),
        (lambda: odds.chance_at_least("4dF", 1.5), "threshold"),
        (
            lambda: odds.opposed_success_chance("4dF", "9d9", active_level=0, passive_level=0),
            "dice_method",
        ),
        (
            lambda: odds.opposed_success_chance("4dF", "4dF", active_level=0, passive_level="x"),
            "passive_level",
        ),
        (
            lambda: odds.opposed_success_chance(
                "4dF", "4dF", active_level=0, passive_level=0, minimum="Fair"
            ),
            "minimum",
        ),
    ],
)
def test_bad_odds_questions_are_refused(call, setting):
    with pytest.raises(RulesError) as error:
        call()
    assert error.value.setting == setting


@given(
    method=st.sampled_from(METHOD_KEYS),
    level=st.integers(-6, 6),
    difficulty=st.integers(-8, 8),
    tie=st.sampled_from(list(Outcome)),
)
def test_odds_fall_as_difficulty_rises(method, level, difficulty, tie):
    rules = ActionRules(tie=tie)
    here = odds.success_chance(method, level=level, difficulty=difficulty, rules=rules)
    harder = odds.success_chance(method, level=level, difficulty=difficulty + 1, rules=rules)
    assert 0 <= harder <= here <= 1


@given(
    method=st.sampled_from(METHOD_KEYS),
    level=st.integers(-6, 6),
    difficulty=st.integers(-8, 8),
    floor=st.none() | st.integers(-4, 0),
)
def test_margin_distributions_sum_to_one_and_respect_the_floor(method, level, difficulty, floor):
    rules = ActionRules(floor=floor)
    margins = odds.margin_distribution(method, level=level, difficulty=difficulty, rules=rules)
    assert sum(margins.values()) == 1
    if floor is not None:
        assert min(margins) >= floor - difficulty
    chances = odds.outcome_chances(method, level=level, difficulty=difficulty, rules=rules)
    assert sum(chances.values()) == 1


@given(
    active=st.sampled_from(METHOD_KEYS),
    passive=st.sampled_from(METHOD_KEYS),
    level=st.integers(-3, 3),
)
def test_opposed_odds_sum_to_one_and_rise_with_the_active_level(active, passive, level):
    common = {"passive_level": 0, "rules": ActionRules(tie=Outcome.TIE)}
    chances = odds.opposed_outcome_chances(active, passive, active_level=level, **common)
    assert sum(chances.values()) == 1
    better = odds.opposed_success_chance(active, passive, active_level=level + 1, **common)
    assert better >= chances[Outcome.SUCCESS]


def test_a_ceiling_caps_results_and_margins():
    rules = ActionRules(ceiling=4)
    results = odds.result_distribution("4dF", level=3, rules=rules)
    assert max(results) == 4
    assert results[4] == Fraction(1 + 4 + 10 + 16, 81)
    assert odds.success_chance("4dF", level=3, difficulty=5, rules=rules) == 0
