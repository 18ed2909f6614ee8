"""A ladder in other words (``worded``): the GM's words first, then the rules' words said in a
language; the English names still read back, and the arithmetic never changes."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import (
    EZFUDGE,
    FATE,
    FUDGE_1995,
    FUDGE_LITE,
    PEUPFUDGE,
    check_rung_name,
    worded,
)

PORTUGUESE = {
    "Terrible": "Terrível",
    "Poor": "Ruim",
    "Mediocre": "Medíocre",
    "Fair": "Razoável",
    "Good": "Bom",
    "Great": "Ótimo",
    "Superb": "Excepcional",
    "Legendary": "Lendário",
}


def test_each_rung_takes_the_first_word_given_for_it():
    ladder = worded(FUDGE_1995, {"Good": "Solid"}, PORTUGUESE)
    assert [rung.name for rung in ladder.rungs] == [
        "Terrível",
        "Ruim",
        "Medíocre",
        "Razoável",
        "Solid",
        "Ótimo",
        "Excepcional",
    ]
    assert ladder.describe(2) == "Solid (+2)"
    assert ladder.name(6) == "Excepcional +2"


def test_the_english_names_and_every_word_given_still_read_back():
    ladder = worded(FUDGE_1995, {"Good": "Solid"}, PORTUGUESE)
    assert ladder.value("Solid") == ladder.value("bom") == ladder.value("GOOD") == 2
    assert ladder.value("Lendário") == ladder.value("Legendary") == 5
    assert ladder.value("Ótimo +2") == 5
    assert ladder.value("Solid (+2)") == 2


def test_a_rung_no_choice_names_keeps_its_own_name():
    ladder = worded(FATE, PORTUGUESE)
    assert ladder.name(1) == "Average"
    assert ladder.name(2) == "Razoável"


def test_the_values_bounds_and_separator_stay():
    for ladder in (FUDGE_LITE, EZFUDGE, FUDGE_1995, FATE):
        said = worded(
            ladder, {rung.name: f"Word {index}" for index, rung in enumerate(ladder.rungs)}
        )
        assert [r.value for r in said.rungs] == [r.value for r in ladder.rungs]
        assert [r.extended for r in said.rungs] == [r.extended for r in ladder.rungs]
        assert (said.floor, said.ceiling, said.separator) == (
            ladder.floor,
            ladder.ceiling,
            ladder.separator,
        )


def test_a_word_already_taken_goes_to_the_first_rung_that_asked_for_it():
    # The GM's words come first: the translation's "Bom" for Good yields to the GM's Great.
    ladder = worded(FUDGE_1995, {"Great": "Bom"}, PORTUGUESE)
    assert ladder.name(3) == "Bom"
    assert ladder.name(2) == "Good"  # its word was taken: its own name
    assert ladder.value("Bom") == 3


def test_words_that_would_read_as_numbers_are_passed_over():
    ladder = worded(FUDGE_1995, {"Good": "+3", "Fair": "Fair (0)", "Great": "Great+"})
    assert [ladder.name(value) for value in (1, 2, 3)] == ["Fair", "Good", "Great"]
    assert ladder.value("+3") == 3


def test_when_no_name_is_left_for_a_rung_the_ladder_keeps_its_own():
    # Fair's own name is the GM's word for Good: Fair has nothing left to be called.
    assert worded(FUDGE_1995, {"Good": "Fair"}) is FUDGE_1995
    # Two rungs may trade names, though: each then has one.
    swapped = worded(FUDGE_1995, {"Good": "Fair"}, {"Fair": "Good"})
    assert (swapped.name(1), swapped.name(2)) == ("Good", "Fair")


def test_a_ladder_of_plain_numbers_has_nothing_to_rename():
    assert worded(PEUPFUDGE, PORTUGUESE) is PEUPFUDGE
    assert worded(FUDGE_1995) is FUDGE_1995


@pytest.mark.parametrize("word", ["", "  ", "+2", "-1", "Good+1", "Good (+1)", "Bom-"])
def test_a_name_no_rung_may_have_is_refused(word):
    with pytest.raises(RulesError):
        check_rung_name(word)


@given(st.dictionaries(st.sampled_from([r.name for r in FUDGE_LITE.rungs]), st.text(max_size=12)))
def test_every_value_has_one_name_that_reads_back_whatever_the_words(words):
    ladder = worded(FUDGE_LITE, words)
    for value in range(-6, 14):
        assert ladder.value(ladder.name(value)) == value
        assert ladder.value(ladder.describe(value)) == value
