"""A campaign's critical results table (Fudge 1995 3.6, "Critical Results"): "The GM may even
wish to make a table, such as these sample melee critical results: [TABLE] Roll 2d6: 2 Blinded
for the next combat round - no defense or offense! ... 8 Weapon breaks, but still useful: -1 to
damage. 9 . . . [END TABLE] And so on - finish and customize to your tastes." """

from collections.abc import MutableSequence
from fractions import Fraction
from typing import Any

import pytest

from fudgetable.rules.criticals import (
    FUDGE_1995_CRITICALS,
    CriticalRow,
    CriticalTable,
    odds,
    parse_table,
    read_table,
    roll_critical,
)
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import PRESETS, resolve

# The seed's sample as a GM would type it into the settings page, one row a line, its "9 . . ."
# included: the row is left for later.
SEED_SAMPLE = """
2 Blinded for the next combat round - no defense or offense!
3 Fall down: skill at -2 for one round.
4 Armor badly damaged - no armor value rest of fight!
5 Weapon finds chink in armor - do not subtract for armor.
6 Off balance - skill at -1 next turn.
7 Drop Weapon.
8 Weapon breaks, but still useful: -1 to damage.
9 . . .
"""


class Dice:
    """Hands out the faces a test wants, as ``random.Random.randint`` would."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b
        return face

    def shuffle(self, x: MutableSequence[Any]) -> None:  # pragma: no cover - not drawn from
        raise AssertionError("2d6 are not shuffled")


def test_the_seeds_sample_typed_line_by_line_is_fudge_1995s_table():
    table = parse_table(SEED_SAMPLE)
    assert table == FUDGE_1995_CRITICALS
    assert [row.total for row in table.rows] == [2, 3, 4, 5, 6, 7, 8]
    assert table.text_for(2) == "Blinded for the next combat round - no defense or offense!"
    assert table.text_for(8) == "Weapon breaks, but still useful: -1 to damage."
    assert table.text_for(9) == ""  # "9 . . .": the GM's to finish


def test_fudge_1995_keeps_the_sample_and_the_other_presets_keep_none():
    assert PRESETS["fudge-1995"].critical_table == FUDGE_1995_CRITICALS
    for key in ("fudge-lite", "ezfudge", "fate", "peupfudge"):
        assert PRESETS[key].critical_table is None


def test_2d6_odds_are_exact():
    chances = odds()
    assert sorted(chances) == list(range(2, 13))
    assert sum(chances.values()) == 1
    assert chances[2] == chances[12] == Fraction(1, 36)
    assert chances[7] == Fraction(1, 6)
    assert chances[8] == Fraction(5, 36)


def test_a_roll_reads_its_row_and_says_how_likely_it_was():
    rolled = roll_critical(FUDGE_1995_CRITICALS, Dice(3, 4))
    assert (rolled.faces, rolled.total) == ((3, 4), 7)
    assert rolled.text == "Drop Weapon."
    assert rolled.chance == Fraction(1, 6)
    assert rolled.to_dict() == {
        "faces": [3, 4],
        "total": 7,
        "text": "Drop Weapon.",
        "chance": "1/6",
        "chance_percent": 16.7,
    }


def test_a_total_whose_row_is_empty_says_so():
    rolled = roll_critical(FUDGE_1995_CRITICALS, Dice(6, 6))
    assert rolled.total == 12 and rolled.text == "" and rolled.chance == Fraction(1, 36)


def test_rolling_on_the_server_gives_a_2d6_total():
    for _ in range(50):
        rolled = roll_critical(FUDGE_1995_CRITICALS)
        assert all(1 <= face <= 6 for face in rolled.faces)
        assert rolled.total == sum(rolled.faces)
        assert rolled.text == FUDGE_1995_CRITICALS.text_for(rolled.total)


@pytest.mark.parametrize(
    "line",
    ["9: Knocked out", "9. Knocked out", "9 - Knocked out", "9) Knocked out", "  9   Knocked out "],
)
def test_a_gm_writes_a_row_as_they_like(line: str):
    assert parse_table(line) == CriticalTable((CriticalRow(9, "Knocked out"),))


def test_the_text_round_trips_lowest_first():
    table = parse_table("12: Disarmed\n2: Blinded")
    assert table.to_text() == "2: Blinded\n12: Disarmed"
    assert parse_table(table.to_text()) == table
    assert CriticalTable.from_dict(table.to_dict()) == table
    assert table.to_dict() == [[2, "Blinded"], [12, "Disarmed"]]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("2: Blinded\nBlinded again", "line 2: start with the 2d6 total"),
        ("2: Blinded\n\n13: Dead", "line 3: 13 is not a 2d6 total (2 to 12)"),
        ("1:", "line 1: 1 is not a 2d6 total"),
        ("2: Blinded\n2: Dazed", "line 2: line 1 has a row for 2 already"),
        ("7: " + "x" * 201, "line 1: at most 200 characters"),
        ("\n" * 41, "at most 40 lines"),
    ],
)
def test_a_bad_line_is_named(text: str, message: str):
    with pytest.raises(RulesError) as error:
        parse_table(text)
    assert error.value.setting == "critical_table"
    assert error.value.message.startswith(message)


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ([[2, ""]], "row 1: write what happens on a 2"),
        ([[2, "a"], [2, "b"]], "row 2: row 1 has a row for 2 already"),
        ([["2", "Blinded"]], "row 1: '2' is not a 2d6 total"),
        ([[True, "Blinded"]], "row 1: True is not a 2d6 total"),
        ([[2, "Blinded", "extra"]], "row 1: must be a [total, text] pair"),
        ([[n, "x"] for n in range(2, 14)], "at most 11 rows"),
        (3, "must be the table's text"),
    ],
)
def test_stored_rows_are_checked(raw: object, message: str):
    with pytest.raises(RulesError) as error:
        read_table(raw)
    assert error.value.message.startswith(message)


def test_no_table_is_null_an_empty_text_or_an_empty_list():
    assert read_table(None) is read_table("") is read_table("  \n") is read_table([]) is None
    assert read_table("9 . . .") is None


def test_a_campaign_may_drop_or_finish_the_table():
    dropped = resolve("fudge-1995", {"critical_table": None})
    assert dropped.critical_table is None and dropped.overrides == {"critical_table": None}
    finished = resolve("fudge-1995", {"critical_table": SEED_SAMPLE + "9: Knocked out\n"})
    assert finished.critical_table is not None
    assert finished.critical_table.text_for(9) == "Knocked out"
    assert finished.overrides["critical_table"][-1] == [9, "Knocked out"]
    assert resolve("fudge-1995", finished.overrides) == finished
    with pytest.raises(RulesError) as error:
        resolve("fudge-lite", {"critical_table": "2: Blinded\n14: Dead"})
    assert str(error.value) == "critical_table: line 2: 14 is not a 2d6 total (2 to 12)"
