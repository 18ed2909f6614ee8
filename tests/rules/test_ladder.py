import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import (
    EZFUDGE,
    FATE,
    FUDGE_1995,
    FUDGE_LITE,
    LADDERS,
    PEUPFUDGE,
    Ladder,
    Rung,
    get_ladder,
)

SEVEN = ["Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb"]


@pytest.mark.parametrize("ladder", [FUDGE_LITE, EZFUDGE, FUDGE_1995])
def test_the_seven_words_run_from_terrible_minus_2_to_superb_plus_4(ladder):
    values = {name: ladder.value(name) for name in SEVEN}
    assert values == dict(zip(SEVEN, range(-2, 5), strict=True))


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (5, "Fair Superhuman"),
        (6, "Good Superhuman"),
        (7, "Great Superhuman"),
        (8, "Superb Superhuman"),
        (9, "Superb Superhuman +1"),
        (12, "Superb Superhuman +4"),
        (-3, "Terrible -1"),
    ],
)
def test_fudge_lite_names_the_superhuman_tier_and_beyond(value, name):
    assert FUDGE_LITE.name(value) == name
    assert FUDGE_LITE.value(name) == value


def test_fudge_lite_results_never_go_below_terrible():
    # The warg example: Mediocre Dexterity rolls -3 -> "Just Terrible."
    assert FUDGE_LITE.clamp(0 - 3) == -2
    assert FUDGE_LITE.name(FUDGE_LITE.clamp(-3)) == "Terrible"
    assert FUDGE_LITE.clamp(12) == 12


def test_fudge_lite_superhuman_rungs_are_extended_not_trait_rungs():
    assert [rung.name for rung in FUDGE_LITE.trait_rungs] == SEVEN
    assert FUDGE_LITE.rung(6) == Rung("Good Superhuman", 6, extended=True)
    assert FUDGE_LITE.rung(100) is None


@pytest.mark.parametrize(
    ("value", "name"),
    [
        (5, "Superb+1"),
        (7, "Superb+3"),
        (-3, "Worse Than Terrible"),
        (-4, "Completely Terrible"),
        (-5, "Completely Terrible-1"),
        (-7, "Completely Terrible-3"),
    ],
)
def test_ezfudge_names_rungs_past_both_ends(value, name):
    assert EZFUDGE.name(value) == name
    assert EZFUDGE.value(name) == value


@pytest.mark.parametrize(
    ("value", "name"),
    [(5, "Superb +1"), (8, "Superb +4"), (-3, "Terrible -1"), (-6, "Terrible -4")],
)
def test_fudge_1995_names_beyond_superb_and_below_terrible(value, name):
    assert FUDGE_1995.name(value) == name
    assert FUDGE_1995.value(name) == value


def test_legendary_is_an_alias_for_superb_plus_1():
    assert FUDGE_1995.value("Legendary") == 5
    assert FUDGE_1995.name(5) == "Superb +1"


def test_fudge_1995_announcements_like_great_plus_2_parse():
    # Captain Wallop announces "Great +2"; a Fair poet rolling +2 wrote a Great poem.
    assert FUDGE_1995.value("Great +2") == 5
    assert FUDGE_1995.name(FUDGE_1995.value("Fair+2")) == "Great"
    assert FUDGE_1995.value("Good -3") == -1


def test_fate_puts_average_between_mediocre_and_fair():
    names = [rung.name for rung in FATE.rungs]
    assert names == [*SEVEN[:3], "Average", *SEVEN[3:]]
    assert [FATE.value(name) for name in names] == list(range(-2, 6))
    assert FATE.name(6) == "Superb +1"


def test_peupfudge_is_plain_unbounded_integers():
    assert PEUPFUDGE.numeric
    assert PEUPFUDGE.name(0) == "0"
    assert PEUPFUDGE.name(-43) == "-43"  # the ant's Strength, 7 - 50
    assert PEUPFUDGE.value("+8") == 8
    assert PEUPFUDGE.describe(5) == "5"
    assert PEUPFUDGE.clamp(-1000) == -1000
    with pytest.raises(RulesError):
        PEUPFUDGE.value("Good")


@pytest.mark.parametrize("text", ["good", "GOOD", "  Good ", "g o o d", "+2", "2", "Good (+2)"])
def test_names_parse_whatever_the_case_and_spacing(text):
    assert FUDGE_1995.value(text) == 2


@pytest.mark.parametrize("text", ["superb+1", "Superb + 1", "SUPERB   +1", "legendary"])
def test_offsets_parse_whatever_the_spacing(text):
    assert FUDGE_1995.value(text) == 5


def test_describe_prints_name_and_number_like_the_seeds():
    assert EZFUDGE.describe(2) == "Good (+2)"
    assert EZFUDGE.describe(0) == "Mediocre (0)"
    assert EZFUDGE.describe(-1) == "Poor (-1)"
    assert EZFUDGE.value("Worse Than Terrible (-3)") == -3


@pytest.mark.parametrize(
    "text", ["Fabulous", "Good (+3)", "", "Superb +x", "++2", "Poorly", "9" * 5000]
)
def test_unknown_names_are_refused_naming_the_field(text):
    with pytest.raises(RulesError) as error:
        FUDGE_1995.value(text, setting="difficulty")
    assert error.value.setting == "difficulty"


def test_only_text_parses_and_only_integers_have_names():
    with pytest.raises(RulesError):
        FUDGE_1995.value(2)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        FUDGE_1995.name(True)
    with pytest.raises(RulesError):
        FUDGE_1995.name(1.0)  # type: ignore[arg-type]


@given(st.sampled_from(list(LADDERS.values())), st.integers(-(10**6), 10**6))
def test_every_integer_has_a_name_that_parses_back(ladder, value):
    assert ladder.value(ladder.name(value)) == value
    assert ladder.value(ladder.describe(value)) == value


@given(st.sampled_from(list(LADDERS.values())), st.integers(-50, 50))
def test_names_are_unique(ladder, value):
    assert ladder.name(value) != ladder.name(value + 1)


@given(st.sampled_from(list(LADDERS.values())), st.integers(-50, 50))
def test_clamps_hold(ladder, value):
    clamped = ladder.clamp(value)
    assert ladder.floor is None or clamped >= ladder.floor
    assert ladder.ceiling is None or clamped <= ladder.ceiling


@pytest.mark.parametrize("ladder", list(LADDERS.values()), ids=list(LADDERS))
def test_ladders_round_trip_through_json(ladder):
    data = json.loads(json.dumps(ladder.to_dict()))
    assert Ladder.from_dict(data) == ladder


def test_get_ladder_finds_presets_and_refuses_unknown_keys():
    assert get_ladder("ezfudge") is EZFUDGE
    with pytest.raises(RulesError) as error:
        get_ladder("gurps")
    assert error.value.setting == "ladder"


def _custom(**changes):
    data = {
        "key": "house",
        "label": "House",
        "rungs": [
            {"name": "Hopeless", "value": -1},
            {"name": "Able", "value": 1},
            {"name": "Heroic", "value": 4, "extended": True},
        ],
        "aliases": [{"name": "Mythic", "value": 6}],
        "separator": "",
        "floor": -1,
        "ceiling": 6,
    }
    data.update(changes)
    return data


def test_custom_ladders_come_from_data_and_name_their_gaps():
    house = Ladder.from_dict(_custom())
    assert house.name(0) == "Hopeless+1"
    assert house.name(3) == "Able+2"
    assert house.name(-3) == "Hopeless-2"
    assert house.value("mythic") == 6
    assert house.clamp(9) == 6
    assert house.clamp(-9) == -1
    assert [rung.name for rung in house.trait_rungs] == ["Hopeless", "Able"]
    assert Ladder.from_dict(json.loads(json.dumps(house.to_dict()))) == house


@pytest.mark.parametrize(
    ("changes", "setting"),
    [
        ({"rungs": [{"name": "A", "value": 1}, {"name": "a", "value": 2}]}, "ladder.rungs[1].name"),
        ({"rungs": [{"name": "A", "value": 2}, {"name": "B", "value": 2}]}, "ladder.rungs"),
        ({"rungs": [{"name": "A", "value": 2}, {"name": "B", "value": 1}]}, "ladder.rungs"),
        ({"rungs": [{"name": "A", "value": "2"}]}, "ladder.rungs[0].value"),
        ({"rungs": [{"name": "", "value": 2}]}, "ladder.rungs[0].name"),
        ({"rungs": [{"name": "12", "value": 2}]}, "ladder.rungs[0].name"),
        ({"rungs": [{"name": "Good+1", "value": 2}]}, "ladder.rungs[0].name"),
        ({"rungs": [{"name": "Good (x)", "value": 2}]}, "ladder.rungs[0].name"),
        ({"rungs": [{"name": "Good-", "value": 2}]}, "ladder.rungs[0].name"),
        ({"rungs": [{"name": "Good", "value": 2, "extended": "no"}]}, "ladder.rungs[0].extended"),
        ({"rungs": ["Good"]}, "ladder.rungs[0]"),
        ({"rungs": "Good"}, "ladder.rungs"),
        ({"aliases": [{"name": "Able", "value": 3}]}, "ladder.aliases[0].name"),
        ({"separator": "/"}, "ladder.separator"),
        ({"separator": 1}, "ladder.separator"),
        ({"floor": 3, "ceiling": 2}, "ladder.floor"),
        ({"floor": "low"}, "ladder.floor"),
        ({"key": ""}, "ladder.key"),
        ({"label": None}, "ladder.label"),
    ],
)
def test_bad_custom_ladders_are_refused_naming_the_field(changes, setting):
    with pytest.raises(RulesError) as error:
        Ladder.from_dict(_custom(**changes))
    assert error.value.setting == setting


def test_a_ladder_must_be_an_object():
    with pytest.raises(RulesError) as error:
        Ladder.from_dict(["Good"])
    assert error.value.setting == "ladder"


def test_ladders_are_immutable_and_changes_make_new_ladders():
    import dataclasses

    with pytest.raises(dataclasses.FrozenInstanceError):
        FUDGE_1995.floor = 0  # type: ignore[misc]
    floored = dataclasses.replace(FUDGE_1995, floor=-2)
    assert floored.clamp(-5) == -2
    assert FUDGE_1995.clamp(-5) == -5
