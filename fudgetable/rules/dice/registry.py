"""Dice methods by a stable string key, so a campaign can store its choice as text.

Seeds: the methods of Fudge 1995 3.21-3.22 and 3.5, Fudge Lite "Trait Checks" and "Alternatives
to Fudge Dice", EZFudge "Other Ways to Roll", Peupfudge 2. Keys never change once published.
"""

import re
from functools import lru_cache

from fudgetable.rules.dice.base import DiceMethod
from fudgetable.rules.dice.deck import DECK
from fudgetable.rules.dice.fudge import (
    FudgeD6,
    FudgeDice,
    LowestDie,
    NoRoll,
    NpcD6,
    OneD6MinusOneD6,
)
from fudgetable.rules.dice.tables import D20, D66, D100, PERCENT, THREE_D6, TWO_D10
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

_FIXED: dict[str, DiceMethod] = {
    method.key: method
    for method in (
        LowestDie(),
        THREE_D6,
        PERCENT,
        D100,
        OneD6MinusOneD6(),
        D66(),
        TWO_D10,
        D20(),
        DECK,
        NpcD6(),
        NoRoll(),
    )
}

_FUDGE = re.compile(r"([1-9]\d{0,2})dF(?:/([1-9]\d{0,2})(adv|dis))?")
_FUDGE_D6 = re.compile(r"([1-9]\d{0,2})d6-fudge")

# The keys a settings form offers. Any "NdF" (1 <= N <= 100), "NdF/Kadv", "NdF/Kdis" and
# "Nd6-fudge" also work; the ones listed are the common choices.
METHOD_KEYS: tuple[str, ...] = (
    "4dF",
    "3dF",
    "2dF",
    "1dF",
    "5dF",
    "4d6-fudge",
    "4d6-lowest",
    "3d6",
    "d%",
    "d100",
    "1d6-1d6",
    "d66",
    "2d10",
    "d20",
    "deck",
    "npc-d6",
    "none",
)

DEFAULT_METHOD = "4dF"


@lru_cache(maxsize=256)
def _build(key: str) -> DiceMethod:
    if key in _FIXED:
        return _FIXED[key]
    fudge = _FUDGE.fullmatch(key)
    if fudge:
        count, special, kind = fudge.groups()
        extra = int(special) if special else 0
        return FudgeDice(
            int(count),
            advantage=extra if kind == "adv" else 0,
            disadvantage=extra if kind == "dis" else 0,
        )
    d6 = _FUDGE_D6.fullmatch(key)
    if d6:
        return FudgeD6(int(d6.group(1)))
    raise RulesError("dice_method", gettext_noop("unknown dice method %(key)r"), key=key)


def get_method(key: object, setting: str = "dice_method") -> DiceMethod:
    """The method for a stored key; a bad key raises ``RulesError`` naming ``setting``."""
    if not isinstance(key, str):
        raise RulesError(setting, gettext_noop("must be a dice method key, not %(key)r"), key=key)
    try:
        return _build(key)
    except RulesError as error:
        raise RulesError(setting, error.message) from None


def advantage_key(count: int = 4, advantage: int = 0, disadvantage: int = 0) -> str:
    """The key for NdF with some advantage or disadvantage dice (validated)."""
    return FudgeDice(count, advantage, disadvantage).key
