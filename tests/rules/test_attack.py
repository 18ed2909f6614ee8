"""The board's attack: its kind follows EZFudge's round, and the trait proposed for a weapon."""

import pytest

from fudgetable.rules.attack import Kind, Refusal, TraitOption, attack_kind, fighting_trait
from fudgetable.rules.building import FAIR, GOOD, GREAT, MEDIOCRE


@pytest.mark.parametrize(
    ("phase", "same_area", "expected"),
    [
        ("", True, Kind.MELEE),  # no round: in reach, melee
        ("", False, Kind.RANGED),  # no round: beyond the area, a shot
        ("melee", True, Kind.MELEE),
        ("melee", False, Refusal.OUT_OF_REACH),  # "Resolve all Melee action": reach only
        ("ranged", True, Kind.RANGED),  # ranged action is at any range
        ("ranged", False, Kind.RANGED),
        ("other", True, Refusal.NO_ATTACK_PHASE),
        ("wounds", False, Refusal.NO_ATTACK_PHASE),
    ],
)
def test_the_kind_of_attack_follows_the_phase(phase: str, same_area: bool, expected: str) -> None:
    assert attack_kind(phase=phase, same_area=same_area) == expected


# Wren Ashdown, the demo's archer (EZFudge): roles and attributes.
WREN = [
    TraitOption("Body", FAIR, attribute=True),
    TraitOption("Agility", GREAT, attribute=True),
    TraitOption("Burglar", GREAT),
    TraitOption("Archer", GOOD),
    TraitOption("Con Artist", GOOD),
]
JASON = [
    TraitOption("Body", GREAT, attribute=True),
    TraitOption("Quarterstaff for Hire", GREAT),
    TraitOption("Camp Cook", MEDIOCRE),
]


def test_a_bow_is_shot_with_the_archer_role_not_the_higher_burglar() -> None:
    assert fighting_trait(WREN, weapon="Short bow", kind=Kind.RANGED) == 3


def test_a_role_named_for_the_weapon_fights_with_it() -> None:
    assert fighting_trait(JASON, weapon="Quarterstaff", kind=Kind.MELEE) == 1


def test_no_fitting_trait_is_untrained() -> None:
    # Wren's short sword: no role of hers reads as melee fighting (EZFudge: Poor, untrained).
    assert fighting_trait(WREN, weapon="Short sword", kind=Kind.MELEE) is None
    assert fighting_trait(JASON, weapon="Short bow", kind=Kind.RANGED) is None


def test_fudge_lite_combat_skills_and_the_higher_of_two() -> None:
    lite = [
        TraitOption("Melee Combat", FAIR),
        TraitOption("Ranged Combat", MEDIOCRE),
        TraitOption("Fighter", GOOD),
    ]
    assert fighting_trait(lite, weapon="", kind=Kind.RANGED) == 1
    assert fighting_trait(lite, weapon="Cutlass", kind=Kind.MELEE) == 2  # Good over Fair
    # "for" and "hire" are shared by accident, not by meaning.
    guide = [TraitOption("Guide for Hire", FAIR)]
    assert fighting_trait(guide, weapon="Boat for hire", kind=Kind.MELEE) is None
