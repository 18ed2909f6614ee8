"""A sheet as the rules read it: starting traits, level bounds, derived values, build checks
and advancement steps under each preset, checked against the seeds' worked examples."""

from dataclasses import replace

import pytest

from fudgetable.rules.building import BuildCheck, Distribution
from fudgetable.rules.character import CPD, Fault, Gift, Modifier, Weapon
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder, Rung
from fudgetable.rules.rulesets import PRESETS, BuildMethod, BuildRules, TraitScheme, resolve
from fudgetable.rules.sheet import (
    ABILITY,
    ATTRIBUTE,
    PEUPFUDGE_TOP,
    ROLE,
    SCHEME_KINDS,
    SKILL,
    TRAIT,
    Sheet,
    SheetTrait,
    ability_xp_spent,
    advance_step,
    build_check,
    check_level,
    derived,
    gift_or_fault_step,
    level_bounds,
    starting_traits,
    traded_distribution,
)

LITE, EZ, F1995, FATE, PEUP = (
    PRESETS[key] for key in ("fudge-lite", "ezfudge", "fudge-1995", "fate", "peupfudge")
)
TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -2, -1, 0, 1, 2, 3, 4


def lite_traits(*levels: int) -> tuple[SheetTrait, ...]:
    """Fudge Lite's base traits, in list order, at ``levels`` (the rest stay Poor)."""
    names = LITE.trait_list
    padded = [*levels, *[POOR] * (len(names) - len(levels))]
    return tuple(SheetTrait(TRAIT, name, level) for name, level in zip(names, padded, strict=True))


# EZFudge Essentials, "Making Characters": Jason Free after trait swapping.
JASON = Sheet(
    traits=(
        SheetTrait(ROLE, "Quarterstaff for Hire", GREAT),
        SheetTrait(ROLE, "Woodsman", GOOD),
        SheetTrait(ROLE, "Historian", FAIR, specialty="the East March"),
        SheetTrait(ROLE, "Camp Cook", MEDIOCRE),
        SheetTrait(ROLE, "Rider", FAIR),
        SheetTrait(ATTRIBUTE, "Body", GREAT),
        SheetTrait(ATTRIBUTE, "Agility", GOOD),
        SheetTrait(ATTRIBUTE, "Mind", GOOD),
        SheetTrait(ATTRIBUTE, "Will", GOOD),
    ),
    gifts=(Gift("Toughness", (Modifier(CPD, 1),)),),
    faults=(Fault("Mercenary Code of Ethics"),),
    armor_bonus=1,  # leather armour
    weapons=(Weapon("Quarterstaff", damage_factor=2), Weapon("Knife", damage_factor=1)),
)


def peup_ability(name: str, level: int, progress: int = 0, modifier: int = 0) -> SheetTrait:
    return SheetTrait(ABILITY, name, level, progress=progress, modifier=modifier)


# Peupfudge appendix C, example 2: Obazana's 50 starting XP, 21 + 13 + 7 + 9.
OBAZANA = Sheet(
    traits=(
        peup_ability("Muscle", 4, progress=6),
        peup_ability("Charisma", 3, progress=6),
        peup_ability("Perception", 3),
        peup_ability("Knowledge", 3, progress=2),
    )
)


# --- the kinds of trait and a new sheet ----------------------------------------------------


def test_each_scheme_adds_its_own_kind_of_trait_first() -> None:
    assert SCHEME_KINDS[TraitScheme.LADDER_TRAITS] == (TRAIT,)
    assert SCHEME_KINDS[TraitScheme.SKILLS] == (SKILL,)
    assert SCHEME_KINDS[TraitScheme.ROLES_ATTRIBUTES] == (ROLE, ATTRIBUTE)
    assert SCHEME_KINDS[TraitScheme.ABILITIES] == (ABILITY,)


def test_a_sheet_picks_out_its_traits_of_one_kind_in_order() -> None:
    assert [t.name for t in JASON.of_kind(ATTRIBUTE)] == ["Body", "Agility", "Mind", "Will"]
    assert len(JASON.of_kind(ROLE)) == 5
    assert JASON.of_kind(SKILL) == ()


@pytest.mark.parametrize("ruleset", [LITE, F1995])
def test_a_new_ladder_sheet_has_the_campaigns_traits_at_poor(ruleset) -> None:
    traits = starting_traits(ruleset)
    assert [t.name for t in traits] == list(ruleset.trait_list)
    assert {(t.kind, t.level) for t in traits} == {(TRAIT, POOR)}


def test_a_new_fate_sheet_has_its_skills_at_poor() -> None:
    assert starting_traits(FATE) == (
        SheetTrait(SKILL, "Contacting", POOR),
        SheetTrait(SKILL, "Streetwise", POOR),
    )


def test_a_new_ezfudge_sheet_has_four_fair_attributes_and_no_roles_yet() -> None:
    assert starting_traits(EZ) == tuple(
        SheetTrait(ATTRIBUTE, name, FAIR) for name in ("Body", "Agility", "Mind", "Will")
    )


def test_a_new_peupfudge_sheet_has_every_ability_at_0() -> None:
    traits = starting_traits(PEUP)
    assert [t.name for t in traits] == list(PEUP.trait_list)
    assert {(t.kind, t.level, t.progress) for t in traits} == {(ABILITY, 0, 0)}


def test_a_new_sheet_follows_the_campaigns_own_trait_list() -> None:
    ruleset = resolve("fudge-lite", {"trait_list": ["Body", "Mind", "Soul"]})
    assert [t.name for t in starting_traits(ruleset)] == ["Body", "Mind", "Soul"]


# --- level bounds ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "bounds"),
    [
        (LITE, (TERRIBLE, 8)),  # never below Terrible; up to Superb Superhuman
        (EZ, (-4, SUPERB)),  # Completely Terrible to Superb
        (F1995, (TERRIBLE, SUPERB)),
        (FATE, (TERRIBLE, 5)),  # Fate's Superb sits at +5
        (PEUP, (0, PEUPFUDGE_TOP)),
    ],
)
def test_each_preset_bounds_trait_levels_by_its_ladder(ruleset, bounds) -> None:
    assert level_bounds(ruleset) == bounds


def test_a_ladder_floor_above_its_lowest_rung_raises_the_bottom() -> None:
    ladder = Ladder("floored", "Floored", (Rung("Dire", -3), Rung("Bad", -2), Rung("Fine", 0)))
    assert level_bounds(replace(LITE, ladder=replace(ladder, floor=-2))) == (-2, 0)
    assert level_bounds(replace(LITE, ladder=ladder)) == (-3, 0)


def test_a_level_on_the_ladder_is_accepted() -> None:
    assert check_level(LITE, 8) == 8
    assert check_level(LITE, TERRIBLE) == TERRIBLE
    assert check_level(PEUP, 0) == 0


@pytest.mark.parametrize(
    ("ruleset", "level", "message"),
    [
        (LITE, -3, "must be between Terrible and Superb Superhuman on this ladder"),
        (LITE, 9, "must be between Terrible and Superb Superhuman on this ladder"),
        (EZ, 5, "must be between Completely Terrible and Superb on this ladder"),
        (PEUP, -1, "must be between 0 and 40 on this ladder"),
        (PEUP, PEUPFUDGE_TOP + 1, "must be between 0 and 40 on this ladder"),
    ],
)
def test_a_level_off_the_ladder_is_refused_in_ladder_words(ruleset, level, message) -> None:
    with pytest.raises(RulesError) as error:
        check_level(ruleset, level)
    assert (error.value.setting, error.value.message) == ("level", message)


# --- derived values -------------------------------------------------------------------------


def test_jason_frees_derived_values_match_the_ezfudge_example() -> None:
    assert dict(derived(EZ, JASON)) == {
        "Resilience": "+2",  # (Body 3 + Will 2) / 2, rounded down
        "Reflexes": "+2",  # (Agility 2 + Mind 2) / 2
        "CPD": "4",  # leather 1 + mass scale 0 + Resilience 2 + Toughness 1
        "INJ · Quarterstaff": "5",  # Body 3 + factor 2
        "INJ · Knife": "4",  # Body 3 + factor 1
    }


def test_derived_values_come_in_sheet_order() -> None:
    labels = [label for label, _ in derived(EZ, JASON)]
    assert labels == ["Resilience", "Reflexes", "CPD", "INJ · Quarterstaff", "INJ · Knife"]


def test_mass_scale_and_missing_attributes_count_in_derived_values() -> None:
    # Attributes not on the sheet count as Fair, the EZFudge default.
    giant = Sheet(
        traits=(SheetTrait(ATTRIBUTE, "Body", POOR),),
        mass_scale=3,
        weapons=(Weapon("Rifle", inj=5),),
    )
    assert dict(derived(EZ, giant)) == {
        "Resilience": "+0",  # (Poor -1 + Fair 1) / 2
        "Reflexes": "+1",
        "CPD": "3",
        "INJ · Rifle": "5",  # a self-powered weapon keeps its own INJ
    }


def test_peupfudge_shows_each_ability_with_its_progress_and_modifier() -> None:
    hobbit = Sheet(traits=(*OBAZANA.traits, peup_ability("Strength", 3, modifier=-1)))
    assert derived(PEUP, hobbit) == (
        ("Muscle", "4 (+6/16)"),
        ("Charisma", "3 (+6/8)"),
        ("Perception", "3"),
        ("Knowledge", "3 (+2/8)"),
        ("Strength", "3 - 1 = 2"),
    )


@pytest.mark.parametrize("ruleset", [LITE, F1995, FATE])
def test_ladder_sheets_have_no_derived_values(ruleset) -> None:
    assert derived(ruleset, Sheet(traits=starting_traits(ruleset))) == ()


def test_ability_xp_spent_counts_levels_and_progress() -> None:
    assert [ability_xp_spent(t) for t in OBAZANA.traits] == [21, 13, 7, 9]


# --- build checks ---------------------------------------------------------------------------


def test_a_new_fudge_lite_sheet_has_every_slot_left_and_breaks_nothing() -> None:
    check = build_check(LITE, Sheet(traits=starting_traits(LITE)))
    assert check == BuildCheck(
        (
            "1 Superb slot left",
            "2 Great slots left",
            "3 Good slots left",
            "4 Fair slots left",
            "5 Mediocre slots left",
        ),
        (),
    )
    assert check.ok


def test_a_fudge_lite_build_counts_down_its_slots() -> None:
    check = build_check(LITE, Sheet(traits=lite_traits(SUPERB, GREAT, GOOD, GOOD, GOOD, FAIR)))
    assert check.left == ("1 Great slot left", "3 Fair slots left", "5 Mediocre slots left")
    assert check.ok


def test_a_full_fudge_lite_build_has_nothing_left() -> None:
    check = build_check(LITE, Sheet(traits=lite_traits(SUPERB, GREAT, GREAT, GOOD, GOOD, GOOD)))
    assert check.left == ("4 Fair slots left", "5 Mediocre slots left")
    # Only 8 base traits: two Poor ones are still unplaced, which is allowed.
    assert check.ok


def test_a_fudge_lite_build_over_its_slots_is_broken() -> None:
    check = build_check(LITE, Sheet(traits=lite_traits(SUPERB, SUPERB, GREAT)))
    assert check.broken == ("2 Superb traits but only 1 slot",)
    assert not check.ok


def test_a_fudge_lite_trait_off_the_campaigns_list_is_broken() -> None:
    sheet = Sheet(traits=(*lite_traits(), SheetTrait(TRAIT, "Juggling", FAIR)))
    assert build_check(LITE, sheet).broken == ("Juggling is not on the trait list",)


def test_fate_names_its_distribution_on_its_own_ladder() -> None:
    sheet = Sheet(traits=(SheetTrait(SKILL, "Contacting", 4), SheetTrait(SKILL, "Streetwise", 2)))
    check = build_check(FATE, sheet)
    assert check.left == ("2 Good slots left", "2 Fair slots left", "4 Average slots left")
    assert check.ok


def test_a_fudge_1995_build_uses_the_fudge_lite_distribution() -> None:
    check = build_check(F1995, Sheet(traits=lite_traits(SUPERB)))
    assert check.left[0] == "2 Great slots left"
    assert check.ok


def test_other_kinds_of_trait_do_not_count_against_the_slots() -> None:
    sheet = Sheet(traits=(*lite_traits(), SheetTrait(ROLE, "Juggler", SUPERB)))
    assert build_check(LITE, sheet).left[0] == "1 Superb slot left"


def test_jason_free_spends_exactly_30_build_points() -> None:
    assert build_check(EZ, JASON) == BuildCheck(("30 / 30 build points",), ())


def test_a_new_ezfudge_sheet_has_spent_8_build_points_on_fair_attributes() -> None:
    check = build_check(EZ, Sheet(traits=starting_traits(EZ)))
    assert check == BuildCheck(("8 / 30 build points",), ())


def test_an_ezfudge_build_over_budget_is_broken() -> None:
    sheet = replace(JASON, gifts=(*JASON.gifts, Gift("Lucky")))
    check = build_check(EZ, sheet)
    assert check.left == ("34 / 30 build points",)
    assert check.broken == ("34 / 30 build points: 4 over",)


def test_an_ezfudge_build_checks_the_role_limits() -> None:
    sheet = replace(JASON, traits=(*JASON.traits, SheetTrait(ROLE, "Archer", GREAT)))
    check = build_check(EZ, replace(sheet, faults=(*sheet.faults, Fault("Greedy"))))
    assert check.broken == ("only one Great role at the start, not 2",)


def test_a_required_specialty_makes_a_role_cheaper() -> None:
    roles = (SheetTrait(ROLE, "Doctor", GOOD, "Family Practice", specialty_required=True),)
    sheet = Sheet(traits=(*starting_traits(EZ), *roles))
    assert build_check(EZ, sheet).left == ("10 / 30 build points",)  # 8 + (3 - 1)


def test_a_costed_people_package_counts_toward_the_build() -> None:
    sheet = replace(JASON, people_package_points=4)
    assert build_check(EZ, sheet).broken == ("34 / 30 build points: 4 over",)


def test_the_campaign_budget_sets_the_ezfudge_build_points() -> None:
    ruleset = replace(EZ, build=replace(EZ.build, budget=40))
    assert build_check(ruleset, JASON).left == ("30 / 40 build points",)


def test_obazana_allocates_all_50_starting_xp() -> None:
    assert build_check(PEUP, OBAZANA) == BuildCheck(("50 / 50 XP allocated",), ())


def test_a_new_peupfudge_sheet_has_allocated_nothing() -> None:
    check = build_check(PEUP, Sheet(traits=starting_traits(PEUP)))
    assert check == BuildCheck(("0 / 50 XP allocated",), ())


def test_a_peupfudge_build_over_its_starting_xp_is_broken() -> None:
    sheet = Sheet(traits=(*OBAZANA.traits, peup_ability("Cooking", 2)))
    check = build_check(PEUP, sheet)
    assert check.left == ("53 / 50 XP allocated",)
    assert check.broken == ("53 / 50 XP allocated: 3 over",)


def test_on_the_fly_shows_open_slots_and_refuses_only_overfull_ones() -> None:
    ruleset = replace(LITE, build=BuildRules(BuildMethod.ON_THE_FLY))
    check = build_check(ruleset, Sheet(traits=lite_traits(SUPERB, GREAT)))
    assert check.broken == ()
    assert "1 Great slot left" in check.left
    assert build_check(ruleset, Sheet(traits=lite_traits(SUPERB, SUPERB))).broken


@pytest.mark.parametrize(
    ("method", "good", "bad"),
    [
        (BuildMethod.OVER_THE_EDGE, (GREAT, GOOD, GOOD), (GREAT, GREAT, GOOD)),
        (BuildMethod.WUSHU, (SUPERB, GREAT, GOOD), (SUPERB, GOOD, GOOD)),
    ],
)
def test_quick_builds_have_exactly_their_three_traits(method, good, bad) -> None:
    ruleset = replace(LITE, build=BuildRules(method))
    assert build_check(ruleset, Sheet(traits=lite_traits(*good))).ok
    check = build_check(ruleset, Sheet(traits=lite_traits(*bad)))
    assert check.broken and check.broken[0].startswith("a quick build has exactly")


def test_a_traded_slot_becomes_two_slots_one_level_lower() -> None:
    sheet = Sheet(traits=lite_traits(GOOD, GOOD, GOOD, GOOD, GOOD), trades=(GREAT,))
    check = build_check(LITE, sheet)
    assert check.broken == ()
    assert "1 Great slot left" in check.left


def test_trading_is_refused_where_there_are_no_slots() -> None:
    with pytest.raises(RulesError) as error:
        traded_distribution(resolve("ezfudge"), (GREAT,))
    assert error.value.setting == "trade"


def test_a_distribution_build_without_slots_checks_nothing() -> None:
    ruleset = replace(LITE, build=BuildRules(BuildMethod.DISTRIBUTION))
    assert build_check(ruleset, Sheet(traits=lite_traits(SUPERB, SUPERB))) == BuildCheck((), ())


def test_a_campaigns_own_distribution_is_checked() -> None:
    slots = Distribution.of({GREAT: 1, GOOD: 2})
    ruleset = replace(LITE, build=BuildRules(BuildMethod.DISTRIBUTION, slots))
    check = build_check(ruleset, Sheet(traits=lite_traits(GREAT, FAIR)))
    assert check == BuildCheck(("2 Good slots left",), ("1 Fair trait but only 0 slots",))


# --- advancement ----------------------------------------------------------------------------


def test_fudge_lite_fair_to_good_costs_2_xp() -> None:
    fair = SheetTrait(TRAIT, "Stealth", FAIR)
    step = advance_step(LITE, fair, 2)
    assert (step.level, step.cost, step.allowed, step.reason) == (FAIR, 2, True, "")
    short = advance_step(LITE, fair, 1)
    assert (short.cost, short.allowed, short.reason) == (2, False, "needs 2 XP, has 1")


@pytest.mark.parametrize(
    ("level", "cost"), [(TERRIBLE, 1), (POOR, 1), (MEDIOCRE, 1), (GOOD, 4), (GREAT, 8)]
)
def test_fudge_lite_steps_follow_its_table(level, cost) -> None:
    assert advance_step(LITE, SheetTrait(TRAIT, "Stealth", level), 100).cost == cost


def test_fudge_lite_past_superb_needs_the_gms_permission() -> None:
    superb = SheetTrait(TRAIT, "Stealth", SUPERB)
    refused = advance_step(LITE, superb, 100)
    assert (refused.cost, refused.allowed) == (16, False)
    assert refused.reason == "going past Superb needs GM permission"
    assert advance_step(LITE, superb, 100, gm_permission=True).allowed


def test_fate_and_fudge_1995_use_the_fudge_lite_table() -> None:
    assert advance_step(FATE, SheetTrait(SKILL, "Contacting", FAIR), 5).cost == 2
    assert advance_step(F1995, SheetTrait(TRAIT, "Stealth", FAIR), 5).cost == 2


def test_ezfudge_attributes_cost_double_what_roles_do() -> None:
    role = advance_step(EZ, SheetTrait(ROLE, "Woodsman", FAIR), 3)
    attribute = advance_step(EZ, SheetTrait(ATTRIBUTE, "Mind", FAIR), 3)
    assert (role.cost, role.allowed) == (2, True)
    assert (attribute.cost, attribute.allowed, attribute.reason) == (4, False, "needs 4 XP, has 3")
    assert advance_step(EZ, SheetTrait(ATTRIBUTE, "Body", GREAT), 16).cost == 16


def test_peupfudge_asks_only_for_the_xp_the_next_level_still_misses() -> None:
    muscle = OBAZANA.traits[0]  # 4 (+6/16)
    step = advance_step(PEUP, muscle, 3)
    assert (step.level, step.cost, step.allowed, step.reason) == (4, 10, True, "")


def test_peupfudge_takes_any_xp_toward_a_level_but_not_none() -> None:
    step = advance_step(PEUP, peup_ability("Knowledge", 5), 0)
    assert (step.cost, step.allowed, step.reason) == (32, False, "no unspent XP")


@pytest.mark.parametrize(
    ("ruleset", "trait"),
    [
        (LITE, SheetTrait(TRAIT, "Stealth", 8)),  # Superb Superhuman
        (F1995, SheetTrait(TRAIT, "Stealth", SUPERB)),
        (EZ, SheetTrait(ROLE, "Woodsman", SUPERB)),
        (PEUP, peup_ability("Knowledge", PEUPFUDGE_TOP)),
    ],
)
def test_a_trait_at_the_top_of_the_ladder_cannot_be_raised(ruleset, trait) -> None:
    step = advance_step(ruleset, trait, 10_000, gm_permission=True)
    assert (step.level, step.cost, step.allowed) == (trait.level, 0, False)
    assert step.reason == "already at the top of the ladder"


def test_a_step_the_campaigns_table_cannot_price_is_refused_not_raised() -> None:
    # A GM may pair a ladder with another game's table; Peupfudge prices no level below 0.
    ruleset = resolve("fudge-lite", {"advancement": "peupfudge"})
    step = advance_step(ruleset, SheetTrait(TRAIT, "Stealth", POOR), 10)
    assert (step.level, step.cost, step.allowed) == (POOR, 0, False)
    assert step.reason == "Peupfudge levels start at 0"


def test_ezfudge_buys_a_gift_for_8_xp_with_the_gms_agreement() -> None:
    step = gift_or_fault_step(EZ, 8, gm_agrees=True)
    assert (step.cost, step.allowed) == (8, True)
    assert gift_or_fault_step(EZ, 7, gm_agrees=True).reason == "needs 8 XP, has 7"
    assert gift_or_fault_step(EZ, 8, gm_agrees=False).reason == "the GM must agree to the change"


@pytest.mark.parametrize("ruleset", [LITE, F1995, FATE, PEUP])
def test_other_tables_do_not_sell_gifts_for_xp(ruleset) -> None:
    step = gift_or_fault_step(ruleset, 100, gm_agrees=True)
    assert (step.cost, step.allowed) == (0, False)
    assert step.reason == f"{ruleset.label} does not buy gifts with XP"
