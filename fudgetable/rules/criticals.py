"""A campaign's critical results table: 2d6 read on rows the GM writes, rolled when a check or
an opposed roll comes up critical.

Seed: Fudge 1995 3.6 "Critical Results": "The GM may even wish to make a table, such as these
sample melee critical results: [TABLE] Roll 2d6: 2 Blinded for the next combat round - no
defense or offense! ... 8 Weapon breaks, but still useful: -1 to damage. 9 . . . [END TABLE]
And so on - finish and customize to your tastes." The sample's rows 2-8 are Fudge 1995's own
table; 9-12 are the GM's to write. A total with no row says so: the GM decides.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fudgetable.rules import distribution as dist
from fudgetable.rules.data import is_int
from fudgetable.rules.dice import base as dice_base
from fudgetable.rules.dice.base import RandomSource
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

SETTING = "critical_table"
LOWEST, HIGHEST = 2, 12  # what 2d6 can come to
MAX_TEXT = 200  # a row is a line at the table, not a paragraph
MAX_LINES = 40  # room for blank lines and notes; each total still only once

# "2: Blinded", "2. Blinded", "2 - Blinded", "2) Blinded" or "2 Blinded", as a GM types it.
_LINE = re.compile(r"(\d{1,3})\s*(?:[:.)\-\u2013\u2014]\s*)?(.*)")


@dataclass(frozen=True)
class CriticalRow:
    total: int  # the 2d6 total that reads this row
    text: str


def _total(total: object, where: str) -> int:
    if not is_int(total) or not LOWEST <= total <= HIGHEST:
        raise RulesError(
            SETTING,
            gettext_noop("%(where)s: %(total)r is not a 2d6 total (%(lowest)s to %(highest)s)"),
            where=where,
            total=total,
            lowest=LOWEST,
            highest=HIGHEST,
        )
    return total


def _row(total: object, text: object, where: str) -> CriticalRow:
    """One row checked; ``where`` says which ("line 3", "row 1") in the error."""
    total = _total(total, where)
    if not isinstance(text, str) or not text.strip():
        raise RulesError(
            SETTING,
            gettext_noop("%(where)s: write what happens on a %(total)s"),
            where=where,
            total=total,
        )
    if len(text.strip()) > MAX_TEXT:
        raise RulesError(
            SETTING,
            gettext_noop("%(where)s: at most %(max_text)s characters"),
            where=where,
            max_text=MAX_TEXT,
        )
    return CriticalRow(total, text.strip())


def _table(rows: Sequence[tuple[CriticalRow, str]]) -> "CriticalTable":
    seen: dict[int, str] = {}
    for row, where in rows:
        if row.total in seen:
            raise RulesError(
                SETTING,
                gettext_noop("%(where)s: %(seen)s has a row for %(total)s already"),
                where=where,
                seen=seen[row.total],
                total=row.total,
            )
        seen[row.total] = where
    return CriticalTable(tuple(sorted((row for row, _ in rows), key=lambda row: row.total)))


@dataclass(frozen=True)
class CriticalTable:
    """Rows by 2d6 total, lowest first, each total at most once; a total may have no row."""

    rows: tuple[CriticalRow, ...]

    def text_for(self, total: int) -> str:
        """The row's text, or "" for a row the GM left empty."""
        return next((row.text for row in self.rows if row.total == total), "")

    def to_dict(self) -> list[list[Any]]:
        return [[row.total, row.text] for row in self.rows]

    def to_text(self) -> str:
        """The table as the settings page shows it: one "total: text" per line."""
        return "\n".join(f"{row.total}: {row.text}" for row in self.rows)

    @classmethod
    def from_dict(cls, raw: object) -> "CriticalTable":
        """The stored list of [total, text] pairs."""
        if isinstance(raw, str | bytes) or not isinstance(raw, Sequence):
            raise RulesError(
                SETTING, gettext_noop("must be the table's text or a list of [total, text] rows")
            )
        if len(raw) > HIGHEST - LOWEST + 1:
            raise RulesError(
                SETTING,
                gettext_noop("at most %(value)s rows, one per 2d6 total"),
                value=HIGHEST - LOWEST + 1,
            )
        rows = []
        for index, pair in enumerate(raw, start=1):
            if isinstance(pair, str | bytes) or not isinstance(pair, Sequence) or len(pair) != 2:
                raise RulesError(
                    SETTING,
                    gettext_noop("row %(index)s: must be a [total, text] pair"),
                    index=index,
                )
            rows.append((_row(pair[0], pair[1], f"row {index}"), f"row {index}"))
        return _table(rows)


def parse_table(text: str) -> CriticalTable:
    """The table from the GM's plain text, one row per line ("2: Blinded for a round"); blank
    lines, and a total with nothing after it, are skipped. An error names its line."""
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise RulesError(SETTING, gettext_noop("at most %(max_lines)s lines"), max_lines=MAX_LINES)
    rows = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        match = _LINE.fullmatch(line.strip())
        where = f"line {number}"
        if match is None:
            raise RulesError(
                SETTING,
                gettext_noop(
                    '%(where)s: start with the 2d6 total, then what happens ("2: Blinded")'
                ),
                where=where,
            )
        total = _total(int(match[1]), where)
        if not match[2].strip(" .\u2026"):
            continue  # "9:" or the seed's own "9 . . .": a row left for later
        rows.append((_row(total, match[2], where), where))
    return _table(rows)


def read_table(raw: object) -> CriticalTable | None:
    """A campaign's stored setting: the GM's text or the list of rows; null, an empty text or
    an empty list is no table."""
    if raw is None:
        return None
    table = parse_table(raw) if isinstance(raw, str) else CriticalTable.from_dict(raw)
    return table if table.rows else None


# Fudge 1995 3.6's sample melee critical results, rows 2-8 as the seed writes them.
FUDGE_1995_CRITICALS = CriticalTable(
    (
        CriticalRow(2, gettext_noop("Blinded for the next combat round - no defense or offense!")),
        CriticalRow(3, gettext_noop("Fall down: skill at -2 for one round.")),
        CriticalRow(4, gettext_noop("Armor badly damaged - no armor value rest of fight!")),
        CriticalRow(5, gettext_noop("Weapon finds chink in armor - do not subtract for armor.")),
        CriticalRow(6, gettext_noop("Off balance - skill at -1 next turn.")),
        CriticalRow(7, gettext_noop("Drop Weapon.")),
        CriticalRow(8, gettext_noop("Weapon breaks, but still useful: -1 to damage.")),
    )
)


def odds() -> dict[int, Fraction]:
    """The exact chance of each 2d6 total: 1/36 for a 2 up to 1/6 for a 7."""
    return dist.repeat(dist.uniform(range(1, 7)), 2)


@dataclass(frozen=True)
class CriticalRoll:
    faces: tuple[int, int]
    total: int
    text: str  # "" when the GM left the row empty
    chance: Fraction  # of this total on 2d6

    def to_dict(self) -> dict[str, Any]:
        return {
            "faces": list(self.faces),
            "total": self.total,
            "text": self.text,
            "chance": str(self.chance),
            "chance_percent": round(float(self.chance) * 100, 1),
        }


def roll_critical(table: CriticalTable, rng: RandomSource | None = None) -> CriticalRoll:
    """Roll 2d6 on ``table`` (on the server, as every roll is)."""
    # Looked up at each roll, as the dice methods do, so loaded dice in a test reach it too.
    source = dice_base.SYSTEM_RANDOM if rng is None else rng
    faces = (source.randint(1, 6), source.randint(1, 6))
    total = sum(faces)
    return CriticalRoll(faces, total, table.text_for(total), odds()[total])
