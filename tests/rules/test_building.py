import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.abilities import Ability, AbilityBonus, Property
from fudgetable.rules.building import (
    DISTRIBUTIONS,
    FAULT_BUYS,
    FLOW_ALLOWANCE,
    ON_THE_FLY_SHEET,
    Distribution,
    EzBuild,
    OnTheFly,
    Role,
    check_ez_build,
    check_starting_xp,
    check_traits,
    ez_build_points,
    ez_feature_points,
    over_the_edge,
    starting_abilities,
    trait_levels,
    wushu,
)
from fudgetable.rules.character import CPD, Attributes, Fault, Gift, Modifier
from fudgetable.rules.errors import RulesError

POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -1, 0, 1, 2, 3, 4
BASE_TRAITS = (
    "Athletics",
    "Melee Combat",
    "Persuasion",
    "Physical Awareness",
    "Ranged Combat",
    "Social Awareness",
    "Stealth",
    "Streetwise",
)

# --- Fudge Lite -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "fair_or_better", "above_poor"),
    [
        ("1 Superb, 2 Great, 3 Good, 4 Fair, 5 Mediocre", 10, 15),
        ("1 Superb, 2 Great, 2 Good, 2 Fair, 2 Mediocre", 7, 9),
        ("1 Great, 2 Good, 3 Fair, 4 Mediocre", 6, 10),
        ("2 Great, 3 Good, 4 Fair, 5 Mediocre", 9, 14),
    ],
)
def test_preset_distributions_match_the_seed_totals(
    name: str, fair_or_better: int, above_poor: int
) -> None:
    distribution = DISTRIBUTIONS[name]
    assert distribution.at_least(FAIR) == fair_or_better
    assert distribution.at_least(MEDIOCRE) == above_poor


def test_on_the_fly_sheet_has_the_seed_slots() -> None:
    assert ON_THE_FLY_SHEET.counts == {
        SUPERB: 1, GREAT: 2, GOOD: 3, FAIR: 4, MEDIOCRE: 5, POOR: 9,
    }  # fmt: skip


def test_a_legal_placement_reports_slots_left() -> None:
    small = DISTRIBUTIONS["1 Great, 2 Good, 3 Fair, 4 Mediocre"]
    traits = {"Stealth": GREAT, "Athletics": GOOD, "Streetwise": FAIR, "Persuasion": MEDIOCRE}
    result = check_traits(small, traits, BASE_TRAITS)
    assert result.ok
    assert result.left == (
        "1 Good slot left",
        "2 Fair slots left",
        "3 Mediocre slots left",
    )


def test_unplaced_traits_are_poor() -> None:
    levels = trait_levels({"Stealth": GREAT}, BASE_TRAITS)
    assert levels["Stealth"] == GREAT
    assert levels["Athletics"] == POOR
    assert len(levels) == len(BASE_TRAITS)


def test_too_many_traits_at_a_level_breaks_the_build() -> None:
    small = DISTRIBUTIONS["1 Great, 2 Good, 3 Fair, 4 Mediocre"]
    result = check_traits(small, {"Stealth": GREAT, "Athletics": GREAT, "Magic": SUPERB})
    assert not result.ok
    assert result.broken == ("1 Superb trait but only 0 slots", "2 Great traits but only 1 slot")


def test_traits_must_come_from_the_gms_list() -> None:
    result = check_traits(
        DISTRIBUTIONS["1 Great, 2 Good, 3 Fair, 4 Mediocre"], {"Hacking": FAIR}, BASE_TRAITS
    )
    assert result.broken == ("Hacking is not on the trait list",)


def test_poor_slots_count_only_when_the_gm_sets_them() -> None:
    few_poor = Distribution.of({GOOD: 1, POOR: 1})
    result = check_traits(few_poor, {"Stealth": GOOD}, BASE_TRAITS)
    assert result.broken == ("7 Poor traits but only 1 slot",)


def test_trading_turns_one_slot_into_two_one_level_lower() -> None:
    traded = DISTRIBUTIONS["1 Superb, 2 Great, 3 Good, 4 Fair, 5 Mediocre"].trade(SUPERB)
    assert traded.counts == {GREAT: 4, GOOD: 3, FAIR: 4, MEDIOCRE: 5}
    assert traded.trade(FAIR).counts[MEDIOCRE] == 7
    with pytest.raises(RulesError):
        traded.trade(SUPERB)
    with pytest.raises(RulesError):
        traded.trade(MEDIOCRE)


@pytest.mark.parametrize(
    "slots",
    [((FAIR, 1), (FAIR, 2)), ((FAIR, -1),), ((-2, 1),)],
)
def test_bad_distributions_are_refused(slots: tuple[tuple[int, int], ...]) -> None:
    with pytest.raises(RulesError) as info:
        Distribution(slots)
    assert info.value.setting == "distribution"


def test_fudge_on_the_fly_fills_slots_at_first_check() -> None:
    fly = OnTheFly()
    assert fly.level_of("Stealth") is None
    fly = fly.place("Stealth", SUPERB)
    assert fly.level_of("Stealth") == SUPERB
    assert fly.open_slots(SUPERB) == 0
    with pytest.raises(RulesError) as info:
        fly.place("Athletics", SUPERB)
    assert info.value.setting == "level"
    with pytest.raises(RulesError) as info:
        fly.place("Stealth", GOOD)
    assert info.value.setting == "trait"
    with pytest.raises(RulesError):
        fly.place(" ", GOOD)


def test_quick_builds() -> None:
    edge = over_the_edge("Ex-cop", ("Lockpicking", "Brawling"), great="Brawling")
    assert dict(edge.traits) == {"Ex-cop": GOOD, "Lockpicking": GOOD, "Brawling": GREAT}
    kungfu = wushu("Avenge my master", "Drunken Fist", "Tea merchant", fault="Hot-headed")
    assert dict(kungfu.traits) == {
        "Avenge my master": SUPERB, "Drunken Fist": GREAT, "Tea merchant": GOOD,
    }  # fmt: skip
    assert kungfu.fault == "Hot-headed"


@pytest.mark.parametrize(
    ("make", "setting"),
    [
        (lambda: over_the_edge("A", ("B", "C"), great="D"), "great"),
        (lambda: over_the_edge("A", ("A", "C"), great="A"), "traits"),
        (lambda: wushu("A", "", "C"), "traits"),
        (lambda: wushu("A", "B", "C", fault_required=True), "fault"),
    ],
)
def test_bad_quick_builds_are_refused(make: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        make()  # type: ignore[operator]
    assert info.value.setting == setting


def test_lite_values_round_trip_through_json() -> None:
    for distribution in (*DISTRIBUTIONS.values(), ON_THE_FLY_SHEET):
        assert (
            Distribution.from_dict(json.loads(json.dumps(distribution.to_dict()))) == distribution
        )
    fly = OnTheFly().place("Stealth", GOOD).place("Magic", POOR)
    assert OnTheFly.from_dict(json.loads(json.dumps(fly.to_dict()))) == fly


@pytest.mark.parametrize(
    ("load", "data", "setting"),
    [
        (Distribution.from_dict, {"slots": [[1]]}, "distribution.slots"),
        (Distribution.from_dict, None, "distribution.slots"),
        (OnTheFly.from_dict, {}, "on_the_fly.placed"),
        (OnTheFly.from_dict, {"sheet": {"slots": []}, "placed": [["A"]]}, "on_the_fly.placed"),
        (OnTheFly.from_dict, {"sheet": {"slots": []}, "placed": [["A", "1"]]}, "on_the_fly.placed"),
        (OnTheFly.from_dict, {"sheet": {"slots": []}, "placed": [["A", 1]]}, "level"),
    ],
)
def test_from_dict_names_the_bad_field(load: object, data: object, setting: str) -> None:
    with pytest.raises(RulesError) as info:
        load(data)  # type: ignore[operator]
    assert info.value.setting == setting


# --- EZFudge --------------------------------------------------------------------------


def jason_free() -> EzBuild:
    return EzBuild(
        roles=(
            Role("Quarterstaff for Hire", GREAT),
            Role("Woodsman", GOOD),
            Role("Historian", FAIR, specialty="the East March"),
            Role("Camp Cook", MEDIOCRE),
            Role("Rider", FAIR),
        ),
        attributes=Attributes(body=3, agility=2, mind=2, will=2),
        gifts=(Gift("Toughness", (Modifier(CPD, 1),)),),
        faults=(Fault("Mercenary Code of Ethics"),),
    )


def test_jason_free_is_a_standard_30_point_character() -> None:
    assert ez_build_points(jason_free()) == 30
    result = check_ez_build(jason_free())
    assert result.ok
    assert result.left == ("30 / 30 build points",)


def test_the_default_character_is_30_points() -> None:
    # Point-buy: roles 10, attributes 12 (four at Fair plus two ranks), gifts 8.
    default = EzBuild(
        roles=(Role("A", GREAT), Role("B", GOOD), Role("C", FAIR), Role("D", MEDIOCRE)),
        attributes=Attributes(body=2, agility=2, mind=1, will=1),
        gifts=(Gift("Lucky"), Gift("Keen Senses")),
    )
    assert ez_build_points(default) == 10 + 12 + 8 == 30


def test_each_gift_and_fault_shows_its_share_of_the_point_buy() -> None:
    """ "4 * (number of gifts - number of faults)": what the sheet shows beside each one adds up
    to the gifts' and faults' part of Jason Free's 30 points (one gift, one fault: 0)."""
    assert ez_feature_points(fault=False) == 4
    assert ez_feature_points(fault=True) == -4
    assert ez_feature_points(fault=False, supernormal=True) == 8  # counted as two gifts
    jason = jason_free()
    shown = sum(ez_feature_points(fault=False, supernormal=g.supernormal) for g in jason.gifts)
    shown += sum(ez_feature_points(fault=True) for _ in jason.faults)
    assert shown == ez_build_points(jason) - ez_build_points(EzBuild(jason.roles, jason.attributes))


def test_role_costs_are_rank_plus_one() -> None:
    assert [Role("R", level).cost for level in (POOR, MEDIOCRE, FAIR, GOOD, GREAT)] == [
        0,
        1,
        2,
        3,
        4,
    ]


def test_required_specialties_make_a_role_one_point_cheaper() -> None:
    assert Role("Doctor", GOOD, "Family Practice", specialty_required=True).cost == 2
    assert Role("Doctor", POOR, "Family Practice", specialty_required=True).cost == 0
    assert Role("Mechanic", GOOD, "Helicopter").cost == 3  # optional: full price
    with pytest.raises(RulesError) as info:
        Role("Doctor", GOOD, specialty_required=True)
    assert info.value.setting == "role.specialty"
    with pytest.raises(RulesError):
        Role(" ", GOOD)


def test_fault_trades_are_all_worth_one_gift() -> None:
    worth = {"gifts": 4, "attribute ranks": 2, "role points": 1}
    assert all(sum(worth[k] * n for k, n in buy.items()) == 4 for buy in FAULT_BUYS)
    assert FLOW_ALLOWANCE == {"role points": 10, "attribute ranks above Fair": 2, "gifts": 2}


def test_a_supernormal_gift_counts_as_two() -> None:
    mage = EzBuild((), Attributes(0, 0, 0, 0), gifts=(Gift("Magery", supernormal=True),))
    assert ez_build_points(mage) == 8


def test_people_package_counts_only_when_the_gm_says() -> None:
    elf = EzBuild((), Attributes(0, 0, 0, 0), people_package_points=3)
    assert ez_build_points(elf) == 0
    assert ez_build_points(elf, count_people_package=True) == 3


def test_overspending_and_role_limits_break_the_build() -> None:
    greedy = EzBuild(
        roles=(
            Role("A", GREAT),
            Role("B", GREAT),
            Role("C", SUPERB),
            Role("D", -2),
            Role("A", FAIR),
        ),
        attributes=Attributes(body=3, agility=3, mind=3, will=3),
    )
    result = check_ez_build(greedy)
    assert result.broken == (
        "39 / 30 build points: 9 over",
        "C: no starting role is above Great",
        "D: roles start at Poor or better",
        "only one Great role at the start, not 2",
        "each role is bought once",
    )


def test_underspending_leaves_points() -> None:
    thin = EzBuild((Role("A", FAIR),), Attributes())
    assert check_ez_build(thin).left == ("10 / 30 build points",)
    assert check_ez_build(thin, budget=10).ok


# --- Peupfudge -------------------------------------------------------------------------

ABILITIES = (Ability("Muscle"), Ability("Charisma"), Ability("Perception"), Ability("Knowledge"))


def test_kotorikh_and_obazana_allocate_their_50_starting_xp() -> None:
    observer = Property("talented observer", starting_xp=(AbilityBonus("Perception", 7),))
    kotorikh = starting_abilities(ABILITIES, {"Perception": 19, "Knowledge": 31}, [observer])
    assert [a.describe() for a in kotorikh] == ["0", "0", "4 (+11/16)", "5"]
    obazana = starting_abilities(
        ABILITIES, {"Muscle": 21, "Charisma": 13, "Perception": 7, "Knowledge": 9}
    )
    assert [a.describe() for a in obazana] == ["4 (+6/16)", "3 (+6/8)", "3", "3 (+2/8)"]
    assert check_starting_xp({"Perception": 19, "Knowledge": 31}, 50).ok


def test_starting_xp_check_reports_what_is_left_and_overspending() -> None:
    assert check_starting_xp({"Muscle": 20}, 50).left == ("20 / 50 XP allocated",)
    over = check_starting_xp({"Muscle": 40, "Knowledge": 15}, 50)
    assert over.broken == ("55 / 50 XP allocated: 5 over",)
    negative = check_starting_xp({"Muscle": -3}, 50)
    assert negative.broken == ("Muscle: cannot allocate negative XP",)
    with pytest.raises(RulesError):
        check_starting_xp({}, -1)


def test_starting_abilities_refuse_unknown_names_and_negative_xp() -> None:
    with pytest.raises(RulesError):
        starting_abilities(ABILITIES, {"Cartography": 3})
    with pytest.raises(RulesError):
        starting_abilities(ABILITIES, {"Muscle": -3})


@given(st.dictionaries(st.sampled_from([a.name for a in ABILITIES]), st.integers(0, 200)))
def test_starting_xp_is_all_spent_on_the_abilities(allocation: dict[str, int]) -> None:
    result = starting_abilities(ABILITIES, allocation)
    assert sum(a.xp_spent for a in result) == sum(allocation.values())


@given(st.lists(st.integers(0, 6), max_size=6))
def test_any_lite_distribution_round_trips(counts: list[int]) -> None:
    distribution = Distribution.of(dict(zip(range(4, -2, -1), counts, strict=False)))
    assert Distribution.from_dict(json.loads(json.dumps(distribution.to_dict()))) == distribution
