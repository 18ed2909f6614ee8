import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.character import (
    ARMOR_TABLE,
    CPD,
    INJ,
    MELEE_WEAPON_TABLE,
    SELF_POWERED_WEAPON_TABLE,
    Attributes,
    EzCharacter,
    Fault,
    Gift,
    Modifier,
    Weapon,
    combined_personal_defense,
    melee_inj,
    standing_modifier,
)
from fudgetable.rules.errors import RulesError

TOUGHNESS = Gift("Toughness", (Modifier(CPD, 1),))
QUARTERSTAFF = Weapon("Quarterstaff", damage_factor=2)
KNIFE = Weapon("Knife", damage_factor=1)


def jason_free() -> EzCharacter:
    # EZ "Making Characters": Body Great, Agility/Mind/Will Good, leather, Toughness.
    return EzCharacter(
        attributes=Attributes(body=3, agility=2, mind=2, will=2),
        armor_bonus=1,
        gifts=(TOUGHNESS,),
        faults=(Fault("Mercenary Code of Ethics"),),
    )


def test_jason_free_has_the_derived_values_from_the_seed() -> None:
    jason = jason_free()
    assert jason.resilience == 2
    assert jason.reflexes == 2
    assert jason.cpd == 4
    assert jason.inj(QUARTERSTAFF) == 5
    assert jason.inj(KNIFE) == 4


def test_resilience_and_reflexes_round_fractions_down() -> None:
    a = Attributes(body=3, agility=1, mind=0, will=2)
    assert a.resilience == 2  # 5 / 2
    assert a.reflexes == 0  # 1 / 2
    assert Attributes(body=-1, will=0).resilience == -1  # -0.5 rounds down


def test_attributes_start_fair() -> None:
    assert Attributes() == Attributes(1, 1, 1, 1)


def test_cpd_adds_armor_mass_scale_resilience_and_other() -> None:
    assert combined_personal_defense(2, armor_bonus=3, mass_scale=1, other=1) == 7
    assert combined_personal_defense(0) == 0


def test_mass_scale_counts_in_cpd_and_melee_inj() -> None:
    ogre = EzCharacter(attributes=Attributes(body=2), mass_scale=2)
    assert ogre.cpd == 2 + 1  # mass 2, Resilience (2+1)//2 = 1
    assert ogre.inj(QUARTERSTAFF) == 2 + 2 + 2


def test_quality_melee_weapon_is_one_higher() -> None:
    assert melee_inj(2, 3, quality=True) == 6
    assert jason_free().inj(Weapon("Fine staff", damage_factor=2, quality=True)) == 6


def test_self_powered_weapon_uses_its_own_inj() -> None:
    rifle = Weapon("Assault Rifle", inj=7)
    assert rifle.self_powered
    assert jason_free().inj(rifle) == 7


def test_always_on_inj_gift_counts() -> None:
    strong = Gift("Mighty blows", (Modifier(INJ, 1),))
    char = EzCharacter(attributes=Attributes(body=1), gifts=(strong,))
    assert char.inj(KNIFE) == 3


def test_situational_modifiers_do_not_count_all_the_time() -> None:
    wary = Gift("Danger Sense", (Modifier(CPD, 1, situation="when ambushed"),))
    clumsy = Fault("Clumsy", (Modifier(CPD, -1),))
    assert standing_modifier(CPD, [wary], [clumsy]) == -1
    assert not wary.modifiers[0].always


def test_tables_hold_the_seed_values() -> None:
    assert [a.bonus for a in ARMOR_TABLE] == [1, 1, 2, 2, 3, 3, 3, 4, 4, 5]
    assert ARMOR_TABLE[-1].or_more
    assert min(w.damage_factor for w in MELEE_WEAPON_TABLE) == -1
    assert max(w.damage_factor for w in MELEE_WEAPON_TABLE) == 4
    assert {w.description: w.damage_factor for w in MELEE_WEAPON_TABLE}[
        "Medium 2-handed, blunt (quarterstaff)"
    ] == 2
    guns = {g.name: g.inj_choices for g in SELF_POWERED_WEAPON_TABLE}
    assert guns["Pocket Handgun (unhelpful at range)"] == (0, 1)
    assert guns["Anti-Tank Weapon"] == (10,)


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: Modifier("", 1), "modifier.target"),
        (lambda: Modifier(CPD, 2), "modifier.amount"),
        (lambda: Gift(" "), "gift.name"),
        (lambda: Gift("Cursed", (Modifier(CPD, -1),)), "gift.modifiers"),
        (lambda: Fault(""), "fault.name"),
        (lambda: Fault("Lucky", (Modifier(CPD, 1),)), "fault.modifiers"),
        (lambda: Weapon("Nothing"), "weapon"),
        (lambda: Weapon("Both", damage_factor=1, inj=2), "weapon"),
        (lambda: Weapon("Broken gun", inj=-1), "weapon.inj"),
        (lambda: EzCharacter(armor_bonus=-1), "armor_bonus"),
        (lambda: combined_personal_defense(1, armor_bonus=-1), "armor_bonus"),
        (lambda: Attributes(body="3"), "attributes.body"),  # type: ignore[arg-type]
    ],
)
def test_bad_values_are_refused_naming_the_field(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_character_round_trips_through_json() -> None:
    jason = jason_free()
    data = json.loads(json.dumps(jason.to_dict()))
    assert EzCharacter.from_dict(data) == jason


def test_weapons_round_trip_through_json() -> None:
    for weapon in (
        QUARTERSTAFF,
        Weapon("Rifle", inj=5),
        Weapon("Fine", damage_factor=1, quality=True),
    ):
        assert Weapon.from_dict(json.loads(json.dumps(weapon.to_dict()))) == weapon


def test_supernormal_gift_round_trips() -> None:
    gift = Gift("Magery", supernormal=True)
    assert Gift.from_dict(gift.to_dict()) == gift


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (EzCharacter.from_dict, [], "character"),
        (EzCharacter.from_dict, {"attributes": {}}, "attributes.body"),
        (
            EzCharacter.from_dict,
            {"attributes": Attributes().to_dict(), "mass_scale": "big", "armor_bonus": 0},
            "character.mass_scale",
        ),
        (
            EzCharacter.from_dict,
            {"attributes": Attributes().to_dict(), "mass_scale": 0, "armor_bonus": 0, "gifts": {}},
            "character.gifts",
        ),
        (Gift.from_dict, {"name": "Lucky", "supernormal": "yes"}, "gift.supernormal"),
        (Gift.from_dict, {"name": 3}, "gift.name"),
        (Fault.from_dict, {"name": "Greedy", "modifiers": [{"target": "CPD"}]}, "modifier.amount"),
        (Modifier.from_dict, {"target": "CPD", "amount": True}, "modifier.amount"),
        (Weapon.from_dict, {"name": "Club", "damage_factor": 2, "quality": 1}, "weapon.quality"),
        (Weapon.from_dict, {"name": "Gun", "inj": "5"}, "weapon.inj"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


levels = st.integers(min_value=-4, max_value=8)


@given(levels, levels, levels, levels, st.integers(0, 5), st.integers(-2, 4))
def test_any_character_round_trips(
    body: int, agility: int, mind: int, will: int, armor: int, mass: int
) -> None:
    char = EzCharacter(Attributes(body, agility, mind, will), mass, armor, (TOUGHNESS,))
    assert EzCharacter.from_dict(json.loads(json.dumps(char.to_dict()))) == char
    assert char.cpd == armor + mass + (body + will) // 2 + 1
