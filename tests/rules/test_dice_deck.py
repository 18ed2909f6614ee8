import json
import random
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fudgetable.rules.dice import DECK, DeckState, card_value, draw, get_method
from fudgetable.rules.errors import RulesError

# EZFudge's Poker Deck column, card by card.
HEARTS = {"A": 4, "2": 3, "3": 3} | {str(n): 2 for n in range(4, 11)}
SPADES = {rank: -value for rank, value in HEARTS.items()}
DIAMONDS = {"A": 1} | {str(n): 1 for n in range(2, 11)}
CLUBS = {rank: -1 for rank in DIAMONDS}
EXPECTED = (
    {rank + "H": value for rank, value in HEARTS.items()}
    | {rank + "S": value for rank, value in SPADES.items()}
    | {rank + "D": value for rank, value in DIAMONDS.items()}
    | {rank + "C": value for rank, value in CLUBS.items()}
    | {face + suit: 0 for face in "JQK" for suit in "HDCS"}
)


def test_every_card_reads_as_the_ezfudge_table_says():
    assert len(EXPECTED) == 52
    for card, value in EXPECTED.items():
        assert card_value(card) == value, card


@pytest.mark.parametrize("card", ["1H", "AX", "", "10", "H", 10, None, "QQ"])
def test_things_that_are_not_cards_are_refused(card):
    with pytest.raises(RulesError):
        card_value(card)


def test_a_fresh_draw_has_the_odds_of_one_deck():
    counts = Counter(EXPECTED.values())
    assert DECK.distribution() == {value: Fraction(n, 52) for value, n in sorted(counts.items())}
    assert [counts[v] for v in range(-4, 5)] == [1, 2, 7, 10, 12, 10, 7, 2, 1]
    assert get_method("deck") is DECK


def test_a_shuffled_state_holds_two_full_decks():
    state = DeckState.shuffled(random.Random(3))
    assert Counter(state.pile) == Counter({card: 2 for card in EXPECTED})
    assert state.next_draw() == DECK.distribution()


def test_drawing_returns_the_top_card_and_a_new_state_leaving_the_old_one_alone():
    state = DeckState(("5H", "KS", "AH"))
    roll, after = draw(state)
    assert (roll.method, roll.faces, roll.total) == ("deck", ("5H",), 2)
    assert after == DeckState(("KS", "AH"))
    assert state == DeckState(("5H", "KS", "AH"))
    roll, after = draw(after)
    assert roll.total == 0 and after.pile == ("AH",)


def test_any_ace_brings_a_fresh_shuffle_of_both_decks():
    for ace in ("AH", "AD", "AC", "AS"):
        roll, after = draw(DeckState((ace, "2H")), random.Random(1))
        assert roll.total == card_value(ace)
        assert len(after.pile) == 104


def test_a_new_table_or_an_empty_pile_is_shuffled_before_drawing():
    roll, after = draw(None, random.Random(9))
    assert roll.faces[0] in EXPECTED
    assert len(after.pile) in (103, 104)
    roll, after = draw(DeckState(()), random.Random(9))
    assert len(after.pile) in (103, 104)


def test_next_draw_odds_follow_the_cards_left():
    state = DeckState(("AH", "KS", "2D", "3C"))
    assert state.next_draw() == {
        -1: Fraction(1, 4),
        0: Fraction(1, 4),
        1: Fraction(1, 4),
        4: Fraction(1, 4),
    }
    assert DeckState(()).next_draw() == DECK.distribution()


def test_deck_state_round_trips_through_json():
    state = DeckState.shuffled(random.Random(5))
    for _ in range(30):
        _, state = draw(state, random.Random(5))
        assert DeckState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        (["AH"], "deck"),
        ({"pile": "AH"}, "deck.pile"),
        ({"pile": ["AH", "ZZ"]}, "deck.pile"),
        ({"pile": ["AH", "AH", "AH"]}, "deck.pile"),
    ],
)
def test_bad_deck_states_are_refused(data, setting):
    with pytest.raises(RulesError) as error:
        DeckState.from_dict(data)
    assert error.value.setting == setting


@settings(max_examples=30)
@given(st.integers(0, 2**32), st.integers(1, 150))
def test_a_table_never_runs_out_of_cards(seed, draws):
    rng = random.Random(seed)
    state = None
    for _ in range(draws):
        roll, state = draw(state, rng)
        assert -4 <= roll.total <= 4
        assert Counter(state.pile)["AH"] == 2  # the pile always keeps every Ace until one is drawn


def test_a_deck_roll_without_state_draws_from_a_fresh_pair_of_decks():
    roll = DECK.roll(random.Random(2))
    assert roll.faces[0] in EXPECTED
    with pytest.raises(RulesError):
        DECK.read(("AH", "2H"))
