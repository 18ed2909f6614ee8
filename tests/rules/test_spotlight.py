from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.errors import RulesError
from fudgetable.rules.spotlight import shares, time_held


def minutes(length: float) -> timedelta:
    return timedelta(minutes=length)


def test_time_held_adds_up_each_holders_stretches() -> None:
    stretches = [("Louie", minutes(10)), ("Marla", minutes(5)), ("Louie", minutes(5))]
    assert time_held(stretches) == {"Louie": 900, "Marla": 300}


def test_time_held_drops_parts_of_a_second_and_never_goes_negative() -> None:
    stretches = [("Louie", timedelta(seconds=1.9)), ("Marla", minutes(-1))]
    assert time_held(stretches) == {"Louie": 1, "Marla": 0}


def test_nobody_in_the_spotlight_holds_nothing() -> None:
    assert time_held([]) == {}


def test_equal_times_split_evenly() -> None:
    assert shares({"Louie": 60, "Marla": 60}) == {"Louie": 50, "Marla": 50}


def test_thirds_round_so_the_shares_sum_to_100() -> None:
    # 33.3 each: the point lost to rounding goes to the first, ties broken by order.
    assert shares({"Louie": 10, "Marla": 10, "Zed": 10}) == {"Louie": 34, "Marla": 33, "Zed": 33}


def test_the_largest_remainder_gets_the_lost_point() -> None:
    # 14.8 / 42.6 / 42.6 rounded down is 14 / 42 / 42, two points short: Ada's .8 gets one,
    # then Bo's .6 (as large as Cy's, and earlier).
    assert shares({"Ada": 148, "Bo": 426, "Cy": 426}) == {"Ada": 15, "Bo": 43, "Cy": 42}


def test_someone_who_never_held_it_has_a_share_of_0() -> None:
    assert shares({"Louie": 300, "Marla": 0}) == {"Louie": 100, "Marla": 0}


def test_no_time_at_all_gives_everyone_0() -> None:
    assert shares({"Louie": 0, "Marla": 0}) == {"Louie": 0, "Marla": 0}
    assert shares({}) == {}


def test_a_negative_time_is_refused() -> None:
    with pytest.raises(RulesError) as error:
        shares({"Louie": -1})
    assert error.value.setting == "durations"


@given(st.lists(st.integers(min_value=0, max_value=10**6), min_size=1, max_size=12))
def test_shares_always_sum_to_100_and_stay_within_a_point(seconds: list[int]) -> None:
    durations = dict(enumerate(seconds))
    result = shares(durations)
    total = sum(seconds)
    if total == 0:
        assert set(result.values()) == {0}
        return
    assert sum(result.values()) == 100
    for holder, share in result.items():
        assert abs(share - durations[holder] * 100 / total) < 1
