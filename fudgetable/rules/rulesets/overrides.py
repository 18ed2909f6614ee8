"""A campaign's overrides of its preset, checked setting by setting.

A campaign stores only its overrides as JSON; ``resolve`` checks them one by one and raises a
``RulesError`` naming the first bad setting, so a form can show it beside the right field.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from enum import StrEnum
from typing import Any

from fudgetable.rules import data
from fudgetable.rules.advancement import KeyAward
from fudgetable.rules.criticals import read_table
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder, get_ladder
from fudgetable.rules.resolution import NPC_ROLL_MODES, Criticals, ModifierPolicy, Outcome
from fudgetable.rules.rulesets.model import (
    DAMAGE_OPTIONS,
    FUDGE_POINT_USES,
    MAX_NAME,
    MAX_TRAITS,
    AdvancementTable,
    BuildRules,
    Ruleset,
)
from fudgetable.rules.rulesets.presets import PRESETS
from fudgetable.rules.tracks import DIES, INCAPACITATED, ConditionTrack
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import MEDICAL_CARE_PER_WEEK, WoundTrack


def get_preset(key: object) -> Ruleset:
    if not isinstance(key, str) or key not in PRESETS:
        raise RulesError(
            "ruleset",
            gettext_noop("%(key)r is not one of %(choices)s"),
            key=key,
            choices=", ".join(PRESETS),
        )
    return PRESETS[key]


# A setting's parser reads the raw JSON (against the ruleset built so far) and returns the value
# for the ruleset's field and the canonical JSON to store.
Parse = Callable[[Ruleset, object], tuple[Any, Any]]


def _ladder(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str):
        return get_ladder(raw), raw
    ladder = Ladder.from_dict(raw)
    return ladder, ladder.to_dict()


def _dice(setting: str) -> Parse:
    def parse(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
        key = get_method(raw, setting).key
        return key, key

    return parse


def _difficulty(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str):
        value = ruleset.ladder.value(raw, "default_difficulty")
    else:
        value = data.require_int(raw, "default_difficulty")
    return value, value


def _trait_list(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise RulesError("trait_list", gettext_noop("must be a list of trait names"))
    # Counted first, so a huge stored list is refused before any name is looked at.
    if len(raw) > MAX_TRAITS:
        raise RulesError(
            "trait_list", gettext_noop("at most %(max_traits)s traits"), max_traits=MAX_TRAITS
        )
    names: list[str] = []
    seen: set[str] = set()
    for item in raw:
        name = item.strip() if isinstance(item, str) else ""
        if not name or len(name) > MAX_NAME:
            raise RulesError(
                "trait_list",
                gettext_noop("each name needs 1 to %(max_name)s characters"),
                max_name=MAX_NAME,
            )
        if name.casefold() in seen:
            raise RulesError("trait_list", gettext_noop("%(name)r is listed twice"), name=name)
        seen.add(name.casefold())
        names.append(name)
    return tuple(names), names


def _key_award(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    """How keys pay, or None: the campaign does not use keys."""
    return (None, None) if raw is None else _one_of(KeyAward, "key_award")(ruleset, raw)


MAX_QUESTIONS = 10
MAX_QUESTION = 200


def _questions(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise RulesError("session_questions", gettext_noop("must be a list of questions"))
    if len(raw) > MAX_QUESTIONS:
        raise RulesError(
            "session_questions",
            gettext_noop("at most %(max_questions)s questions"),
            max_questions=MAX_QUESTIONS,
        )
    questions = [item.strip() if isinstance(item, str) else "" for item in raw]
    if not all(0 < len(question) <= MAX_QUESTION for question in questions):
        raise RulesError(
            "session_questions",
            gettext_noop("each needs 1 to %(max_question)s characters"),
            max_question=MAX_QUESTION,
        )
    return tuple(questions), questions


def _stored(
    parse: Callable[[object], Any], setting: str, root: str, *, optional: bool = False
) -> Parse:
    """A parser for a value that stores itself with ``to_dict`` (build rules, tracks).

    ``parse`` names its errors from its own ``root`` ("track.groups", "group.boxes",
    "distribution.slots"); they are renamed under ``setting`` ("injury_track.groups",
    "injury_track.group.boxes", "build.distribution.slots"), so that the error says which
    setting is bad: an injury track and a wound track both call themselves "track".
    """

    def parse_value(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
        if optional and raw is None:
            return None, None
        try:
            value = parse(raw)
        except RulesError as error:
            head, dot, rest = error.setting.partition(".")
            name = f"{setting}{dot}{rest}" if head == root else f"{setting}.{error.setting}"
            raise RulesError(name, error.message) from None
        return value, value.to_dict()

    return parse_value


def _last_box(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if raw not in (DIES, INCAPACITATED):
        raise RulesError(
            "last_box",
            gettext_noop("must be %(dies)r or %(incapacitated)r"),
            dies=DIES,
            incapacitated=INCAPACITATED,
        )
    if ruleset.injury_track is None:
        raise RulesError("last_box", gettext_noop("this campaign has no injury track"))
    return replace(ruleset.injury_track, last_box=raw), raw


def _one_of(choices: type[StrEnum] | Sequence[str], setting: str) -> Parse:
    def parse(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
        if isinstance(choices, type):
            value = data.choice(choices, raw, setting)
            return value, value.value
        if raw not in choices:
            raise RulesError(
                setting, gettext_noop("must be one of %(choices)s"), choices=", ".join(choices)
            )
        return raw, raw

    return parse


def _count(setting: str, most: int, least: int = 0) -> Parse:
    def parse(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
        if not data.is_int(raw) or not least <= raw <= most:
            raise RulesError(
                setting,
                gettext_noop("must be a whole number from %(least)s to %(most)s"),
                least=least,
                most=most,
            )
        return raw, raw

    return parse


def _flag(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if not isinstance(raw, bool):
        raise RulesError("xp_on_a_miss", gettext_noop("must be true or false"))
    return raw, raw


def _uses(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise RulesError("fudge_point_uses", gettext_noop("must be a list of uses"))
    for use in raw:
        if not isinstance(use, str) or use not in FUDGE_POINT_USES:
            known = ", ".join(FUDGE_POINT_USES)
            raise RulesError(
                "fudge_point_uses",
                gettext_noop("%(use)r is not one of %(known)s"),
                use=use,
                known=known,
            )
    uses = tuple(use for use in FUDGE_POINT_USES if use in raw)  # canonical order, no repeats
    return uses, list(uses)


def _critical_table(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    """The GM's text or the stored rows; null (or nothing written) is no table."""
    table = read_table(raw)
    return table, table.to_dict() if table else None


def _damage_options(ruleset: Ruleset, raw: object) -> tuple[Any, Any]:
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise RulesError("damage_options", gettext_noop("must be a list of option numbers"))
    for option in raw:
        if not data.is_int(option) or option not in DAMAGE_OPTIONS:
            known = ", ".join(map(str, DAMAGE_OPTIONS))
            raise RulesError(
                "damage_options",
                gettext_noop("%(option)r is not one of %(known)s"),
                option=option,
                known=known,
            )
    options = tuple(sorted(set(raw)))
    return options, list(options)


# setting -> (the Ruleset field it sets, its parser). In this order, so that a difficulty is
# read on the campaign's own ladder and the last-box choice lands on its own injury track.
_SETTINGS: Mapping[str, tuple[str, Parse]] = {
    "ladder": ("ladder", _ladder),
    "dice": ("dice", _dice("dice")),
    "opposed_dice": ("opposed_dice", _dice("opposed_dice")),
    "default_difficulty": ("default_difficulty", _difficulty),
    "trait_list": ("trait_list", _trait_list),
    "build": ("build", _stored(BuildRules.from_dict, "build", "build")),
    "advancement": ("advancement", _one_of(AdvancementTable, "advancement")),
    "injury_track": (
        "injury_track",
        _stored(ConditionTrack.from_dict, "injury_track", "track", optional=True),
    ),
    "wound_track": (
        "wound_track",
        _stored(WoundTrack.from_dict, "wound_track", "track", optional=True),
    ),
    "last_box": ("injury_track", _last_box),
    "modifier_policy": ("modifier_policy", _one_of(ModifierPolicy, "modifier_policy")),
    "opposed_tie": ("opposed_tie", _one_of(Outcome, "opposed_tie")),
    "criticals": ("criticals", _one_of(Criticals, "criticals")),
    "critical_table": ("critical_table", _critical_table),
    "npc_roll": ("npc_roll", _one_of(NPC_ROLL_MODES, "npc_roll")),
    "xp_per_session": ("xp_per_session", _count("xp_per_session", 10)),
    "xp_on_a_miss": ("xp_on_a_miss", _flag),
    "key_award": ("key_award", _key_award),
    "session_questions": ("session_questions", _questions),
    "starting_fudge_points": ("starting_fudge_points", _count("starting_fudge_points", 20)),
    "fudge_points_per_xp": ("fudge_points_per_xp", _count("fudge_points_per_xp", 10, least=1)),
    "fudge_point_uses": ("fudge_point_uses", _uses),
    "damage_options": ("damage_options", _damage_options),
    "medical_era": ("medical_era", _one_of(tuple(MEDICAL_CARE_PER_WEEK), "medical_era")),
}
SETTINGS = tuple(_SETTINGS)


def resolve(key: object, overrides: Mapping[str, Any] | None = None) -> Ruleset:
    """The preset ``key`` with a campaign's overrides applied and checked.

    The result's ``overrides`` holds them in canonical JSON form (a rung name read as its
    value, a ladder or track as its full dict), ready to store.
    """
    ruleset = get_preset(key)
    given = dict(data.obj({} if overrides is None else overrides, "settings"))
    unknown = sorted(set(map(str, given)) - set(_SETTINGS))
    if unknown:
        raise RulesError(unknown[0], gettext_noop("is not a setting FudgeTable knows"))
    stored: dict[str, Any] = {}
    for setting, (field_name, parse) in _SETTINGS.items():
        if setting in given:
            value, stored[setting] = parse(ruleset, given[setting])
            ruleset = replace(ruleset, **{field_name: value})
    return replace(ruleset, overrides=stored)
