"""Dice read through a table into -4 .. +4.

Seeds: Fudge 1995 3.22 (3d6 and d% tables, repeated in EZFudge "Other Ways to Roll"); Fudge Lite
"Alternatives to Fudge Dice" (d66 and 1d100 tables); EZFudge "Other Ways to Roll" (2d10 and d20).
Each table is written here as bands of totals, low to high, and read in one place.
"""

import itertools
from collections.abc import Sequence
from fractions import Fraction

from fudgetable.rules import distribution as dist
from fudgetable.rules.dice.base import DiceMethod, Face, RandomSource, require_faces
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

Bands = tuple[tuple[int, int, int], ...]  # (lowest total, highest total, result)


def _band(bands: Bands, number: int) -> int:
    # The bands of each table cover every total its dice can make.
    return next(result for low, high, result in bands if low <= number <= high)


class SumTable(DiceMethod):
    """Roll some dice of one size, add them, and look the sum up in bands (3d6, 2d10)."""

    def __init__(self, key: str, label: str, dice: int, sides: int, bands: Bands) -> None:
        self.key, self.label = key, label
        self.dice, self.sides, self.bands = dice, sides, bands

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return tuple(rng.randint(1, self.sides) for _ in range(self.dice))

    def read(self, faces: Sequence[object]) -> int:
        return _band(self.bands, sum(require_faces(faces, self.dice, 1, self.sides)))

    def exact(self) -> dict[int, Fraction]:
        total = dist.repeat(dist.uniform(range(1, self.sides + 1)), self.dice)
        return dist.remap(total, lambda number: _band(self.bands, number))


class PercentTable(DiceMethod):
    """Two d10 read as tens and ones, 01 .. 100 (00 is 100). Faces are the two digits 0-9."""

    def __init__(self, key: str, label: str, bands: Bands) -> None:
        self.key, self.label, self.bands = key, label, bands

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return (rng.randint(0, 9), rng.randint(0, 9))

    def read(self, faces: Sequence[object]) -> int:
        tens, ones = require_faces(faces, 2, 0, 9)
        return _band(self.bands, tens * 10 + ones or 100)

    def exact(self) -> dict[int, Fraction]:
        return dist.remap(dist.uniform(range(1, 101)), lambda number: _band(self.bands, number))


# Fudge Lite's d66 table, row = first die, column = second die. It is symmetric, so which die
# is which does not matter.
D66_TABLE = (
    (-4, -3, -2, -2, -1, 0),
    (-3, -1, -1, -1, 0, 1),
    (-2, -1, 0, 0, 1, 2),
    (-2, -1, 0, 0, 1, 2),
    (-1, 0, 1, 1, 1, 3),
    (0, 1, 2, 2, 3, 4),
)


class D66(DiceMethod):
    key = "d66"
    label = gettext_noop("d66 table")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return (rng.randint(1, 6), rng.randint(1, 6))

    def read(self, faces: Sequence[object]) -> int:
        row, column = require_faces(faces, 2, 1, 6)
        return D66_TABLE[row - 1][column - 1]

    def exact(self) -> dict[int, Fraction]:
        return dist.uniform(value for row in D66_TABLE for value in row)


# EZFudge's d20: a 20 or a 1 is rerolled to tell a magnitude of 3 from 4. The seed prints
# "1 & 1-5" for -4 and "1 & 16-20" for -3, leaving a reroll of 6-15 after a 1 unstated. Its note
# says the reroll only picks 3 or 4, and the 20 side gives 4 to a 16-20 reroll and 3 to the
# rest, so we read the 1 side as its mirror: 1-5 gives -4 and every other reroll (6-20) -3.
# That keeps the table symmetric, like every other Fudge table.
D20_BANDS: Bands = ((2, 3, -2), (4, 7, -1), (8, 13, 0), (14, 17, 1), (18, 19, 2))


class D20(DiceMethod):
    key = "d20"
    label = gettext_noop("d20 (reroll 1s and 20s)")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        first = rng.randint(1, 20)
        return (first, rng.randint(1, 20)) if first in (1, 20) else (first,)

    def read(self, faces: Sequence[object]) -> int:
        if len(faces) == 1:
            (first,) = require_faces(faces, 1, 1, 20)
            if first in (1, 20):
                raise RulesError("roll.faces", gettext_noop("a 1 or a 20 needs a second die"))
            return _band(D20_BANDS, first)
        first, second = require_faces(faces, 2, 1, 20)
        if first == 20:
            return 4 if second >= 16 else 3
        if first == 1:
            return -4 if second <= 5 else -3
        raise RulesError(
            "roll.faces", gettext_noop("a second die is only rolled after a 1 or a 20")
        )

    def exact(self) -> dict[int, Fraction]:
        out = dist.remap(dist.uniform(range(2, 20)), lambda number: _band(D20_BANDS, number))
        out = {value: chance * Fraction(18, 20) for value, chance in out.items()}
        for first, second in itertools.product((1, 20), range(1, 21)):
            value = self.read((first, second))
            out[value] = out.get(value, Fraction(0)) + Fraction(1, 400)
        return dict(sorted(out.items()))


THREE_D6 = SumTable(
    "3d6",
    gettext_noop("3d6 table"),
    dice=3,
    sides=6,
    bands=(
        (3, 4, -4),
        (5, 5, -3),
        (6, 7, -2),
        (8, 9, -1),
        (10, 11, 0),
        (12, 13, 1),
        (14, 15, 2),
        (16, 16, 3),
        (17, 18, 4),
    ),
)

TWO_D10 = SumTable(
    "2d10",
    gettext_noop("2d10 table"),
    dice=2,
    sides=10,
    bands=(
        (2, 2, -4),
        (3, 4, -3),
        (5, 6, -2),
        (7, 9, -1),
        (10, 12, 0),
        (13, 15, 1),
        (16, 17, 2),
        (18, 19, 3),
        (20, 20, 4),
    ),
)

# Fudge 1995 and EZFudge share this d% table.
PERCENT = PercentTable(
    "d%",
    gettext_noop("d% table (Fudge 1995, EZFudge)"),
    bands=(
        (1, 1, -4),
        (2, 6, -3),
        (7, 18, -2),
        (19, 38, -1),
        (39, 62, 0),
        (63, 82, 1),
        (83, 94, 2),
        (95, 99, 3),
        (100, 100, 4),
    ),
)

# Fudge Lite's own 1d100 table differs in four bands; as printed it is slightly lopsided
# (19 ways to get -1, 20 to get +1), and we keep it as printed.
D100 = PercentTable(
    "d100",
    gettext_noop("d100 table (Fudge Lite)"),
    bands=(
        (1, 1, -4),
        (2, 6, -3),
        (7, 19, -2),
        (20, 38, -1),
        (39, 61, 0),
        (62, 81, 1),
        (82, 94, 2),
        (95, 99, 3),
        (100, 100, 4),
    ),
)
