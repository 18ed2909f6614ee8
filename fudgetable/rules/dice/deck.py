"""The poker-deck method: a card read through EZFudge's table.

Seed: EZFudge "Other Ways to Roll" (Poker Deck column and its note: two 52-card decks shuffled
together, reshuffled after any Ace). Hearts read high, Spades low, Diamonds +1, Clubs -1 and any
face card 0. Unlike dice the deck has a memory, so a table keeps a ``DeckState``: drawing never
changes a state, it returns the card and the next state for the app to store.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fudgetable.rules import distribution as dist
from fudgetable.rules.data import obj
from fudgetable.rules.dice.base import SYSTEM_RANDOM, DiceMethod, Face, RandomSource, Roll
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "C", "S")
DECKS = 2
ONE_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def card_value(card: object, setting: str = "roll.faces") -> int:
    """The number a card code ("AH", "10D", "QS") reads as."""
    if not isinstance(card, str) or card[:-1] not in RANKS or card[-1:] not in SUITS:
        raise RulesError(
            setting,
            gettext_noop("%(card)r is not a card (rank A, 2-10, J, Q, K + suit HDCS)"),
            card=card,
        )
    rank, suit = card[:-1], card[-1]
    if rank in ("J", "Q", "K"):
        return 0
    if suit in "DC":
        return 1 if suit == "D" else -1
    # Hearts and Spades: Ace 4, 2-3 give 3, 4-10 give 2, with Hearts plus and Spades minus.
    magnitude = 4 if rank == "A" else 3 if rank in ("2", "3") else 2
    return magnitude if suit == "H" else -magnitude


def _pile_distribution(pile: Sequence[str]) -> dict[int, Fraction]:
    return dist.uniform(card_value(card) for card in pile)


@dataclass(frozen=True)
class DeckState:
    """The cards still to be drawn, next card first. Store it with ``to_dict``."""

    pile: tuple[str, ...]

    @classmethod
    def shuffled(cls, rng: RandomSource | None = None) -> "DeckState":
        cards = list(ONE_DECK * DECKS)
        (SYSTEM_RANDOM if rng is None else rng).shuffle(cards)
        return cls(tuple(cards))

    def next_draw(self) -> dict[int, Fraction]:
        """The chance of each number on the next card, for someone who cannot see the pile."""
        return _pile_distribution(self.pile) if self.pile else DECK.distribution()

    def to_dict(self) -> dict[str, Any]:
        return {"pile": list(self.pile)}

    @classmethod
    def from_dict(cls, data: object) -> "DeckState":
        pile = obj(data, "deck").get("pile")
        if not isinstance(pile, list):
            raise RulesError("deck.pile", gettext_noop("must be a list of cards"))
        for card in pile:
            card_value(card, "deck.pile")
        for card in set(pile):
            if pile.count(card) > DECKS:
                raise RulesError(
                    "deck.pile",
                    gettext_noop("%(card)s appears more than %(decks)s times"),
                    card=card,
                    decks=DECKS,
                )
        return cls(tuple(pile))


def draw(state: DeckState | None, rng: RandomSource | None = None) -> tuple[Roll, DeckState]:
    """Draw the top card. With no state (a new table) or an empty pile, shuffle first; after
    any Ace, the next state is a fresh shuffle of both decks."""
    if state is None or not state.pile:
        state = DeckState.shuffled(rng)
    card, rest = state.pile[0], state.pile[1:]
    roll = Roll(DECK.key, (card,), card_value(card))
    if card.startswith("A"):
        return roll, DeckState.shuffled(rng)
    return roll, DeckState(rest)


class Deck(DiceMethod):
    """The deck as a plain method. ``roll`` draws from a freshly shuffled pair of decks, and
    ``distribution`` is that of a fresh draw: 1, 2, 7, 10, 12, 10, 7, 2, 1 cards in 52 for
    -4 .. +4. A table that keeps its deck uses ``draw`` and ``DeckState.next_draw``."""

    key = "deck"
    label = gettext_noop("poker deck (two decks, reshuffled after any Ace)")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return (DeckState.shuffled(rng).pile[0],)

    def read(self, faces: Sequence[object]) -> int:
        if len(faces) != 1:
            raise RulesError("roll.faces", gettext_noop("a deck draw is one card"))
        return card_value(faces[0])

    def exact(self) -> dict[int, Fraction]:
        return _pile_distribution(ONE_DECK)


DECK = Deck()
