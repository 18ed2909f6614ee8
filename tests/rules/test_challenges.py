import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.challenges import (
    CHESS_MATCH,
    STATIC_LADDER,
    WORD_ON_THE_STREET,
    ChallengeLadder,
    ChallengeState,
    Fragility,
    Pace,
    Rung,
    Trigger,
    check,
    count_check,
    is_done,
    may_check,
    pass_time,
    recover,
    unmark,
)
from fudgetable.rules.errors import RulesError

PAWNS, MINOR_PIECES, ROOKS, QUEEN, KING = range(5)


def test_the_chess_match_ends_in_checkmate_by_overflow() -> None:
    # FATE 3.2.2. Each player's track records the damage done to the opponent's board.
    louis = ferdinand = CHESS_MATCH.empty()

    # 1. Louis wins the exchange by 2: one of Ferdinand's rooks.
    step = check(CHESS_MATCH, louis, 2)
    louis = step.state
    assert step.rung == ROOKS
    assert CHESS_MATCH.rungs[step.rung].note.startswith("Rooks")

    # 2. Ferdinand wins by 1: one of Louis' knights. Louis's own track sees a MoF of 1,
    #    and the match has no fragility, so nothing comes off it.
    step = check(CHESS_MATCH, ferdinand, 1)
    ferdinand = step.state
    assert step.rung == MINOR_PIECES
    assert check(CHESS_MATCH, louis, -1).state == louis

    # 3. A tie: pawns traded, a box on the lowest rung for each of them.
    louis = check(CHESS_MATCH, louis, 0).state
    ferdinand = check(CHESS_MATCH, ferdinand, 0).state
    assert louis.marks[PAWNS] == ferdinand.marks[PAWNS] == 1

    # 4. Louis wins by 5: Ferdinand's queen.
    step = check(CHESS_MATCH, louis, 5)
    louis = step.state
    assert step.rung == QUEEN
    assert not is_done(CHESS_MATCH, louis)

    # 5. Louis wins by 5 again; the Major rung is full, so it rolls into Overwhelming.
    step = check(CHESS_MATCH, louis, 5)
    assert step.rung == KING
    assert is_done(CHESS_MATCH, step.state)
    assert step.state.marks == (1, 0, 1, 1, 1)
    assert not is_done(CHESS_MATCH, ferdinand)
    with pytest.raises(RulesError) as info:
        check(CHESS_MATCH, step.state, 3)
    assert info.value.setting == "challenge"


def test_dynamic_margins_land_on_their_ranges() -> None:
    expected = {0: 0, 1: 1, 2: 2, 3: 2, 4: 2, 5: 3, 6: 3, 7: 4, 12: 4}
    assert {m: CHESS_MATCH.rung_for(m) for m in expected} == expected


def test_small_successes_add_up_to_a_complete_static_challenge() -> None:
    state = STATIC_LADDER.empty()
    rungs = []
    for _ in range(9):
        step = check(STATIC_LADDER, state, 0)
        state = step.state
        rungs.append(step.rung)
    # Each full rung pushes the next Minimal success one rung up.
    assert rungs == [0, 0, 1, 1, 2, 2, 3, 3, 4]
    assert is_done(STATIC_LADDER, state)


def test_a_big_success_lands_on_the_top_rung_and_finishes() -> None:
    step = check(STATIC_LADDER, STATIC_LADDER.empty(), 6)
    assert step.rung == 4 and is_done(STATIC_LADDER, step.state)


def test_default_fragility_removes_a_success_at_that_rung_or_higher() -> None:
    state = ChallengeState((2, 0, 1, 1, 0))
    step = check(STATIC_LADDER, state, -1)  # nothing at Competent: goes up to Solid
    assert step.rung == 2 and step.state.marks == (2, 0, 0, 1, 0)
    step = check(STATIC_LADDER, ChallengeState((2, 0, 0, 0, 0)), -2)
    assert step.rung is None and step.state.marks == (2, 0, 0, 0, 0)


def test_other_fragilities() -> None:
    state = ChallengeState((2, 1, 1, 0, 0))
    highest = ChallengeLadder("H", STATIC_LADDER.rungs, fragility=Fragility.HIGHEST)
    assert check(highest, state, -1).state.marks == (2, 1, 0, 0, 0)
    everything = ChallengeLadder("A", STATIC_LADDER.rungs, fragility=Fragility.ALL)
    assert check(everything, state, -1).state.marks == (0, 0, 0, 0, 0)
    ruin = ChallengeLadder("D", STATIC_LADDER.rungs, fragility=Fragility.DESTROY)
    destroyed = check(ruin, state, -1).state
    assert destroyed.destroyed
    with pytest.raises(RulesError):
        check(ruin, destroyed, 2)
    assert check(highest, highest.empty(), -1).rung is None


def test_fragility_may_start_only_at_a_large_margin_of_failure() -> None:
    sturdy = ChallengeLadder("S", STATIC_LADDER.rungs, fragile_from=3)
    state = ChallengeState((0, 0, 0, 1, 0))
    assert check(sturdy, state, -2).state == state
    assert check(sturdy, state, -3).state.marks == (0, 0, 0, 0, 0)


def test_word_on_the_street_triggers_thugs_on_a_mof_of_3() -> None:
    state = check(WORD_ON_THE_STREET, WORD_ON_THE_STREET.empty(), 2).state
    assert check(WORD_ON_THE_STREET, state, -2).events == ()
    step = check(WORD_ON_THE_STREET, state, -3)
    assert step.events == ("the character offends someone and is attacked by thugs",)
    assert step.state == state  # no fragility: rumours already heard stay heard
    assert check(WORD_ON_THE_STREET, state, -4).events == step.events


def test_span_limits_checks_per_period() -> None:
    assert may_check(WORD_ON_THE_STREET, 0)
    assert not may_check(WORD_ON_THE_STREET, 1)
    assert may_check(STATIC_LADDER, 50)
    with pytest.raises(RulesError):
        may_check(WORD_ON_THE_STREET, -1)


def test_word_on_the_street_takes_one_check_a_day() -> None:
    # FATE ch. 3 :76 "Span: Check 1/day"; :59 span is "how often a check may be made".
    state = count_check(WORD_ON_THE_STREET, WORD_ON_THE_STREET.empty())
    assert (state.checks, state.pursued) == (1, True)
    with pytest.raises(RulesError) as info:
        count_check(WORD_ON_THE_STREET, state)
    assert info.value.setting == "span"
    assert info.value.message == (
        "Word on the Street allows 1 check each day, and it was made this day; "
        "the next waits until the GM advances time"
    )
    next_day = pass_time(WORD_ON_THE_STREET, state, "Day")
    assert next_day.state.checks == 0 and next_day.lost == 0
    assert next_day.state.pursued  # the week goes on: the day's check still pursued it
    assert count_check(WORD_ON_THE_STREET, next_day.state).checks == 1
    # A ladder without a span takes any number of checks.
    state = STATIC_LADDER.empty()
    for _ in range(5):
        state = count_check(STATIC_LADDER, state)
    assert state.checks == 5


def test_a_week_unpursued_unchecks_a_box_and_a_pursued_week_keeps_them() -> None:
    # FATE ch. 3 :65 "every week the player doesn't pursue this challenge, a box will become
    # unchecked"; :78 "Recovery: 1 box per week".
    rumours = ChallengeState((1, 1, 3, 1, 0))
    left_alone = pass_time(WORD_ON_THE_STREET, rumours, "week")
    assert left_alone.state.marks == (1, 1, 3, 0, 0) and left_alone.lost == 1
    pursued = count_check(WORD_ON_THE_STREET, rumours)
    kept = pass_time(WORD_ON_THE_STREET, pursued, "week")
    assert kept.state.marks == rumours.marks and kept.lost == 0
    # The week that passed starts a new one, unpursued, and a new day's count with it.
    assert (kept.state.pursued, kept.state.checks) == (False, 0)
    # Three weeks after one check: the first was pursued, two were not.
    three = pass_time(WORD_ON_THE_STREET, pursued, "week", 3)
    assert three.state.marks == (1, 1, 2, 0, 0) and three.lost == 2
    # A day passing costs nothing; neither does a period the challenge does not count.
    assert pass_time(WORD_ON_THE_STREET, rumours, "day").state == rumours
    assert pass_time(WORD_ON_THE_STREET, rumours, "month").state == rumours
    with pytest.raises(RulesError):
        pass_time(WORD_ON_THE_STREET, rumours, "week", 0)


def test_a_finished_challenge_loses_nothing_to_time() -> None:
    done = ChallengeState((1, 1, 0, 0, 1))
    assert pass_time(WORD_ON_THE_STREET, done, "week", 4).state.marks == done.marks
    ruined = ChallengeState((1, 0, 0, 0, 0), destroyed=True)
    assert pass_time(WORD_ON_THE_STREET, ruined, "week").lost == 0


def test_a_challenge_names_the_periods_that_change_it() -> None:
    assert WORD_ON_THE_STREET.periods == ("day", "week")
    assert CHESS_MATCH.periods == ("significant moment of play",)
    assert STATIC_LADDER.periods == ()
    weekly = ChallengeLadder(
        "W", STATIC_LADDER.rungs, span=Pace(2, "week"), recovery=Pace(1, "Week")
    )
    assert weekly.periods == ("week",)
    # Both paces on one period: the span's count starts again as the box is lost.
    state = count_check(weekly, count_check(weekly, ChallengeState((1, 0, 0, 0, 0))))
    after = pass_time(weekly, state, "WEEK")
    assert after.state == ChallengeState((1, 0, 0, 0, 0)) and after.lost == 0


def test_recovery_unchecks_boxes_over_time_highest_first() -> None:
    state = ChallengeState((1, 1, 3, 1, 0))
    assert recover(WORD_ON_THE_STREET, state, 1).marks == (1, 1, 3, 0, 0)
    assert recover(WORD_ON_THE_STREET, state, 3).marks == (1, 1, 1, 0, 0)
    assert recover(WORD_ON_THE_STREET, state, 99).marks == (0, 0, 0, 0, 0)
    assert recover(STATIC_LADDER, ChallengeState((1, 1, 0, 0, 0)), 5).marks == (1, 1, 0, 0, 0)
    with pytest.raises(RulesError):
        recover(WORD_ON_THE_STREET, state, -1)


def test_unmark_takes_one_box_off_a_rung() -> None:
    state = ChallengeState((1, 0, 0, 0, 0))
    assert unmark(STATIC_LADDER, state, 0) == STATIC_LADDER.empty()
    for rung in (1, 9):
        with pytest.raises(RulesError):
            unmark(STATIC_LADDER, state, rung)


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Rung(0, 0), "rung.boxes"),
        (lambda: Pace(0, "day"), "pace.count"),
        (lambda: ChallengeLadder("C", ()), "ladder.rungs"),
        (lambda: ChallengeLadder("C", (Rung(1, 2),)), "ladder.rungs"),
        (lambda: ChallengeLadder("C", (Rung(0, 2), Rung(0, 2))), "ladder.rungs"),
        (lambda: ChallengeLadder("C", (Rung(0, 2),), fragile_from=0), "ladder.fragile_from"),
        (lambda: check(STATIC_LADDER, ChallengeState((0,)), 1), "state.marks"),
        (lambda: check(STATIC_LADDER, ChallengeState((3, 0, 0, 0, 0)), 1), "state.marks"),
    ],
)
def test_bad_ladders_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_ladders_and_states_round_trip_through_json() -> None:
    for ladder in (STATIC_LADDER, WORD_ON_THE_STREET, CHESS_MATCH):
        assert ChallengeLadder.from_dict(json.loads(json.dumps(ladder.to_dict()))) == ladder
    state = ChallengeState((1, 2, 0, 1, 0), destroyed=True, checks=2, pursued=True)
    assert ChallengeState.from_dict(json.loads(json.dumps(state.to_dict()))) == state
    # A state stored before checks were counted reads as none counted yet.
    assert ChallengeState.from_dict({"marks": [1], "destroyed": False}) == ChallengeState((1,))
    assert Trigger.from_dict(Trigger(3, "thugs").to_dict()) == Trigger(3, "thugs")


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (ChallengeLadder.from_dict, 7, "ladder"),
        (ChallengeLadder.from_dict, {"name": "C", "rungs": {}}, "ladder.rungs"),
        (
            ChallengeLadder.from_dict,
            {"name": "C", "rungs": [{"mos": 0, "boxes": 1}], "difficulty": "Good"},
            "ladder.difficulty",
        ),
        (
            ChallengeLadder.from_dict,
            {"name": "C", "rungs": [{"mos": 0, "boxes": 1}], "fragility": "glass"},
            "ladder.fragility",
        ),
        (
            ChallengeLadder.from_dict,
            {"name": "C", "rungs": [{"mos": 0, "boxes": 1}], "span": {"count": 1}},
            "pace.period",
        ),
        (Rung.from_dict, {"mos": 0}, "rung.boxes"),
        (ChallengeState.from_dict, {"marks": [True]}, "state.marks"),
        (ChallengeState.from_dict, {"marks": [], "destroyed": "no"}, "state.destroyed"),
        (ChallengeState.from_dict, {"marks": [], "checks": -1}, "state.checks"),
        (ChallengeState.from_dict, {"marks": [], "pursued": "yes"}, "state.pursued"),
        (Pace.from_dict, {"count": 1, "period": " "}, "pace.period"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


ladders = st.sampled_from([STATIC_LADDER, WORD_ON_THE_STREET, CHESS_MATCH])


@given(ladders, st.lists(st.integers(-6, 9), max_size=25))
def test_checks_never_overfill_a_rung(ladder: ChallengeLadder, margins: list[int]) -> None:
    state = ladder.empty()
    for margin in margins:
        if is_done(ladder, state) or state.destroyed:
            break
        state = check(ladder, state, margin).state
        assert all(0 <= m <= r.boxes for m, r in zip(state.marks, ladder.rungs, strict=True))
    assert ChallengeState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@given(ladders, st.lists(st.integers(0, 9), max_size=6), st.integers(0, 9))
def test_a_success_then_unmarking_its_rung_returns_to_the_start(
    ladder: ChallengeLadder, margins: list[int], margin: int
) -> None:
    start = ladder.empty()
    for m in margins:
        if is_done(ladder, start):
            return
        start = check(ladder, start, m).state
    if is_done(ladder, start):
        return
    step = check(ladder, start, margin)
    assert step.rung is not None
    assert unmark(ladder, step.state, step.rung) == start
