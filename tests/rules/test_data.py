from enum import IntEnum, StrEnum

import pytest

from fudgetable.rules import data
from fudgetable.rules.errors import RulesError


class Speed(IntEnum):
    SLOW = 1
    QUICK = 2
    BLINDING = 3


class Colour(StrEnum):
    RED = "red"
    BLUE = "blue"


def _refused(call, setting: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        call()
    assert (info.value.setting, info.value.message) == (setting, message)


def test_fields_are_read_with_their_defaults():
    d = data.obj({"n": 3, "s": "x", "b": True, "l": [1], "speed": "quick"}, "thing")
    assert data.integer(d, "n", "thing") == 3
    assert data.integer(d, "missing", "thing", 7) == 7
    assert data.optional_integer(d, "n", "thing") == 3
    assert data.optional_integer({"n": None}, "n", "thing") is None
    assert data.optional_integer(d, "missing", "thing") is None
    assert data.text(d, "s", "thing") == "x"
    assert data.text(d, "missing", "thing", "") == ""
    assert data.flag(d, "b", "thing") is True
    assert data.flag(d, "missing", "thing") is False
    assert data.items(d, "l", "thing") == [1]
    assert data.items(d, "missing", "thing") == []
    assert data.by_name(Speed, d, "speed", "thing", Speed.SLOW) is Speed.QUICK
    assert data.by_name(Speed, d, "missing", "thing", Speed.SLOW) is Speed.SLOW
    assert data.choice(Colour, "blue", "colour") is Colour.BLUE
    assert data.require_int(-2, "level") == -2
    data.only(d, ["n", "s", "b", "l", "speed"], "thing")


def test_bad_fields_are_refused_by_name():
    _refused(lambda: data.obj([], "thing"), "thing", "must be an object")
    _refused(lambda: data.integer({}, "n", "thing"), "thing.n", "must be a whole number")
    _refused(lambda: data.integer({"n": True}, "n", "thing"), "thing.n", "must be a whole number")
    _refused(
        lambda: data.optional_integer({"n": "1"}, "n", "thing"), "thing.n", "must be a whole number"
    )
    _refused(lambda: data.text({"s": 1}, "s", "thing"), "thing.s", "must be text")
    _refused(lambda: data.flag({"b": 0}, "b", "thing"), "thing.b", "must be true or false")
    _refused(lambda: data.items({"l": {}}, "l", "thing"), "thing.l", "must be a list")
    _refused(lambda: data.items({}, "l", "thing", required=True), "thing.l", "must be a list")
    _refused(
        lambda: data.by_name(Speed, {"speed": "slowly"}, "speed", "thing", Speed.SLOW),
        "thing.speed",
        "must be slow, quick or blinding",
    )
    _refused(
        lambda: data.by_name(Speed, {"speed": 2}, "speed", "thing", Speed.SLOW),
        "thing.speed",
        "must be slow, quick or blinding",
    )
    _refused(
        lambda: data.choice(Colour, "green", "colour"), "colour", "'green' is not one of red, blue"
    )
    _refused(lambda: data.require_int(1.5, "level"), "level", "must be a whole number, not 1.5")
    _refused(
        lambda: data.only({"n": 1, "z": 2, "a": 3}, {"n"}, "thing"),
        "thing",
        "unknown settings: a, z",
    )
