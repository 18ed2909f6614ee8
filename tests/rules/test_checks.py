"""A check as the table rolls it, under each preset ruleset."""

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from fudgetable.rules import checks
from fudgetable.rules.dice import DeckState, Roll, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.odds import success_chance
from fudgetable.rules.resolution import Criticals, Outcome
from fudgetable.rules.rulesets import PRESETS, resolve

LITE, EZ, F95, FATE, PEUP = (
    PRESETS[k] for k in ("fudge-lite", "ezfudge", "fudge-1995", "fate", "peupfudge")
)
FAIR, GOOD, GREAT = 1, 2, 3


def dice(*faces: int) -> Roll:
    return Roll("4dF", faces, sum(faces))


def test_a_check_reads_level_modifiers_and_roll_against_the_difficulty():
    result = checks.trait_check(
        LITE, level=GOOD, difficulty=GREAT, modifiers=(1,), roll=dice(1, 0, 0, 0)
    )
    assert result.outcome.result == 4
    assert result.outcome.margin == 1
    assert result.outcome.outcome is Outcome.SUCCESS
    assert result.chance == success_chance(
        "4dF", level=GOOD, difficulty=GREAT, modifiers=(1,), rules=LITE.static_rules
    )
    assert result.degree == ""
    assert result.to_dict()["roll"]["total"] == 1


def test_fudge_lite_counts_only_the_largest_bonus_and_penalty():
    result = checks.trait_check(
        LITE, level=FAIR, difficulty=FAIR, modifiers=(1, 2, -1, -1), roll=dice(0, 0, 0, 0)
    )
    assert result.outcome.side.modifier == 1


def test_fudge_1995_caps_modifiers_at_three():
    result = checks.trait_check(
        F95, level=FAIR, difficulty=FAIR, modifiers=(2, 2, 1), roll=dice(0, 0, 0, 0)
    )
    assert result.outcome.side.modifier == 3


def test_fate_reads_a_degree_of_success():
    result = checks.trait_check(FATE, level=3, difficulty=2, roll=dice(1, 1, 0, 0))
    assert result.degree == "Significant"


def test_a_roll_is_made_when_none_is_given():
    result = checks.trait_check(LITE, level=FAIR, difficulty=FAIR, rng=random.Random(7))
    assert result.roll.method == "4dF" and len(result.roll.faces) == 4


def test_advantage_dice_replace_fudge_dice_and_never_mix():
    assert checks.dice_for(LITE) == "4dF"
    assert checks.dice_for(LITE, advantage=1) == "4dF/1adv"
    assert checks.dice_for(LITE, disadvantage=2) == "4dF/2dis"
    with pytest.raises(RulesError):
        checks.dice_for(LITE, advantage=1, disadvantage=1)
    with pytest.raises(RulesError) as error:
        checks.dice_for(resolve("fudge-lite", {"dice": "3d6"}), advantage=1)
    assert error.value.setting == "advantage"


def test_opposed_dice_are_the_rulesets():
    assert checks.dice_for(PEUP, opposed=True) == "3dF"


@pytest.mark.parametrize("bad", [11, -11, True, "1"])
def test_a_wild_modifier_is_refused(bad):
    with pytest.raises(RulesError) as error:
        checks.check_modifiers((bad,))
    assert error.value.setting == "modifiers"


def test_the_poker_deck_keeps_its_state_between_draws():
    deck = get_method("deck")
    first, state = checks.roll_dice(deck, rng=random.Random(1))
    assert first.method == "deck" and isinstance(state, DeckState)
    second, later = checks.roll_dice(deck, deck=state, rng=random.Random(1))
    assert second.faces[0] == state.pile[0] and later is not None
    plain, none = checks.roll_dice(get_method("4dF"), rng=random.Random(1))
    assert none is None and plain.method == "4dF"


def test_margins_sum_to_one_and_match_the_chance():
    margins = checks.margins(LITE, level=GOOD, difficulty=GREAT)
    assert sum(margins.values()) == 1
    assert sum(p for m, p in margins.items() if m >= 0) == checks.chance(
        LITE, level=GOOD, difficulty=GREAT
    )


def test_a_contest_against_an_npc_rolls_by_the_npc_roll_mode():
    standing = replace(LITE, npc_roll="none")
    result = checks.contest(
        standing, active_level=GOOD, passive_level=FAIR, passive_is_npc=True, rng=random.Random(3)
    )
    assert result.passive_roll.method == "none" and result.passive_roll.total == 0
    assert 0 < result.chance < 1
    assert result.to_dict()["outcome"]["relative_degree"] == result.outcome.relative_degree


def test_a_fate_contest_reads_a_dynamic_degree():
    result = checks.contest(FATE, active_level=5, passive_level=0, rng=random.Random(5))
    assert result.degree in {"Minimal", "Competent", "Solid", "Significant", "Perfection"}
    assert result.passive_roll.method == "4dF"


def test_situational_and_reaction_rolls_read_from_fair():
    reading = checks.situational(LITE, rng=random.Random(2))
    assert reading.result == LITE.static_rules.clamp(FAIR + reading.roll.total)
    assert reading.reaction == ""
    reaction = checks.situational(LITE, modifiers=(1,), npc_reaction=True, rng=random.Random(2))
    assert reaction.reaction in {"reacts-well", "mildly-helpful", "unhelpful"}
    assert reaction.to_dict()["result"] == reaction.result


def test_fudge_points_reroll_alter_or_turn_a_failure():
    allowed = replace(
        LITE, fudge_point_uses=("reroll", "alter-by-one", "failure-to-success", "coincidence")
    )
    failed = checks.trait_check(allowed, level=FAIR, difficulty=GREAT, roll=dice(0, 0, 0, -1))
    assert (
        checks.fudge_point_result(allowed, "reroll", failed, rng=random.Random(4)).roll
        != failed.roll
    )
    bumped = checks.fudge_point_result(allowed, "alter-by-one", failed)
    assert bumped.outcome.result == failed.outcome.result + 1
    assert bumped.roll.total == failed.roll.total + 1 and bumped.roll.faces == failed.roll.faces
    turned = checks.fudge_point_result(allowed, "failure-to-success", failed)
    assert (
        turned.outcome.outcome is Outcome.SUCCESS and turned.outcome.margin == failed.outcome.margin
    )
    with pytest.raises(RulesError):
        checks.fudge_point_result(allowed, "failure-to-success", turned)
    with pytest.raises(RulesError):
        checks.fudge_point_result(allowed, "coincidence", failed)
    with pytest.raises(RulesError) as error:
        checks.fudge_point_result(LITE, "failure-to-success", failed)
    assert error.value.setting == "use"


def test_a_fudge_point_passes_an_unopposed_check_of_superb_or_lower():
    """Fudge Lite, "Fudge Points": "Automatically succeed at any unopposed roll of Superb or
    lower difficulty." """
    allowed = replace(LITE, fudge_point_uses=("auto-success",))
    superb = LITE.ladder.value("Superb")
    failed = checks.trait_check(allowed, level=FAIR, difficulty=superb, roll=dice(0, 0, 0, -1))
    passed = checks.fudge_point_result(allowed, "auto-success", failed)
    assert passed.outcome.outcome is Outcome.SUCCESS and passed.roll == failed.roll
    beyond = checks.trait_check(allowed, level=FAIR, difficulty=superb + 1, roll=dice(0, 0, 0, 0))
    with pytest.raises(RulesError, match="Superb or lower"):
        checks.fudge_point_result(allowed, "auto-success", beyond)
    with pytest.raises(RulesError, match="already succeeded"):
        checks.fudge_point_result(allowed, "auto-success", passed)


def test_a_fudge_point_buys_a_plus_four_result_without_rolling():
    """Fudge Lite, "Fudge Points": "Get a +4 result without rolling." Fudge 1995 3.6: a
    natural +4 is a critical, but these dice never rolled."""
    natural = replace(LITE, fudge_point_uses=("plus-four",), criticals=Criticals.NATURAL)
    failed = checks.trait_check(natural, level=FAIR, difficulty=GREAT, roll=dice(-1, -1, 0, 0))
    four = checks.fudge_point_result(natural, "plus-four", failed)
    assert four.roll.faces == () and four.roll.total == 4
    assert four.outcome.result == FAIR + 4 and four.outcome.outcome is Outcome.SUCCESS
    assert four.outcome.critical is None


@pytest.mark.parametrize(
    ("ruleset", "kwargs", "level"),
    [
        (LITE, {"commonness": "everyone"}, 1),
        (LITE, {"commonness": "specialised"}, -1),
        (F95, {}, -1),
        (F95, {"helped": True}, 0),
        (EZ, {}, -1),
        (PEUP, {}, 0),
        (FATE, {}, -1),
    ],
)
def test_untrained_levels_follow_each_ruleset(ruleset, kwargs, level):
    assert checks.untrained_level(ruleset, **kwargs) == level


def test_chance_is_a_fraction():
    assert isinstance(checks.chance(EZ, level=FAIR, difficulty=FAIR), Fraction)
