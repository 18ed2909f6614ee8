"""The odds before an opposed roll and a situational or reaction roll, against the seeds."""

from dataclasses import replace
from fractions import Fraction

import pytest

from fudgetable.rules import checks
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import Outcome, Side
from fudgetable.rules.rulesets import PRESETS

F95 = PRESETS["fudge-1995"]


def test_an_npc_who_does_not_roll_stands_as_the_difficulty() -> None:
    """Fudge 1995 3.5: "have only the player roll, and simply let the NPC's trait level be the
    Difficulty Level"; a relative degree of 0 keeps the status quo. Good against Fair wins on
    a roll of 0 or better: 62% in 3.23's table (50/81 exactly)."""
    standing = replace(F95, npc_roll="none")
    odds = checks.contest_odds(standing, active_level=2, passive_level=1, passive_is_npc=True)
    assert odds.chance == Fraction(50, 81)
    assert round(float(odds.chance) * 100) == 62
    assert sum(odds.degrees.values()) == 1


@pytest.mark.parametrize("mode", ["none", "1dF", "2dF", "4dF"])
def test_the_odds_are_those_the_roll_reports_under_each_npc_roll_mode(mode) -> None:
    ruleset = replace(F95, npc_roll=mode)
    sides = {"active_level": 1, "passive_level": 2, "active_modifiers": (1,)}
    before = checks.contest_odds(ruleset, passive_is_npc=True, **sides)
    rolled = checks.contest(ruleset, passive_is_npc=True, **sides)
    assert before.chance == rolled.chance
    winning = sum(p for degree, p in before.degrees.items() if degree > 0)
    assert winning == before.chance  # Fudge 1995: only a positive relative degree wins


def test_a_pc_against_a_pc_rolls_the_same_dice_on_both_sides() -> None:
    even = checks.contest_odds(F95, active_level=1, passive_level=1)
    assert even.degrees == {-d: p for d, p in even.degrees.items()}  # symmetric
    assert even.chance < Fraction(1, 2)  # a tie is nobody's win


def test_a_situational_roll_is_read_from_fair() -> None:
    """Fudge 1995 3.1: "a result of 0 is a Fair result, +1 a Good result"; 3.23: +1 or
    better 38%."""
    results = checks.reading_odds(F95)
    good_or_better = sum(p for result, p in results.items() if result >= 2)
    assert good_or_better == Fraction(31, 81)
    assert round(float(good_or_better) * 100) == 38
    assert results[1] == Fraction(19, 81)


def test_a_reactions_modifiers_go_through_the_ruleset() -> None:
    """Fudge 1995 3.7: Nathaniel's +1 and +1 are cancelled by the -2."""
    assert checks.reading_odds(F95, modifiers=(1, 1, -2)) == checks.reading_odds(F95)


def test_a_kept_deck_gives_the_odds_of_what_is_left_in_its_pile() -> None:
    """EZFudge's poker deck: two decks, reshuffled after any Ace; the table keeps its pile, so
    the next card is one of those left. A pile of one Ace of Hearts (+4) and one King (0)."""
    ez = PRESETS["ezfudge"]
    pile = checks.DeckState(("AH", "KS"))
    margins = checks.deck_margins(ez, pile, level=1, difficulty=4)
    assert margins == {1: Fraction(1, 2), -3: Fraction(1, 2)}
    assert checks.deck_chance(ez, pile, level=1, difficulty=4) == Fraction(1, 2)
    fresh = checks.deck_chance(ez, None, level=1, difficulty=1)
    assert fresh == checks.chance(ez, level=1, difficulty=1, method="deck")


def test_a_fudge_point_on_an_opposed_roll_moves_only_the_spenders_side() -> None:
    """Fudge Lite, "Fudge Points": reroll, alter a roll by 1, convert a failure, +4 without
    rolling, spent by the side that rolled; the other side stands as rolled."""
    lite = replace(
        PRESETS["fudge-lite"],
        fudge_point_uses=("reroll", "alter-by-one", "failure-to-success", "plus-four"),
    )
    mine, theirs = Side(1, -1, (0,)), Side(1, 0, (0,))
    _, bumped = checks.contest_fudge_point(lite, "alter-by-one", active=mine, passive=theirs)
    assert bumped.active.roll == 0 and bumped.relative_degree == 0 and bumped.passive.roll == 0
    dice, four = checks.contest_fudge_point(lite, "plus-four", active=mine, passive=theirs)
    assert dice is not None and dice.faces == () and four.relative_degree == 4
    _, turned = checks.contest_fudge_point(lite, "failure-to-success", active=mine, passive=theirs)
    assert turned.outcome is Outcome.SUCCESS and turned.relative_degree == -1
    with pytest.raises(RulesError, match="not spent on an opposed roll"):
        checks.contest_fudge_point(
            replace(lite, fudge_point_uses=("auto-success",)),
            "auto-success",
            active=mine,
            passive=theirs,
        )
