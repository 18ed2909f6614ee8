"""Dice: every way the Fudge family rolls, each with its exact distribution.

Seeds: Fudge 1995 3.2 (3.21 Fudge dice, 3.22 4d6 / 3d6 / d%), 3.5 (NPC d6); Fudge Lite "Trait
Checks", "Alternatives to Fudge Dice", "Smaller Bonuses and Penalties"; EZFudge "Other Ways to
Roll"; Peupfudge 2 (NdF). See RULES.md section 2. Pick a method with ``get_method(key)``::

    method = get_method("4dF")
    roll = method.roll()            # Roll(method="4dF", faces=(1, 0, -1, 1), total=1)
    method.distribution()[0]        # Fraction(19, 81)
"""

from fudgetable.rules.dice.base import SYSTEM_RANDOM, DiceMethod, Face, RandomSource, Roll
from fudgetable.rules.dice.deck import DECK, DeckState, card_value, draw
from fudgetable.rules.dice.fudge import MAX_DICE, FudgeD6, FudgeDice
from fudgetable.rules.dice.registry import (
    DEFAULT_METHOD,
    METHOD_KEYS,
    advantage_key,
    get_method,
)
from fudgetable.rules.dice.tables import D66_TABLE

__all__ = [
    "D66_TABLE",
    "DECK",
    "DEFAULT_METHOD",
    "MAX_DICE",
    "METHOD_KEYS",
    "SYSTEM_RANDOM",
    "DeckState",
    "DiceMethod",
    "Face",
    "FudgeD6",
    "FudgeDice",
    "RandomSource",
    "Roll",
    "advantage_key",
    "card_value",
    "draw",
    "get_method",
]
