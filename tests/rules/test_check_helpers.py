"""What Fudge 1995 ch. 3 lets a roll lean on, as the table rolls it: a minimum result for an
opposed action (3.5), a Good secondary trait's +1 (3.3) and the untrained default a high
attribute raises (3.4)."""

import random
from dataclasses import replace
from fractions import Fraction

import pytest

from fudgetable.rules import checks
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import Outcome, Side, secondary_trait_bonus
from fudgetable.rules.rulesets import PRESETS

F95, FATE, PEUP, LITE = (PRESETS[k] for k in ("fudge-1995", "fate", "peupfudge", "fudge-lite"))
POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -1, 0, 1, 2, 3, 4
# Nobody rolls: each side's level stands, as the seed's examples read them.
STILL = replace(F95, opposed_dice="none", npc_roll="none")


# --- 3.5: "Some Opposed actions have a minimum level needed for success." -------------------


def test_a_mediocre_telepath_fails_a_fair_minimum_even_against_a_poor_resistance():
    """F95 3.5: "an attempt to control a person's mind with a Telepathy skill might require at
    least a Fair result. If the telepath only gets a Mediocre result, it doesn't matter if the
    intended victim rolls a Poor resistance: the attempt fails." """
    mediocre = checks.contest(STILL, active_level=MEDIOCRE, passive_level=POOR, minimum=FAIR)
    assert mediocre.outcome.relative_degree == 1
    assert mediocre.outcome.outcome is Outcome.FAILURE
    assert mediocre.outcome.minimum == FAIR and mediocre.chance == 0
    fair = checks.contest(STILL, active_level=FAIR, passive_level=POOR, minimum=FAIR)
    assert fair.outcome.outcome is Outcome.SUCCESS and fair.chance == 1
    without = checks.contest(STILL, active_level=MEDIOCRE, passive_level=POOR)
    assert without.outcome.outcome is Outcome.SUCCESS


def test_the_odds_of_a_contest_with_a_minimum_are_exact():
    """Counted by hand over both sides' 81 x 81 4dF rolls: the active side wins when its
    result beats the other's and reaches the minimum."""
    fourdf = get_method("4dF").distribution()
    by_hand = sum(
        (
            pa * pb
            for a, pa in fourdf.items()
            for b, pb in fourdf.items()
            if MEDIOCRE + a > POOR + b and MEDIOCRE + a >= FAIR
        ),
        Fraction(0),
    )
    rolled = replace(F95, opposed_dice="4dF", npc_roll="4dF")
    odds = checks.contest_odds(
        rolled, active_level=MEDIOCRE, passive_level=POOR, passive_is_npc=True, minimum=FAIR
    )
    assert odds.chance == by_hand
    # The telepath reaches Fair on +1 or better: 31 of 81 ways.
    assert odds.reaches_minimum == Fraction(31, 81)
    plain = checks.contest_odds(rolled, active_level=MEDIOCRE, passive_level=POOR)
    assert plain.chance > odds.chance and plain.reaches_minimum is None
    assert plain.degrees == odds.degrees  # the relative degree is what it is
    result = checks.contest(
        rolled, active_level=MEDIOCRE, passive_level=POOR, minimum=FAIR, rng=random.Random(7)
    )
    assert result.chance == by_hand


def test_a_fudge_point_on_an_opposed_roll_still_needs_the_minimum():
    allowed = replace(STILL, fudge_point_uses=("alter-by-one",))
    side = Side(MEDIOCRE, -1)
    _, outcome = checks.contest_fudge_point(
        allowed, "alter-by-one", active=side, passive=Side(POOR, -1), minimum=FAIR
    )
    assert outcome.active.result == MEDIOCRE and outcome.outcome is Outcome.FAILURE


# --- 3.3: "the GM may allow a +1 bonus if the trait is Good or better." ----------------------


def test_verne_researches_at_great_with_his_good_anthropology():
    """F95 3.3: "He uses his Research skill of Good, but he also has a Good Anthropology
    skill. The GM decides this is significant enough to give Verne a Great Research skill for
    this occasion." """
    bonus = checks.secondary_bonus(F95, GOOD)
    assert bonus == secondary_trait_bonus(GOOD) == 1
    research = checks.trait_check(
        F95, level=GOOD, difficulty=FAIR, modifiers=(bonus,), roll=get_method("none").roll()
    )
    assert F95.ladder.name(research.outcome.result) == "Great"
    assert checks.secondary_bonus(F95, SUPERB) == 1


@pytest.mark.parametrize("level", [FAIR, MEDIOCRE, POOR])
def test_a_second_trait_below_good_lends_nothing(level: int):
    assert secondary_trait_bonus(level) == 0
    with pytest.raises(RulesError) as error:
        checks.secondary_bonus(F95, level)
    assert error.value.setting == "helper"
    assert "only at Good or better" in error.value.message


def test_good_is_read_on_the_campaigns_own_ladder():
    # Fate's ladder puts Fair at +2 and Good at +3.
    assert checks.secondary_bonus(FATE, 3) == 1
    with pytest.raises(RulesError, match="not Fair"):
        checks.secondary_bonus(FATE, 2)
    with pytest.raises(RulesError, match="this ladder has no Good"):
        checks.secondary_bonus(PEUP, 5)


def test_the_bonus_is_a_modifier_and_fudge_1995_still_caps_the_total_at_three():
    capped = checks.trait_check(
        F95, level=GOOD, difficulty=FAIR, modifiers=(2, 1, 1), roll=get_method("none").roll()
    )
    assert capped.outcome.side.modifier == 3


# --- 3.4: "If a high attribute could logically help an *untrained* skill, set the default at
# Mediocre." -----------------------------------------------------------------------------------


def test_palming_coins_with_a_superb_dexterity_defaults_to_mediocre():
    """F95 3.4: "The player points out that the character's Dexterity attribute is Superb, so
    the GM allows a default of Mediocre Sleight of Hand for this attempt." """
    assert checks.untrained_level(F95) == POOR
    assert checks.untrained_level(F95, helped=True) == MEDIOCRE
    # Other rulesets have their own defaults; a helping attribute is Fudge 1995's.
    assert checks.untrained_level(LITE, helped=True) == checks.untrained_level(LITE)
