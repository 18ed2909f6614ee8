"""The starter NPC templates: plain data that fits each preset's rules."""

import pytest

from characters.npc_templates import TEMPLATES, find_template, templates_for
from fudgetable.rules.character import ATTRIBUTE_NAMES
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
