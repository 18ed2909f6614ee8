import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.advancement import (
    ATTRIBUTE,
    EXAMPLE_KEYS,
    ROLE,
    Key,
    KeyAward,
    LiteXpRules,
    Paid,
    Points,
    end_of_session_xp,
    ez_gift_or_fault_pay,
    ez_gift_or_fault_step,
    ez_raise,
    ez_step,
    ez_step_cost,
    fudge_points_to_xp,
    lite_raise,
    lite_step,
    lite_step_cost,
    peup_level_for_xp,
    peup_step_cost,
    peup_total_cost,
    session_xp,
    xp_to_fudge_points,
)
from fudgetable.rules.errors import RulesError


def test_lite_costs_follow_the_seed_table() -> None:
    # Terrible->Poor 1, Poor->Mediocre 1, Mediocre->Fair 1, Fair->Good 2, Good->Great 4,
    # Great->Superb 8, Superb->Fair Superhuman 16.
    assert [lite_step_cost(level) for level in range(-2, 5)] == [1, 1, 1, 2, 4, 8, 16]


def test_lite_costs_double_on_through_the_superhuman_tier() -> None:
    assert [lite_step_cost(level) for level in (5, 6, 7)] == [32, 64, 128]
    with pytest.raises(RulesError):
        lite_step_cost(8)
    with pytest.raises(RulesError):
        lite_step_cost(-3)


def test_lite_cost_scale_multiplies_the_table() -> None:
    assert lite_step_cost(1, scale=3) == 6
    with pytest.raises(RulesError) as info:
        lite_step_cost(1, scale=0)
    assert info.value.setting == "scale"


def test_going_past_superb_needs_gm_permission() -> None:
    refused = lite_step(4, 20)
    assert not refused.allowed
    assert "permission" in refused.reason
    assert lite_step(4, 20, gm_permission=True).allowed
    assert lite_raise(4, 20, gm_permission=True) == Paid(5, 4)


def test_lite_step_reports_missing_xp() -> None:
    step = lite_step(2, 3)
    assert (step.cost, step.allowed, step.reason) == (4, False, "needs 4 XP, has 3")


def test_paying_for_a_step_you_cannot_afford_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        lite_raise(2, 3)
    assert info.value.setting == "level"


def test_lite_raise_returns_new_level_and_xp_left() -> None:
    assert lite_raise(1, 5) == Paid(2, 3)


def test_negative_xp_is_refused() -> None:
    with pytest.raises(RulesError) as info:
        lite_step(0, -1)
    assert info.value.setting == "xp"


def test_ez_costs_follow_the_seed_table() -> None:
    roles = [ez_step_cost(ROLE, level) for level in range(-1, 5)]
    attributes = [ez_step_cost(ATTRIBUTE, level) for level in range(-1, 5)]
    assert roles == [1, 1, 2, 4, 8, 16]
    assert attributes == [2, 2, 4, 8, 16, 32]


def test_ez_costs_off_the_table_are_extrapolated() -> None:
    assert ez_step_cost(ROLE, -2) == 1
    assert ez_step_cost(ROLE, 5) == 32
    assert ez_step_cost(ATTRIBUTE, 5) == 64


def test_ez_refuses_an_unknown_trait_kind() -> None:
    with pytest.raises(RulesError) as info:
        ez_step_cost("gift", 1)
    assert info.value.setting == "kind"


def test_ez_raise_spends_xp() -> None:
    assert ez_raise(ATTRIBUTE, 2, 10) == Paid(3, 2)
    assert not ez_step(ROLE, 3, 7).allowed


def test_adding_a_gift_costs_8_xp_with_gm_agreement() -> None:
    assert ez_gift_or_fault_pay(10, gm_agrees=True) == 2
    step = ez_gift_or_fault_step(10, gm_agrees=False)
    assert not step.allowed and "GM" in step.reason
    with pytest.raises(RulesError):
        ez_gift_or_fault_pay(7, gm_agrees=True)


def test_fudge_points_turn_into_xp_at_the_campaign_rate() -> None:
    assert fudge_points_to_xp(7, 0, spend=6) == Points(1, 2)
    assert fudge_points_to_xp(2, 1, spend=2, fudge_points_per_xp=1) == Points(0, 3)


@pytest.mark.parametrize(
    ("kwargs", "setting"),
    [
        ({"spend": 4}, "spend"),  # not a multiple of 3
        ({"spend": 9}, "spend"),  # more than held
        ({"spend": 0}, "spend"),
        ({"spend": 3, "fudge_points_per_xp": 0}, "fudge_points_per_xp"),
    ],
)
def test_bad_fudge_point_conversions_are_refused(kwargs: dict, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        fudge_points_to_xp(7, 0, **kwargs)
    assert info.value.setting == setting


def test_back_conversion_gives_two_fudge_points_per_xp() -> None:
    assert xp_to_fudge_points(0, 3, spend=2) == Points(4, 1)
    for fp, xp, spend, setting in [
        (-1, 3, 1, "fudge_points"),
        (0, 3, 0, "spend"),
        (0, 3, 4, "spend"),
    ]:
        with pytest.raises(RulesError) as info:
            xp_to_fudge_points(fp, xp, spend=spend)
        assert info.value.setting == setting


def test_default_rates_make_a_round_trip_a_loss() -> None:
    back = xp_to_fudge_points(0, 1, spend=1)
    assert back == Points(2, 0)
    with pytest.raises(RulesError):
        fudge_points_to_xp(back.fudge_points, back.xp, spend=back.fudge_points)


def test_peupfudge_costs_are_powers_of_two() -> None:
    assert [peup_step_cost(level) for level in range(10)] == [
        1, 2, 4, 8, 16, 32, 64, 128, 256, 512,
    ]  # fmt: skip
    assert [peup_total_cost(level) for level in range(10)] == [
        0, 1, 3, 7, 15, 31, 63, 127, 255, 511,
    ]  # fmt: skip
    for bad in (peup_step_cost, peup_total_cost, peup_level_for_xp):
        with pytest.raises(RulesError):
            bad(-1)


def test_peupfudge_21_xp_from_level_0_is_level_4_with_6_of_16() -> None:
    level, progress = peup_level_for_xp(21)
    assert (level, progress, peup_step_cost(level)) == (4, 6, 16)


@given(st.integers(min_value=0, max_value=60))
def test_total_cost_to_reach_n_is_two_to_the_n_minus_one(n: int) -> None:
    assert peup_total_cost(n) == sum(peup_step_cost(level) for level in range(n)) == 2**n - 1
    assert peup_level_for_xp(2**n - 1) == (n, 0)


@given(st.integers(min_value=0, max_value=10_000))
def test_level_for_xp_never_leaves_a_full_level_unbought(xp: int) -> None:
    level, progress = peup_level_for_xp(xp)
    assert 0 <= progress < peup_step_cost(level)
    assert peup_total_cost(level) + progress == xp


@given(st.integers(-2, 7), st.integers(0, 500), st.booleans())
def test_xp_never_goes_negative_when_paying(level: int, xp: int, permission: bool) -> None:
    step = lite_step(level, xp, gm_permission=permission)
    if step.allowed:
        assert lite_raise(level, xp, gm_permission=permission).xp >= 0
    else:
        with pytest.raises(RulesError):
            lite_raise(level, xp, gm_permission=permission)


def test_core_lite_rules_give_1_xp_a_session() -> None:
    assert session_xp(LiteXpRules()) == 1
    assert session_xp(LiteXpRules(), misses=4) == 1


def test_xp_on_a_miss_adds_one_per_failed_roll() -> None:
    assert session_xp(LiteXpRules(xp_on_a_miss=True), misses=3) == 4


def test_key_awards() -> None:
    hits = {"Key of Renown": 3, "Key of the Mission": 1, "Key of Vengeance": 0}
    assert session_xp(LiteXpRules(key_award=KeyAward.EACH_HIT), key_hits=hits) == 1 + 4
    assert session_xp(LiteXpRules(key_award=KeyAward.PER_KEY), key_hits=hits) == 1 + 2
    assert session_xp(LiteXpRules(key_award=KeyAward.ANY_KEY), key_hits=hits) == 1 + 1
    assert session_xp(LiteXpRules(key_award=KeyAward.ANY_KEY), key_hits={}) == 1


def test_end_of_session_questions_give_1_xp_per_yes() -> None:
    rules = LiteXpRules(questions=("Did you learn something new?", "Did you make an enemy?"))
    assert session_xp(rules, yes_answers=2) == 3
    with pytest.raises(RulesError) as info:
        session_xp(rules, yes_answers=3)
    assert info.value.setting == "yes_answers"


def test_negative_session_counts_are_refused() -> None:
    with pytest.raises(RulesError):
        session_xp(LiteXpRules(), misses=-1)
    with pytest.raises(RulesError):
        LiteXpRules(per_session=-1)


def test_xp_rules_and_keys_round_trip_through_json() -> None:
    rules = LiteXpRules(2, True, KeyAward.PER_KEY, ("Did you help a stranger?",))
    assert LiteXpRules.from_dict(json.loads(json.dumps(rules.to_dict()))) == rules
    assert LiteXpRules.from_dict(LiteXpRules().to_dict()) == LiteXpRules()
    for key in EXAMPLE_KEYS:
        assert Key.from_dict(json.loads(json.dumps(key.to_dict()))) == key


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        ([], "xp_rules"),
        ({"per_session": "1"}, "xp_rules.per_session"),
        ({"xp_on_a_miss": 1}, "xp_rules.xp_on_a_miss"),
        ({"key_award": "sometimes"}, "xp_rules.key_award"),
        ({"questions": [1]}, "xp_rules.questions"),
    ],
)
def test_bad_xp_rules_name_the_field(data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        LiteXpRules.from_dict(data)
    assert info.value.setting == setting


@pytest.mark.parametrize(
    ("data", "setting"),
    [("key", "key"), ({"name": "", "trigger": "x"}, "key.name"), ({"name": "K"}, "key.trigger")],
)
def test_bad_keys_name_the_field(data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        Key.from_dict(data)
    assert info.value.setting == setting


# Fudge Lite "Keys": "1 XP any time a player hits their key, or 1 XP per key at the end of the
# session, or just 1 XP at the end of a session for hitting any key"; "End of Session
# Questions": "For each 'yes' answer the player gains 1 XP".
QUESTIONS = ("Did you learn something new?", "Did you make an enemy?", "Did you help a stranger?")


@pytest.mark.parametrize(
    ("award", "keys", "yes_answers", "xp"),
    [
        (None, 5, 0, 1),  # keys not in use: the count is ignored
        (KeyAward.EACH_HIT, 5, 0, 1 + 5),  # hit a key five times
        (KeyAward.PER_KEY, 2, 0, 1 + 2),  # hit two of its keys
        (KeyAward.ANY_KEY, 3, 0, 1 + 1),  # hit some key: just 1
        (KeyAward.ANY_KEY, 0, 0, 1),
        (None, 0, 3, 1 + 3),
        (KeyAward.EACH_HIT, 2, 1, 1 + 2 + 1),
    ],
)
def test_end_of_session_xp_from_the_gms_counts(award, keys, yes_answers, xp) -> None:
    assert (
        end_of_session_xp(
            per_session=1, key_award=award, keys=keys, questions=QUESTIONS, yes_answers=yes_answers
        )
        == xp
    )


def test_a_pc_who_took_no_part_gets_only_what_the_gm_counted() -> None:
    xp = end_of_session_xp(
        per_session=0, key_award=KeyAward.EACH_HIT, keys=1, questions=QUESTIONS, yes_answers=0
    )
    assert xp == 1


@pytest.mark.parametrize(
    ("keys", "yes_answers", "setting"),
    [(-1, 0, "session"), (0, -1, "session"), (0, 4, "yes_answers")],
)
def test_end_of_session_counts_out_of_range_are_refused(keys, yes_answers, setting) -> None:
    with pytest.raises(RulesError) as info:
        end_of_session_xp(
            per_session=1,
            key_award=KeyAward.PER_KEY,
            keys=keys,
            questions=QUESTIONS,
            yes_answers=yes_answers,
        )
    assert info.value.setting == setting
