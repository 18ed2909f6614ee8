"""The checks a campaign backup must pass before ``restore`` saves any of it.

``read_backup`` reads the file part by part and notes every problem with where it is
("log[12].follows: ..."), so a GM sees them all at once; each sheet is checked by the
character import's own ``read_character`` against the backup's rules. It reads both
versions: ``fudgetable.campaign/1`` (settings, people and sheets) and ``/2``, which adds the
sessions, the log, the countdowns and the challenges.
"""

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from campaigns.models import Campaign, Membership, SessionZero
from campaigns.services import GM_MOVE_LENGTH, GM_MOVES_MAX
from characters.exchange_checks import read_character
from characters.limits import MAX_XP
from characters.services.extras import PACKAGE_KINDS
from fudgetable.json_reader import CONTROL, CONTROL_PROBLEM, SMALL, Json, Reader
from fudgetable.rules import challenges as ladder_rules
from fudgetable.rules import rulesets
from fudgetable.rules.errors import RulesError
from rolls.backup import SCHEMA
from rolls.countdowns import MAX_BOXES
from rolls.models import Challenge, Countdown, Roll

SCHEMA_1 = "fudgetable.campaign/1"
SCHEMAS = (SCHEMA_1, SCHEMA)

# Limits that keep one file from filling the database; a long campaign stays far below them.
MAX_MEMBERS = 200
MAX_SETTINGS_ROWS = 100  # people packages, ability marks, the changes of one package
MAX_CHARACTERS = 1000
MAX_SESSIONS = 2000
MAX_SPANS = 500  # spotlight spans in one session
MAX_COUNTDOWNS = 1000
MAX_CHALLENGES = 1000
MAX_LOG = 50_000
MAX_SNAPSHOT = 20_000  # characters of one log entry's snapshot as JSON; a fight's is ~2,000
USERNAME = 150

TOP_KEYS = frozenset(
    {
        "schema",
        "exported_at",
        "name",
        "pitch",
        "ruleset",
        "overrides",
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
    }
)
COUNTDOWN_KEYS = frozenset(
    {"ref", "name", "boxes", "marked", "outcome", "visibility", "failure"}
    | {"completed_at", "created_at"}
)
LOG_KEYS = frozenset(
    {
        "ref",
        "time",
        "session",
        "roller",
        "character",
        "follows",
        "kind",
        "visibility",
        "hidden_difficulty",
        "label",
        "snapshot",
        "succeeded",
        "gm_note",
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
    r.known(data, "", TOP_KEYS if schema == SCHEMA else TOP_KEYS - {"gm_moves"})
    ruleset = _ruleset(r, data)
    backup: Json = {
        "name": r.text(data, "name", "", 120, required=True),
        "pitch": r.text(data, "pitch", "", 4000),
        "ruleset": ruleset.key if ruleset else None,
        "overrides": ruleset.overrides if ruleset else {},
        "archived": r.flag(data, "archived", ""),
        "gm_moves": _texts(r, data, "gm_moves", GM_MOVES_MAX, GM_MOVE_LENGTH),
        "session_zero": _session_zero(r, data),
        "members": _members(r, data),
        "people_packages": _packages(r, data),
        "ability_marks": _ability_marks(r, data),
    }
    r.text(data, "owner", "", USERNAME)
    backup["characters"] = _characters(r, data, ruleset, numbered=schema == SCHEMA)
    refs = {entry["ref"] for entry in backup["characters"]}
    backup["sessions"] = _sessions(r, data, refs)
    backup["countdowns"] = _countdowns(r, data)
    backup["challenges"] = _challenges(r, data)
    numbers = {session["number"] for session in backup["sessions"]}
    backup["log"] = _log(r, data, refs, numbers)
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


def _texts(r: Reader, d: Mapping[str, Any], key: str, most: int, length: int) -> list[str]:
    value = d.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        r.add(key, "must be a list of text")
        return []
    if len(value) > most:
        r.add(key, f"holds at most {most} entries (it has {len(value)})")
    for index, text in enumerate(value):
        if len(text) > length:
            r.add(f"{key}[{index}]", f"must be at most {length} characters")
        if CONTROL.search(text):
            r.add(f"{key}[{index}]", CONTROL_PROBLEM)
    return value


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
    members, seen = [], set()
    for at, row in r.rows(data, "members", "", MAX_MEMBERS):
        r.known(row, at, {"username", "role"})
        username = r.text(row, "username", at, USERNAME, required=True)
        role = r.choice(row, "role", at, Membership.Role.values, "")
        if username in seen:
            r.add(f"{at}.username", f"{username} is listed twice")
        seen.add(username)
        members.append({"username": username, "role": role})
    return members


def _packages(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    packages, seen = [], set()
    for at, row in r.rows(data, "people_packages", "", MAX_SETTINGS_ROWS):
        r.known(row, at, {"name", "description", "changes", "points"})
        name = r.text(row, "name", at, 80, required=True)
        if name in seen:
            r.add(f"{at}.name", f"two packages are called {name}")
        seen.add(name)
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
    marks, seen = [], set()
    for at, row in r.rows(data, "ability_marks", "", MAX_SETTINGS_ROWS):
        r.known(row, at, {"ability", "poor", "decent", "great"})
        ability = r.text(row, "ability", at, 80, required=True)
        if ability in seen:
            r.add(f"{at}.ability", f"{ability} has two sets of marks")
        seen.add(ability)
        levels = {key: r.integer(row, key, at, SMALL, default=None) for key in ("poor", "decent")}
        levels["great"] = r.integer(row, "great", at, SMALL, default=None)
        marks.append({"ability": ability, **levels})
    return marks


def _ref(r: Reader, row: Mapping[str, Any], at: str, seen: set[int], fallback: int) -> int:
    """A row's ref: a whole number no other row of its list has (``fallback`` when the
    file is of version 1, which numbers nothing)."""
    ref = r.integer(row, "ref", at, (1, 10**9), default=None) if fallback == 0 else fallback
    if ref is not None and ref in seen:
        r.add(f"{at}.ref", f"another entry is also {ref}")
    seen.add(ref or 0)
    return ref or 0


def _characters(
    r: Reader, data: Mapping[str, Any], ruleset: rulesets.Ruleset | None, *, numbered: bool
) -> list[Json]:
    # An unsaved campaign is enough for read_character: it asks it only for its rules.
    campaign = Campaign(ruleset=ruleset.key, overrides=ruleset.overrides) if ruleset else None
    characters: list[Json] = []
    seen: set[int] = set()
    for index, (at, row) in enumerate(r.rows(data, "characters", "", MAX_CHARACTERS)):
        r.known(row, at, {"ref", "player", "sheet"} if numbered else {"player", "sheet"})
        ref = _ref(r, row, at, seen, 0 if numbered else index + 1)
        player = row.get("player")
        if player is not None:
            player = r.text(row, "player", at, USERNAME)
        sheet = None
        if campaign is not None:
            sheet, problems = read_character(row.get("sheet"), campaign)
            r.problems.extend(f"{at}.sheet.{problem}" for problem in problems)
        characters.append({"ref": ref, "player": player, "sheet": sheet})
    return characters


def _time(
    r: Reader, d: Mapping[str, Any], key: str, at: str, *, nullable: bool = False
) -> datetime | None:
    """A time with its offset, as the backup writes it ("2026-11-24T20:15:00+00:00")."""
    value = d.get(key)
    if value is None and nullable:
        return None
    try:
        moment = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        moment = None
    if moment is None or moment.tzinfo is None:
        r.add(f"{at}.{key}", "must be a time with its offset, as 2026-11-24T20:15:00+00:00")
    return moment


def _sessions(r: Reader, data: Mapping[str, Any], characters: set[int]) -> list[Json]:
    sessions, numbers, running = [], set(), 0
    for at, row in r.rows(data, "sessions", "", MAX_SESSIONS):
        r.known(row, at, {"number", "started_at", "ended_at", "xp_awarded", "spotlight"})
        number = r.integer(row, "number", at, (1, 10**6), default=None)
        if number in numbers:
            r.add(f"{at}.number", f"two sessions are number {number}")
        numbers.add(number)
        started = _time(r, row, "started_at", at)
        ended = _time(r, row, "ended_at", at, nullable=True)
        running += ended is None
        if started and ended and ended < started:
            r.add(f"{at}.ended_at", "is before the session started")
        spans = []
        for where, span in r.rows(row, "spotlight", at, MAX_SPANS):
            r.known(span, where, {"character", "started_at", "ended_at"})
            spans.append(
                {
                    "character": _pointer(
                        r, span, "character", where, characters, "character", required=True
                    ),
                    "started_at": _time(r, span, "started_at", where),
                    "ended_at": _time(r, span, "ended_at", where, nullable=True),
                }
            )
        sessions.append(
            {
                "number": number,
                "started_at": started,
                "ended_at": ended,
                "xp_awarded": _xp_awarded(r, row, at),
                "spotlight": spans,
            }
        )
    if running > 1:
        r.add("sessions", "at most one session is running (has no ended_at)")
    return sessions


def _xp_awarded(r: Reader, row: Mapping[str, Any], at: str) -> dict[str, int]:
    value = row.get("xp_awarded", {})
    if not isinstance(value, dict) or len(value) > MAX_CHARACTERS:
        r.add(f"{at}.xp_awarded", "must map each character's name to the XP it got")
        return {}
    for name, xp in value.items():
        if len(name) > 120 or CONTROL.search(name):
            r.add(f"{at}.xp_awarded", "holds a name no character could have")
        if isinstance(xp, bool) or not isinstance(xp, int) or not 0 <= xp <= MAX_XP:
            r.add(f"{at}.xp_awarded.{name[:120]}", f"must be a whole number, 0 to {MAX_XP}")
    return value


def _pointer(
    r: Reader,
    d: Mapping[str, Any],
    key: str,
    at: str,
    refs: set[int],
    what: str,
    *,
    required: bool = False,
) -> int | None:
    """A ref to another part of the file, or null; one to nothing is reported."""
    value = d.get(key)
    if value is None:
        if required:
            r.add(f"{at}.{key}", f"must name a {what} of this backup")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in refs:
        r.add(f"{at}.{key}", f"names no {what} of this backup")
        return None
    return value


def _countdowns(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    rows = r.rows(data, "countdowns", "", MAX_COUNTDOWNS)
    refs: set[int] = set()
    countdowns: list[Json] = [{"ref": _ref(r, row, at, refs, 0)} for at, row in rows]
    failures: set[int] = set()
    for (at, row), countdown in zip(rows, countdowns, strict=True):
        r.known(row, at, COUNTDOWN_KEYS)
        boxes = r.integer(row, "boxes", at, (1, MAX_BOXES), default=None)
        failure = _pointer(r, row, "failure", at, refs - {countdown["ref"]}, "other countdown")
        if failure is not None and failure in failures:
            r.add(f"{at}.failure", "is already another countdown's failure")
        failures.add(failure or 0)
        countdown |= {
            "name": r.text(row, "name", at, 120, required=True),
            "boxes": boxes,
            "marked": r.integer(row, "marked", at, (0, boxes or MAX_BOXES)),
            "outcome": r.text(row, "outcome", at, 300),
            "visibility": r.choice(row, "visibility", at, Countdown.Visibility.values, "public"),
            "failure": failure,
            "completed_at": _time(r, row, "completed_at", at, nullable=True),
            "created_at": _time(r, row, "created_at", at),
        }
    return countdowns


def _challenges(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    challenges = []
    for at, row in r.rows(data, "challenges", "", MAX_CHALLENGES):
        r.known(row, at, {"name", "ladder", "state", "notes", "visibility", "created_at"})
        ladder: Json | None = None
        state: Json | None = None
        try:
            shape = ladder_rules.ChallengeLadder.from_dict(row.get("ladder"))
            marks = ladder_rules.ChallengeState.from_dict(row.get("state"))
            ladder_rules.is_done(shape, marks)  # checks the marks against the rungs
            ladder, state = shape.to_dict(), marks.to_dict()
        except RulesError as error:
            r.add(f"{at}.{error.setting}", error.message)
        if ladder is not None and len(json.dumps(ladder)) > MAX_SNAPSHOT:
            r.add(f"{at}.ladder", "is far larger than any challenge")
        challenges.append(
            {
                "name": r.text(row, "name", at, 120, required=True),
                "ladder": ladder,
                "state": state,
                "notes": r.text(row, "notes", at, 2000),
                "visibility": r.choice(
                    row, "visibility", at, Challenge.Visibility.values, "public"
                ),
                "created_at": _time(r, row, "created_at", at),
            }
        )
    return challenges


def _log(
    r: Reader, data: Mapping[str, Any], characters: set[int], sessions: set[int]
) -> list[Json]:
    """The log as it was written: each entry after the one before it in time, and following
    (a Fudge point's reroll, a fight's confirmation) only an entry already in the log."""
    log: list[Json] = []
    refs: set[int] = set()
    previous: datetime | None = None
    for at, row in r.rows(data, "log", "", MAX_LOG):
        r.known(row, at, LOG_KEYS)
        ref = _ref(r, row, at, refs, 0)
        time = _time(r, row, "time", at)
        if time and previous and time < previous:
            r.add(f"{at}.time", "is before the entry above it: the log is kept in time order")
        previous = time or previous
        succeeded = row.get("succeeded")
        if succeeded is not None and not isinstance(succeeded, bool):
            r.add(f"{at}.succeeded", "must be true, false or null")
        log.append(
            {
                "ref": ref,
                "time": time,
                "session": _pointer(r, row, "session", at, sessions, "session"),
                "roller": r.text(row, "roller", at, USERNAME) if row.get("roller") else None,
                "character": _pointer(r, row, "character", at, characters, "character"),
                "follows": _pointer(r, row, "follows", at, refs - {ref}, "earlier log entry"),
                "kind": r.choice(row, "kind", at, Roll.Kind.values, ""),
                "visibility": r.choice(row, "visibility", at, Roll.Visibility.values, "table"),
                "hidden_difficulty": r.flag(row, "hidden_difficulty", at),
                "label": r.text(row, "label", at, 200, required=True),
                "snapshot": _snapshot(r, row, at),
                "succeeded": succeeded if isinstance(succeeded, bool) else None,
                "gm_note": r.text(row, "gm_note", at, 500),
            }
        )
    return log


def _snapshot(r: Reader, row: Mapping[str, Any], at: str) -> Json:
    """What the entry showed when it was rolled. Its shape is the roll's own, so it is held
    to size and clean text here, and ``restore`` checks that each entry still shows."""
    value = row.get("snapshot")
    if not isinstance(value, dict):
        r.add(f"{at}.snapshot", "must be an object")
        return {}
    if len(json.dumps(value)) > MAX_SNAPSHOT:
        r.add(f"{at}.snapshot", f"must be at most {MAX_SNAPSHOT} characters as JSON")
    elif any(CONTROL.search(text) for text in _texts_inside(value)):
        r.add(f"{at}.snapshot", CONTROL_PROBLEM)
    return value


def _texts_inside(value: object) -> list[str]:
    """Every key and text in a JSON value, walked without recursion (the file chose its
    depth)."""
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            found.extend(str(key) for key in item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found
