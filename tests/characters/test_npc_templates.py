"""The starter NPC templates: plain data that fits each preset's rules."""

import pytest

from characters.npc_templates import TEMPLATES, find_template, templates_for
from fudgetable.rules.character import ARMOR_TABLE, ATTRIBUTE_NAMES, Weapon
from fudgetable.rules.rulesets import PRESETS, TraitScheme
from fudgetable.rules.sheet import level_bounds
from fudgetable.rules.sheet_tracks import pc_track_size

ALL = [(key, template) for key, templates in TEMPLATES.items() for template in templates]
IDS = [f"{key}:{template.key}" for key, template in ALL]


def test_every_preset_has_three_or_four_templates():
    assert set(TEMPLATES) == set(PRESETS)
    assert all(3 <= len(templates) <= 4 for templates in TEMPLATES.values())


@pytest.mark.parametrize("ruleset_key", list(TEMPLATES))
def test_template_keys_and_names_are_unique_within_a_preset(ruleset_key):
    templates = templates_for(ruleset_key)
    assert len({t.key for t in templates}) == len(templates)
    assert len({t.name for t in templates}) == len(templates)


@pytest.mark.parametrize(("ruleset_key", "template"), ALL, ids=IDS)
def test_trait_levels_sit_on_the_presets_ladder(ruleset_key, template):
    low, high = level_bounds(PRESETS[ruleset_key])
    assert template.traits
    assert all(low <= level <= high for _, level in template.traits)
    names = [name for name, _ in template.traits]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize(("ruleset_key", "template"), ALL, ids=IDS)
def test_boxes_are_one_up_to_a_pcs_track(ruleset_key, template):
    assert 1 <= template.npc_boxes <= pc_track_size(PRESETS[ruleset_key])


@pytest.mark.parametrize(("ruleset_key", "template"), ALL, ids=IDS)
def test_every_template_has_words_for_the_gm(ruleset_key, template):
    assert template.name and template.description
    assert template.behaviours
    assert all(0 < len(line) <= 200 for line in template.behaviours)
    assert len(template.description) <= 2000


@pytest.mark.parametrize(("ruleset_key", "template"), ALL, ids=IDS)
def test_gifts_only_help_and_faults_only_hinder(ruleset_key, template):
    assert all(gift.amount >= 0 for gift in template.gifts)
    assert all(fault.amount <= 0 for fault in template.faults)
    assert all(abs(f.amount) <= 3 for f in template.gifts + template.faults)


def test_every_preset_has_a_minor_foe_and_an_important_npc():
    for ruleset_key, templates in TEMPLATES.items():
        boxes = [t.npc_boxes for t in templates]
        assert min(boxes) <= 2, ruleset_key
        assert max(boxes) > 2, ruleset_key


def test_ezfudge_templates_set_all_four_attributes():
    assert PRESETS["ezfudge"].trait_scheme is TraitScheme.ROLES_ATTRIBUTES
    for template in templates_for("ezfudge"):
        names = {name for name, _ in template.traits}
        assert set(ATTRIBUTE_NAMES) <= names
        assert names - set(ATTRIBUTE_NAMES), f"{template.name} has no role"


def test_peupfudge_abilities_are_plain_whole_numbers():
    for template in templates_for("peupfudge"):
        assert all(isinstance(level, int) and level >= 0 for _, level in template.traits)


def test_fate_templates_are_rated_on_fates_ladder():
    # Fate's Average is +1: a trained hand sits at Fair (+2) or better.
    for template in templates_for("fate"):
        assert max(level for _, level in template.traits) >= 2


def test_a_template_is_found_by_its_key_within_its_preset_only():
    assert find_template("fudge-lite", "wolf") is not None
    assert find_template("fate", "wolf") is None
    assert find_template("no-such-ruleset", "wolf") is None
    assert templates_for("no-such-ruleset") == ()


# --- armour and weapons: the same gear data a sheet holds ---------------------------------

ARMOUR = {armor.name: armor.bonus for armor in ARMOR_TABLE}
FACTORS = {"Knife": 1, "Short sword": 2, "Quarterstaff": 2}  # ezfudge-essentials.txt:247-258


@pytest.mark.parametrize("template", templates_for("ezfudge"), ids=lambda t: t.key)
def test_every_ezfudge_template_is_armed_with_gear_the_rules_read(template):
    """ "every templated NPC fights unarmed (INJ 0)" no more: each carries a weapon the rules
    take (a damage factor or its own INJ), and its armour's bonus is the seed's."""
    weapons = [g for g in template.gear if g.kind == "weapon"]
    assert weapons, template.name
    for gear in weapons:
        weapon = Weapon(gear.name, gear.damage_factor, gear.inj, gear.quality, gear.ranged)
        assert gear.armor_bonus is None and weapon.damage_factor is not None
        assert gear.name not in FACTORS or FACTORS[gear.name] == gear.damage_factor
    for gear in template.gear:
        if gear.kind == "armor":
            assert ARMOUR[gear.name] == gear.armor_bonus
            assert gear.damage_factor is None and gear.inj is None


def test_the_hill_bandit_carries_what_his_description_says():
    """ "A wiry outlaw with a short bow and a knife in each boot": the bow is shot."""
    bandit = find_template("ezfudge", "bandit")
    assert bandit is not None
    kinds = {gear.name: gear.ranged for gear in bandit.gear if gear.kind == "weapon"}
    assert kinds == {"Short bow": True, "Knife": False}


def test_only_ezfudge_templates_carry_gear():
    """The other presets' rules read no armour bonus or damage factor."""
    for ruleset_key, templates in TEMPLATES.items():
        if ruleset_key != "ezfudge":
            assert all(not t.gear for t in templates), ruleset_key
