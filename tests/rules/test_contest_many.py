"""Contests of many (fudgetable.rules.resolution.many, fudgetable.rules.odds.many_win_chances).

Seeds: Peupfudge 2 (peupfudge-2022-draft.txt :73, a race between multiple characters, equal
totals a tie) and its Example 4 (:189-203, the race out of the cave)."""

import itertools
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules import odds
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import (
    ActionRules,
    Outcome,
    Side,
    resolve_many,
    resolve_opposed,
)
from fudgetable.rules.rulesets import PRESETS

PEUPFUDGE = PRESETS["peupfudge"]
GROMANNO, NYRV, POLTHOVA = range(3)


def test_the_race_out_of_the_cave_goes_to_nyrv() -> None:
    # :189-203 "They all roll 3dF. Gromanno's player rolls a 0 for him, the GM rolls a +2 for
    # Nyrv, and Polthova's player rolls a -3 for him." L + A + R: 2 + 1 + 0 = 3,
    # 5 - 1 + 2 = 6, 8 + 0 - 3 = 5. "Nyrv emerges from the cave first, victorious".
    race = resolve_many(
        [Side(2, 0, (1,)), Side(5, 2, (-1,)), Side(8, -3, (0,))], PEUPFUDGE.opposed_rules
    )
    assert [side.result for side in race.sides] == [3, 6, 5]
    assert race.outcome is Outcome.SUCCESS and race.winners == (NYRV,)
    assert race.ranking == ((NYRV,), (POLTHOVA,), (GROMANNO,))
    assert race.in_order == (NYRV, POLTHOVA, GROMANNO)
    assert [race.place(side) for side in range(3)] == [3, 1, 2]
    assert race.lead == 1  # Nyrv 6 against the limping Polthova's 5
    assert PEUPFUDGE.opposed_dice == "3dF"  # :73 "For opposed actions, the default R is 3dF"


@pytest.mark.parametrize(
    ("ruleset", "outcome", "winners"),
    [
        ("peupfudge", Outcome.TIE, ()),  # :73 "a tie rather than as a success for any"
        ("fate", Outcome.TIE, ()),
        ("ezfudge", Outcome.DRAW, ()),
        ("fudge-1995", Outcome.STATUS_QUO, ()),
        ("fudge-lite", Outcome.SUCCESS, (0, 2)),  # "the one acting succeeds": each leader
    ],
)
def test_a_shared_best_result_is_read_as_each_ruleset_reads_a_tie(
    ruleset: str, outcome: Outcome, winners: tuple[int, ...]
) -> None:
    sides = [Side(3, 1), Side(2, 0), Side(4, 0)]
    race = resolve_many(sides, PRESETS[ruleset].opposed_rules)
    assert race.ranking == ((0, 2), (1,))
    assert (race.outcome, race.winners, race.lead) == (outcome, winners, 0)
    assert [race.place(side) for side in range(3)] == [1, 3, 1]


def test_a_tie_that_counts_as_failure_leaves_nobody_the_winner() -> None:
    race = resolve_many([Side(1, 0), Side(1, 0), Side(0, 0)], ActionRules(tie=Outcome.FAILURE))
    assert (race.outcome, race.winners) == (Outcome.FAILURE, ())


def test_a_tie_behind_the_winner_changes_nothing() -> None:
    race = resolve_many([Side(1, 0), Side(3, 0), Side(1, 0), Side(0, 0)])
    assert race.winners == (1,) and race.lead == 2
    assert race.ranking == ((1,), (0, 2), (3,))
    assert [race.place(side) for side in range(4)] == [2, 1, 2, 4]


def test_results_are_combined_and_clamped_as_the_ruleset_does() -> None:
    capped = ActionRules(tie=Outcome.TIE, floor=-3, ceiling=3)
    race = resolve_many([Side(3, 4, (2,)), Side(3, 2), Side(-5, 0)], capped)
    assert [side.result for side in race.sides] == [3, 3, -3]
    assert race.outcome is Outcome.TIE
    largest = ActionRules(tie=Outcome.TIE, modifiers=PRESETS["fudge-lite"].static_rules.modifiers)
    assert resolve_many([Side(0, 0, (1, 2)), Side(0, 0), Side(0, 0)], largest).sides[0].result == 2


@pytest.mark.parametrize("sides", [[], [Side(1, 0)]])
def test_a_contest_needs_two_sides(sides: list[Side]) -> None:
    with pytest.raises(RulesError) as info:
        resolve_many(sides)
    assert info.value.setting == "sides"
    with pytest.raises(RulesError):
        odds.many_win_chances([("3dF", 1, ())] * len(sides), PEUPFUDGE.opposed_rules)


def test_a_bad_side_is_named() -> None:
    with pytest.raises(RulesError) as info:
        resolve_many([Side(1, 0), Side("high", 0)])  # type: ignore[arg-type]
    assert info.value.setting == "sides[1].level"


def brute_force(sides: list[tuple[str, int, tuple[int, ...]]], rules: ActionRules) -> list:
    """Every roll of every side, weighed: the chances ``many_win_chances`` must equal."""
    spreads = [list(get_method(method).distribution().items()) for method, _, _ in sides]
    wins = [Fraction(0)] * len(sides)
    for rolls in itertools.product(*spreads):
        chance = Fraction(1)
        for _, p in rolls:
            chance *= p
        race = resolve_many(
            [
                Side(level, roll, mods)
                for (_, level, mods), (roll, _) in zip(sides, rolls, strict=True)
            ],
            rules,
        )
        for winner in race.winners:
            wins[winner] += chance
    return wins


@pytest.mark.parametrize("tie", [Outcome.TIE, Outcome.SUCCESS, Outcome.DRAW])
def test_win_chances_are_exact(tie: Outcome) -> None:
    rules = ActionRules(tie=tie)
    sides = [("2dF", 1, ()), ("1dF", 2, (-1,)), ("2dF", 0, (1,)), ("npc-d6", 1, ())]
    assert list(odds.many_win_chances(sides, rules)) == brute_force(sides, rules)


def test_the_cave_race_odds_before_the_dice() -> None:
    # Who was likely to win before anyone rolled 3dF: Polthova, Fitness 8, by far.
    rules = PEUPFUDGE.opposed_rules
    sides = [("3dF", 2, (1,)), ("3dF", 5, (-1,)), ("3dF", 8, (0,))]
    gromanno, nyrv, polthova = odds.many_win_chances(sides, rules)
    assert polthova > Fraction(9, 10) > nyrv > gromanno > 0
    no_winner = 1 - (gromanno + nyrv + polthova)  # a tie at the top: nobody wins
    assert 0 < no_winner < Fraction(1, 10)
    assert list(odds.many_win_chances(sides, rules)) == brute_force(sides, rules)


def test_two_sides_give_the_odds_of_an_ordinary_contest() -> None:
    rules = ActionRules(tie=Outcome.TIE)
    mine, theirs = odds.many_win_chances([("4dF", 2, ()), ("4dF", 1, ())], rules)
    assert mine == odds.opposed_success_chance("4dF", "4dF", active_level=2, passive_level=1)
    assert theirs == odds.opposed_success_chance("4dF", "4dF", active_level=1, passive_level=2)
    # Two sides with no tie rule to stand between them agree with the opposed resolution.
    two = resolve_many([Side(2, 1), Side(1, 0)], rules)
    assert two.lead == resolve_opposed(active=Side(2, 1), passive=Side(1, 0)).relative_degree


@given(st.lists(st.tuples(st.integers(-3, 8), st.integers(-4, 4)), min_size=2, max_size=8))
def test_every_side_is_ranked_once_and_winners_lead(pairs: list[tuple[int, int]]) -> None:
    race = resolve_many([Side(level, roll) for level, roll in pairs], PEUPFUDGE.opposed_rules)
    assert sorted(race.in_order) == list(range(len(pairs)))
    best = max(side.result for side in race.sides)
    assert all(race.sides[index].result == best for index in race.leaders)
    assert set(race.winners) <= set(race.leaders)
    assert (len(race.winners) == 1) == (len(race.leaders) == 1)
    results = [race.sides[index].result for index in race.in_order]
    assert results == sorted(results, reverse=True)
