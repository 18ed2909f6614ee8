import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.abilities import (
    Ability,
    AbilityBonus,
    Characteristic,
    Inventory,
    Item,
    Property,
    Status,
    StatusState,
    energy,
    level_in_play,
    standing,
)
from fudgetable.rules.advancement import peup_step_cost
from fudgetable.rules.errors import RulesError


def test_21_xp_from_level_0_gives_level_4_with_6_of_16() -> None:
    muscle = Ability("Muscle").allocate(21)
    assert (muscle.level, muscle.progress, muscle.next_cost) == (4, 6, 16)
    assert muscle.describe() == "4 (+6/16)"


def test_construction_magic_scroll_example() -> None:
    # Appendix C example 1: level 6 with 22 of 64; 7 of the 10 XP go to Construction Magic
    # and 3 to Mycology (level 0), which reaches level 2.
    magic = Ability("Construction Magic", level=6, progress=22)
    assert magic.next_cost == 64
    magic = magic.allocate(7)
    assert (magic.level, magic.progress) == (6, 29)
    assert magic.describe() == "6 (+29/64)"
    mycology = Ability("Mycology").allocate(3)
    assert (mycology.level, mycology.progress) == (2, 0)


def test_shroom_belly_gives_the_scroll_roll_its_numbers() -> None:
    # L=6, A=-1 (Shroom Belly), R=+3 against D=7: 8 >= 7.
    magic = Ability("Construction Magic", level=6, progress=22)
    assert magic.effective_level - 1 + 3 >= 7


def test_allocated_xp_counts_as_spent() -> None:
    ability = Ability("Archery", level=2).allocate(1)
    assert ability.level == 2
    assert ability.xp_spent == 4


def test_level_modifier_counts_in_play_but_not_in_cost() -> None:
    hobbit = Ability("Strength", level=3, modifier=-1)
    assert hobbit.effective_level == 2
    assert hobbit.next_cost == 8
    trained = hobbit.allocate(9)  # appendix C example 5: 4 (+1/16), L = 4 - 1 = 3
    assert (trained.level, trained.progress, trained.effective_level) == (4, 1, 3)
    assert trained.describe() == "4 - 1 = 3 (+1/16)"
    assert Ability("Strength", level=3, modifier=2).describe() == "3 + 2 = 5"


def test_ant_levels_up_after_2_to_the_7_xp() -> None:
    ant = Ability("Strength", level=7, modifier=-50).allocate(2**7)
    assert ant.effective_level == -42


def test_property_modifiers_apply_in_their_situation() -> None:
    arm = Property("cyborg left arm", level_modifiers=(AbilityBonus("Strength", 2, "left arm"),))
    tired = Property("weak", level_modifiers=(AbilityBonus("Strength", -1),))
    strength = Ability("Strength", level=3)
    assert level_in_play(strength, [arm]) == 3
    assert level_in_play(strength, [arm], situations={"left arm"}) == 5
    assert level_in_play(strength, [arm, tired], situations={"left arm"}) == 4
    assert level_in_play(Ability("Charisma"), [arm]) == 0


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Ability(""), "ability.name"),
        (lambda: Ability("X", level=-1), "ability.level"),
        (lambda: Ability("X", level=3, progress=8), "ability.progress"),
        (lambda: Ability("X", progress=-1), "ability.progress"),
        (lambda: Ability("X").allocate(-1), "xp"),
        (lambda: Property("P", starting_xp=(AbilityBonus("X", -2),)), "property.starting_xp"),
        (
            lambda: Property("P", starting_xp=(AbilityBonus("X", 2, "when"),)),
            "property.starting_xp",
        ),
    ],
)
def test_bad_abilities_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_energy_status_moves_between_its_states() -> None:
    tired = energy("Tired")
    assert tired.state == StatusState("Tired", -1)
    assert tired.modifier_for("Perception") == -1
    assert tired.modifier_for("Knowledge") == 0
    assert tired.shift(1).current == "Neutral"
    assert tired.shift(5).current == "Rested"
    assert tired.shift(-5).current == "Exhausted"
    assert tired.set("Rested").modifier_for("Muscle") == 1
    assert [s.modifier for s in tired.states] == [-2, -1, 0, 1]


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Status("", (StatusState("a"),), "a"), "status.name"),
        (lambda: Status("S", (), "a"), "status.states"),
        (lambda: Status("S", (StatusState("a"), StatusState("a")), "a"), "status.states"),
        (lambda: Status("S", (StatusState("a"),), "b"), "status.current"),
        (lambda: energy().set("Dead"), "status.current"),
    ],
)
def test_bad_statuses_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def kotorikh_pack() -> Inventory:
    return Inventory(
        (
            Item("pack", "pack", note="on back"),
            Item("glass", "magnifying glass", inside="pack"),
            Item("pouch", "pouch", inside="pack"),
            Item("stones", "stones", inside="pouch", quantity=12),
            Item("ink", "vial of ink", inside="pack", note="full"),
            Item("shovel", "old shovel", note="worn"),
        )
    )


def test_items_sit_inside_other_items() -> None:
    inv = kotorikh_pack()
    assert [i.key for i in inv.contents(None)] == ["pack", "shovel"]
    assert [i.key for i in inv.contents("pouch")] == ["stones"]
    assert [i.key for i in inv.descendants("pack")] == ["glass", "pouch", "stones", "ink"]


def test_moving_an_item_into_another() -> None:
    inv = kotorikh_pack().move("shovel", "pack").move("stones", None)
    assert inv.contents("pack")[-1].key == "shovel"
    assert inv.contents(None)[-1].key == "stones"


def test_an_item_cannot_go_inside_itself_or_its_contents() -> None:
    inv = kotorikh_pack()
    for target in ("pack", "pouch", "stones"):
        with pytest.raises(RulesError) as info:
            inv.move("pack", target)
        assert info.value.setting == "into"


def test_moving_to_or_from_a_missing_item_is_refused() -> None:
    with pytest.raises(RulesError):
        kotorikh_pack().move("sword", None)
    with pytest.raises(RulesError):
        kotorikh_pack().move("glass", "chest")


def test_removing_a_container_takes_its_contents() -> None:
    inv = kotorikh_pack().remove("pouch")
    assert {i.key for i in inv.items} == {"pack", "glass", "ink", "shovel"}


def test_adding_items_checks_keys_and_containers() -> None:
    inv = kotorikh_pack().add(Item("map", "map", inside="pack"))
    assert inv.contents("pack")[-1].name == "map"
    with pytest.raises(RulesError):
        inv.add(Item("map", "another map"))
    with pytest.raises(RulesError):
        inv.add(Item("quill", "quill", inside="desk"))


def test_stored_loops_are_refused() -> None:
    with pytest.raises(RulesError) as info:
        Inventory((Item("a", "box A", inside="b"), Item("b", "box B", inside="a")))
    assert "inside itself" in info.value.message
    with pytest.raises(RulesError):
        Inventory((Item("a", "box", inside="a"),))


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Item("", "x"), "item.key"),
        (lambda: Item("k", " "), "item.name"),
        (lambda: Item("k", "x", quantity=0), "item.quantity"),
        (lambda: Characteristic("", "x"), "characteristic.name"),
    ],
)
def test_bad_items_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def roundtrip(value: object) -> object:
    return json.loads(json.dumps(value.to_dict()))  # type: ignore[attr-defined]


def test_everything_round_trips_through_json() -> None:
    observer = Property(
        "talented observer",
        "keen eyes",
        (AbilityBonus("Perception", 1, "in daylight"),),
        (AbilityBonus("Perception", 7),),
    )
    assert Property.from_dict(roundtrip(observer)) == observer
    assert Status.from_dict(roundtrip(energy("Tired"))) == energy("Tired")
    assert Inventory.from_dict(roundtrip(kotorikh_pack())) == kotorikh_pack()
    trait = Characteristic("Profession", "Archaeologist")
    assert Characteristic.from_dict(roundtrip(trait)) == trait
    magic = Ability("Construction Magic", 6, 22, -1)
    assert Ability.from_dict(roundtrip(magic)) == magic


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (Ability.from_dict, None, "ability"),
        (Ability.from_dict, {"name": "X", "level": "2"}, "ability.level"),
        (Ability.from_dict, {"name": 1}, "ability.name"),
        (Property.from_dict, {"name": "P", "starting_xp": {}}, "property.starting_xp"),
        (AbilityBonus.from_dict, {"ability": "X"}, "bonus.amount"),
        (Status.from_dict, {"name": "S", "states": ["a"], "current": "a"}, "status.states"),
        (
            Status.from_dict,
            {"name": "S", "states": [{"name": "a"}], "current": "a", "affects": [1]},
            "status.affects",
        ),
        (Item.from_dict, {"key": "k", "name": "x", "inside": 3}, "item.inside"),
        (Inventory.from_dict, {"items": "pack"}, "inventory.items"),
        (Characteristic.from_dict, {"name": "Name"}, "characteristic.value"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


@given(st.integers(0, 12), st.integers(0, 5000), st.integers(0, 5000))
def test_allocating_in_parts_equals_allocating_at_once(level: int, first: int, second: int) -> None:
    start = Ability("A", level=level)
    split = start.allocate(first).allocate(second)
    assert split == start.allocate(first + second)
    assert split.xp_spent == start.xp_spent + first + second
    assert 0 <= split.progress < peup_step_cost(split.level)


@given(st.integers(0, 10), st.integers(-5, 5), st.integers(0, 2000))
def test_abilities_round_trip(level: int, modifier: int, xp: int) -> None:
    ability = Ability("A", level=level, modifier=modifier).allocate(xp)
    assert Ability.from_dict(json.loads(json.dumps(ability.to_dict()))) == ability


@pytest.mark.parametrize(
    ("level", "expected"),
    [(0, "below poor"), (4, "poor"), (6, "poor"), (7, "decent"), (10, "great"), (15, "great")],
)
def test_standing_reads_a_level_against_the_gms_marks(level, expected):
    assert standing(level, 4, 7, 10) == expected


def test_standing_marks_must_rise():
    with pytest.raises(RulesError) as error:
        standing(5, 7, 4, 10)
    assert error.value.setting == "marks"
