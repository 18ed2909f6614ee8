import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules import distribution as dist
from fudgetable.rules.dice import (
    DEFAULT_METHOD,
    MAX_DICE,
    METHOD_KEYS,
    SYSTEM_RANDOM,
    FudgeDice,
    Roll,
    advantage_key,
    get_method,
)
from fudgetable.rules.errors import RulesError

EXTRA_KEYS = ["9dF", "4dF/2adv", "4dF/1dis", "3dF/3adv", "5d6-fudge"]
ALL_KEYS = list(METHOD_KEYS) + EXTRA_KEYS
SYMMETRIC = [key for key in ALL_KEYS if key != "d100" and "/" not in key]


def test_the_default_method_is_4df():
    assert DEFAULT_METHOD == "4dF"
    assert get_method("4dF").key == "4dF"


@pytest.mark.parametrize("key", ALL_KEYS)
def test_every_method_is_found_by_its_own_key(key):
    method = get_method(key)
    assert method.key == key
    assert method.label
    assert key in repr(method)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_every_distribution_sums_to_one(key):
    chances = get_method(key).distribution()
    assert sum(chances.values()) == 1
    assert all(chance > 0 for chance in chances.values())


@pytest.mark.parametrize("key", SYMMETRIC)
def test_distributions_are_symmetric_where_the_seeds_make_them_so(key):
    chances = get_method(key).distribution()
    assert chances == dist.negate(chances)


@pytest.mark.parametrize("key", ALL_KEYS)
def test_seeded_rolls_read_their_faces_into_their_total(key):
    method = get_method(key)
    rng = random.Random(key)
    for _ in range(200):
        roll = method.roll(rng)
        assert roll.method == key
        assert method.read(roll.faces) == roll.total
        assert method.lowest <= roll.total <= method.highest
        assert Roll.from_dict(json.loads(json.dumps(roll.to_dict()))) == roll


def test_the_same_seed_gives_the_same_rolls():
    method = get_method("4dF")
    first = [method.roll(random.Random(7)) for _ in range(3)]
    assert first == [method.roll(random.Random(7)) for _ in range(3)]


def test_rolls_default_to_the_system_rng():
    assert type(SYSTEM_RANDOM).__name__ == "SystemRandom"
    roll = get_method("4dF").roll()
    assert -4 <= roll.total <= 4


def test_4df_is_4d3_minus_8():
    d3 = dist.uniform((1, 2, 3))
    assert get_method("4dF").distribution() == dist.shift(dist.repeat(d3, 4), -8)


@given(st.integers(1, 30))
def test_ndf_for_any_n_is_symmetric_and_spans_minus_n_to_n(count):
    chances = get_method(f"{count}dF").distribution()
    assert sum(chances.values()) == 1
    assert chances == dist.negate(chances)
    assert min(chances) == -count and max(chances) == count
    assert chances[count] == Fraction(1, 3**count)


def test_4d6_read_as_fudge_dice_matches_the_fudge_lite_example():
    # 1, 1, 2, 5 is minus, minus, minus, plus: -2.
    method = get_method("4d6-fudge")
    assert method.read((1, 1, 2, 5)) == -2
    assert method.read((3, 4, 6, 5)) == 2
    assert method.distribution() == get_method("4dF").distribution()


@pytest.mark.parametrize(
    ("faces", "total"),
    [
        ((4, 3, 3, 3), 0),  # p4 p3 n3 n3: a 3 on both colours
        ((1, 1, 2, 4), 1),  # p1 p1 n2 n4: only positive dice left, showing 1
        ((6, 5, 5, 6), 0),
        ((5, 6, 6, 6), 5),
        ((6, 6, 2, 3), -2),
    ],
)
def test_4d6_lowest_die_reads_like_the_fudge_1995_examples(faces, total):
    assert get_method("4d6-lowest").read(faces) == total


def test_4d6_lowest_die_spans_minus_5_to_5():
    chances = get_method("4d6-lowest").distribution()
    assert min(chances) == -5 and max(chances) == 5
    assert chances[5] == Fraction(3, 6**4)


def test_1d6_minus_1d6_gives_5_about_2_78_percent_of_the_time():
    method = get_method("1d6-1d6")
    assert method.read((6, 1)) == 5
    chances = method.distribution()
    assert chances[5] == chances[-5] == Fraction(1, 36)
    assert round(float(chances[5]) * 100, 2) == 2.78


def test_1d6_minus_1d6_has_the_odds_of_keeping_the_lower_die():
    # Fudge Lite: keep whichever die has the lower absolute value; a tie is zero.
    def lower(positive, negative):
        return 0 if positive == negative else positive if positive < negative else -negative

    counts = dist.uniform(lower(p, n) for p in range(1, 7) for n in range(1, 7))
    assert counts == get_method("1d6-1d6").distribution()


def test_advantage_dice_ignore_their_minus():
    method = get_method("4dF/2adv")
    # The last two faces are the advantage dice: their minuses count as blanks.
    assert method.read((1, -1, -1, -1)) == 0
    assert method.read((-1, -1, 1, -1)) == -1
    assert method.read((0, 0, 1, 1)) == 2
    assert min(method.distribution()) == -2
    assert max(method.distribution()) == 4


def test_disadvantage_dice_ignore_their_plus():
    method = get_method("4dF/1dis")
    assert method.read((1, 1, 1, 1)) == 3
    assert method.read((-1, -1, -1, -1)) == -4
    assert max(method.distribution()) == 3


def test_one_advantage_die_is_worth_about_a_third_of_a_rank():
    assert dist.mean(get_method("4dF/1adv").distribution()) == Fraction(1, 3)
    assert dist.mean(get_method("4dF/3dis").distribution()) == -1


def test_advantage_and_disadvantage_dice_never_share_a_roll():
    with pytest.raises(RulesError) as error:
        FudgeDice(4, advantage=1, disadvantage=1)
    assert error.value.setting == "dice_method"
    with pytest.raises(RulesError):
        advantage_key(4, advantage=5)
    assert advantage_key(4, advantage=2) == "4dF/2adv"
    assert advantage_key(4, disadvantage=1) == "4dF/1dis"
    assert advantage_key() == "4dF"


@pytest.mark.parametrize(
    "key",
    ["", "4df", "0dF", f"{MAX_DICE + 1}dF", "4dF/5adv", "4dF/0adv", "4dF/1adv/1dis", "d7", "4d6"],
)
def test_unknown_method_keys_are_refused(key):
    with pytest.raises(RulesError) as error:
        get_method(key)
    assert error.value.setting == "dice_method"


def test_method_keys_must_be_text():
    with pytest.raises(RulesError) as error:
        get_method(4, setting="npc_roll")
    assert error.value.setting == "npc_roll"


@pytest.mark.parametrize(
    ("key", "faces"),
    [
        ("4dF", (1, 0, -1)),
        ("4dF", (1, 0, -1, 2)),
        ("4dF", (1, 0, -1, "1")),
        ("4dF", (1, 0, -1, True)),
        ("3d6", (0, 1, 1)),
        ("npc-d6", (1,)),
        ("npc-d6", (7,)),
        ("npc-d6", (3, 3)),
        ("npc-d6", (1, 7)),
        ("none", (0,)),
        ("1d6-1d6", (1, 2, 3)),
    ],
)
def test_faces_a_method_could_not_roll_are_refused(key, faces):
    with pytest.raises(RulesError) as error:
        get_method(key).read(faces)
    assert error.value.setting == "roll.faces"


@pytest.mark.parametrize(
    ("faces", "total"),
    [((2,), 0), ((5,), 0), ((1, 1), -1), ((1, 4), -2), ((1, 6), -3), ((6, 3), 1), ((6, 5), 2)],
)
def test_the_npc_d6_reads_worse_on_1_better_on_6(faces, total):
    assert get_method("npc-d6").read(faces) == total


def test_the_npc_d6_mostly_gives_the_trait_level():
    chances = get_method("npc-d6").distribution()
    assert chances[0] == Fraction(2, 3)
    assert chances[1] == Fraction(1, 6) * Fraction(3, 6)
    assert chances[3] == Fraction(1, 36)


def test_no_roll_is_always_zero():
    method = get_method("none")
    assert method.roll().total == 0
    assert method.distribution() == {0: 1}


@pytest.mark.parametrize(
    ("data", "setting"),
    [
        ("4dF", "roll"),
        ({"method": "4dX", "faces": [], "total": 0}, "roll.method"),
        ({"method": "4dF", "faces": "1100", "total": 2}, "roll.faces"),
        ({"method": "4dF", "faces": [1, 1, 0, 0], "total": 3}, "roll.total"),
        ({"method": "4dF", "faces": [1, 1, 0, 0], "total": "2"}, "roll.total"),
        ({"method": "4dF", "faces": [1, 1, 0, 9], "total": 2}, "roll.faces"),
    ],
)
def test_stored_rolls_are_checked_on_the_way_back_in(data, setting):
    with pytest.raises(RulesError) as error:
        Roll.from_dict(data)
    assert error.value.setting == setting


def test_rolls_are_immutable():
    import dataclasses

    roll = get_method("4dF").roll(random.Random(1))
    with pytest.raises(dataclasses.FrozenInstanceError):
        roll.total = 4  # type: ignore[misc]
