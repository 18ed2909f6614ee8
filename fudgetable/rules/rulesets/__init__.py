"""Rulesets: the bundle of choices each game makes, and a campaign's checked overrides of it.

A ruleset names its ladder, dice, default difficulty, trait scheme and starting trait list,
build rules, advancement table, injury or wound track, and the options a group settles in
session zero. The five presets follow the seeds (see docs/rules.md for each default's source).
A campaign stores only its overrides as JSON; ``resolve`` checks them one by one and raises a
``RulesError`` naming the first bad setting, so a form can show it beside the right field.
"""

from fudgetable.rules.rulesets.model import (
    DAMAGE_OPTIONS,
    FUDGE_POINT_USES,
    AdvancementTable,
    BuildMethod,
    BuildRules,
    Ruleset,
    TraitScheme,
)
from fudgetable.rules.rulesets.overrides import SETTINGS, get_preset, resolve
from fudgetable.rules.rulesets.presets import DEFAULT_KEY, GM_MOVES, PRESETS, TRAIT_LISTS

__all__ = [
    "DAMAGE_OPTIONS",
    "DEFAULT_KEY",
    "FUDGE_POINT_USES",
    "GM_MOVES",
    "PRESETS",
    "SETTINGS",
    "TRAIT_LISTS",
    "AdvancementTable",
    "BuildMethod",
    "BuildRules",
    "Ruleset",
    "TraitScheme",
    "get_preset",
    "resolve",
]
