"""The checks a campaign backup must pass before ``restore`` saves any of it.

``read_backup`` reads the file part by part and notes every problem with where it is
("log[12].follows: ..."), so a GM sees them all at once; each sheet is checked by the
character import's own ``read_character`` against the backup's rules. It reads both
versions: ``fudgetable.campaign/1`` (settings, people and sheets) and ``/2``, which adds the
sessions, the log, the countdowns and the challenges, and since the scenes their pictures and
scenes (``scene.backup_checks``; a file from before them has none).
"""

from collections.abc import Mapping
from typing import Any

from django.conf import settings

from campaigns.ladder_words import MAX_WORD
from campaigns.models import Campaign, Membership, SessionZero
from campaigns.services import GM_MOVE_LENGTH, GM_MOVES_MAX
from characters.exchange_checks import read_character
from characters.services.extras import PACKAGE_KINDS
from fudgetable.json_reader import SMALL, USERNAME, Json, Reader, read_ref
from fudgetable.rules import rulesets
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import check_rung_name
from rolls.backup.table_checks import (
    MAX_CHARACTERS,
    read_challenges,
    read_countdowns,
    read_log,
    read_sessions,
)
from rolls.backup.write import SCHEMA
from rolls.scene.backup_checks import read_pictures, read_scenes

SCHEMA_1 = "fudgetable.campaign/1"
SCHEMAS = (SCHEMA_1, SCHEMA)

# Limits that keep one file from filling the database; a long campaign stays far below them.
MAX_MEMBERS = 200
MAX_SETTINGS_ROWS = 100  # people packages, ability marks, the changes of one package
MAX_RUNGS = 40  # the GM's words for a ladder's rungs: far more than any ladder has
NAME_LENGTH = 80  # a rung's own name, as the rules or an expert's ladder give it
LANGUAGES = [code for code, _name in settings.LANGUAGES]

TOP_KEYS = frozenset(
    {
        "schema",
        "exported_at",
        "name",
        "pitch",
        "ruleset",
        "overrides",
        "language",
        "ladder_words",
        "archived",
        "owner",
        "gm_moves",
        "session_zero",
        "members",
        "people_packages",
        "ability_marks",
        "characters",
        "sessions",
        "countdowns",
        "challenges",
        "log",
        "table_talk",
        "pictures",
        "scenes",
    }
)


def read_backup(data: object) -> tuple[Json | None, list[str]]:
    """The checked backup, ready for ``restore``, and its problems; None on any problem."""
    if not isinstance(data, dict):
        return None, ["the file must hold one JSON object: a campaign backup"]
    schema = data.get("schema")
    if schema not in SCHEMAS:
        if isinstance(schema, str) and schema.startswith("fudgetable.character/"):
            return None, ["schema: this is one character; import it from a campaign's Characters"]
        if isinstance(schema, str) and schema.startswith("fudgetable.campaign/"):
            return None, [f"schema: this FudgeTable reads {' and '.join(SCHEMAS)}, not {schema}"]
        return None, [f'schema: a campaign backup says "schema": "{SCHEMA}"']
    r = Reader("a campaign backup")
    r.clean(data)
    r.known(data, "", TOP_KEYS if schema == SCHEMA else TOP_KEYS - {"gm_moves"})
    # A file from before the table's language and its ladder words: English, the rules' words.
    ruleset = _ruleset(r, data)
    backup: Json = {
        "name": r.text(data, "name", "", 120, required=True),
        "pitch": r.text(data, "pitch", "", 4000),
        "ruleset": ruleset.key if ruleset else None,
        "overrides": ruleset.overrides if ruleset else {},
        "language": r.choice(data, "language", "", LANGUAGES, settings.LANGUAGE_CODE),
        "ladder_words": _ladder_words(r, data),
        "archived": r.flag(data, "archived", ""),
        "gm_moves": r.texts(data, "gm_moves", "", GM_MOVES_MAX, GM_MOVE_LENGTH),
        "session_zero": _session_zero(r, data),
        "members": _members(r, data),
        "people_packages": _packages(r, data),
        "ability_marks": _ability_marks(r, data),
    }
    # Who ran the table: a GM, whose whispers (``restore.read_by_a_gm``) are the GMs'.
    backup["owner"] = r.text(data, "owner", "", USERNAME)
    backup["characters"] = _characters(r, data, ruleset, numbered=schema == SCHEMA)
    refs = {entry["ref"] for entry in backup["characters"]}
    backup["sessions"] = read_sessions(r, data, refs)
    backup["countdowns"] = read_countdowns(r, data)
    backup["challenges"] = read_challenges(r, data)
    numbers = {session["number"] for session in backup["sessions"]}
    backup["log"] = read_log(r, data, refs, numbers)
    talk = data.get("table_talk") or {}
    if not isinstance(talk, dict):
        r.add("table_talk", "must be an object")
        talk = {}
    r.known(talk, "table_talk", {"dice_in_hand"})
    backup["table_talk"] = {"dice_in_hand": r.flag(talk, "dice_in_hand", "table_talk")}
    backup["pictures"] = read_pictures(r, data)
    kept = {picture["ref"] for picture in backup["pictures"]}
    backup["scenes"] = read_scenes(r, data, refs, kept, ruleset.key if ruleset else "")
    return (None if r.problems else backup), r.problems


def _ruleset(r: Reader, data: Mapping[str, Any]) -> rulesets.Ruleset | None:
    key = r.choice(data, "ruleset", "", list(rulesets.PRESETS), "")
    overrides = data.get("overrides", {})
    if key is None:
        return None
    try:
        return rulesets.resolve(key, overrides)
    except RulesError as error:
        r.add(f"overrides.{error.setting}", error.message)
        return None


def _ladder_words(r: Reader, data: Mapping[str, Any]) -> dict[str, str]:
    """The GM's words for the rungs, by each rung's own name, held to the settings page's
    rules: a word that reads as a name, short, and no two alike."""
    words = data.get("ladder_words", {})
    if not isinstance(words, dict):
        r.add("ladder_words", "must be an object: a rung's name and its word")
        return {}
    if len(words) > MAX_RUNGS:
        r.add("ladder_words", f"holds at most {MAX_RUNGS} rungs (it has {len(words)})")
        return {}
    seen: set[str] = set()
    for own, word in words.items():
        at = f"ladder_words.{own[:NAME_LENGTH]}"
        if len(own) > NAME_LENGTH or not isinstance(word, str) or len(word) > MAX_WORD:
            r.add(at, f"must be a rung's name and a word of at most {MAX_WORD} characters")
            continue
        try:
            check_rung_name(word, at)
        except RulesError as error:
            r.add(at, error.message)
        r.unique(at, "".join(word.split()).lower(), seen, "names another rung too")
    return dict(words)  # the file is refused whole on any problem noted


def _session_zero(r: Reader, data: Mapping[str, Any]) -> Json | None:
    value = data.get("session_zero")
    if value is None:
        return None
    if not isinstance(value, dict):
        r.add("session_zero", "must be an object or null")
        return None
    r.known(value, "session_zero", {"lines", "veils", "safety_tools", "agreed_options"})
    tools = value.get("safety_tools", [])
    if not isinstance(tools, list) or not set(tools) <= set(SessionZero.SafetyTool.values):
        r.add("session_zero.safety_tools", f"holds only {', '.join(SessionZero.SafetyTool)}")
        tools = []
    return {
        "lines": r.text(value, "lines", "session_zero", 4000),
        "veils": r.text(value, "veils", "session_zero", 4000),
        "agreed_options": r.text(value, "agreed_options", "session_zero", 4000),
        "safety_tools": tools,
    }


def _members(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    members: list[Json] = []
    seen: set[str] = set()
    for at, row in r.rows(data, "members", "", MAX_MEMBERS):
        r.known(row, at, {"username", "role"})
        username = r.text(row, "username", at, USERNAME, required=True)
        role = r.choice(row, "role", at, Membership.Role.values, "")
        r.unique(f"{at}.username", username, seen, f"{username} is listed twice")
        members.append({"username": username, "role": role})
    return members


def _packages(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    packages: list[Json] = []
    seen: set[str] = set()
    for at, row in r.rows(data, "people_packages", "", MAX_SETTINGS_ROWS):
        r.known(row, at, {"name", "description", "changes", "points"})
        name = r.text(row, "name", at, 80, required=True)
        r.unique(f"{at}.name", name, seen, f"two packages are called {name}")
        changes = []
        for where, change in r.rows(row, "changes", at, MAX_SETTINGS_ROWS):
            r.known(change, where, {"kind", "name", "level"})
            changes.append(
                {
                    "kind": r.choice(change, "kind", where, PACKAGE_KINDS, ""),
                    "name": r.text(change, "name", where, 80, required=True),
                    "level": r.integer(change, "level", where, SMALL),
                }
            )
        packages.append(
            {
                "name": name,
                "description": r.text(row, "description", at, 400),
                "points": r.integer(row, "points", at, SMALL),
                "changes": changes,
            }
        )
    return packages


def _ability_marks(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    marks: list[Json] = []
    seen: set[str] = set()
    for at, row in r.rows(data, "ability_marks", "", MAX_SETTINGS_ROWS):
        r.known(row, at, {"ability", "poor", "decent", "great"})
        ability = r.text(row, "ability", at, 80, required=True)
        r.unique(f"{at}.ability", ability, seen, f"{ability} has two sets of marks")
        levels = {key: r.integer(row, key, at, SMALL, default=None) for key in ("poor", "decent")}
        levels["great"] = r.integer(row, "great", at, SMALL, default=None)
        marks.append({"ability": ability, **levels})
    return marks


def _characters(
    r: Reader, data: Mapping[str, Any], ruleset: rulesets.Ruleset | None, *, numbered: bool
) -> list[Json]:
    # An unsaved campaign is enough for read_character: it asks it only for its rules.
    campaign = Campaign(ruleset=ruleset.key, overrides=ruleset.overrides) if ruleset else None
    characters: list[Json] = []
    seen: set[int] = set()
    for index, (at, row) in enumerate(r.rows(data, "characters", "", MAX_CHARACTERS)):
        r.known(row, at, {"ref", "player", "sheet"} if numbered else {"player", "sheet"})
        ref = read_ref(r, row, at, seen, 0 if numbered else index + 1)
        player = row.get("player")
        if player is not None:
            player = r.text(row, "player", at, USERNAME)
        sheet = None
        if campaign is not None:
            sheet, problems = read_character(row.get("sheet"), campaign)
            for problem in problems:
                r.note(f"{at}.sheet.{problem}")
        characters.append({"ref": ref, "player": player, "sheet": sheet})
    return characters
