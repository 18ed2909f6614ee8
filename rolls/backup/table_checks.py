"""The table's part of a campaign backup: its sessions with their spotlight, countdowns,
challenges and the log, each checked as ``backup_checks`` checks the rest (refs, pointers and
times are read by ``fudgetable.json_reader``).
"""

import json
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from characters.limits import MAX_XP
from fudgetable.json_reader import USERNAME, Json, Reader, read_pointer, read_ref, read_time
from fudgetable.rules import challenges as ladder_rules
from fudgetable.rules.errors import RulesError
from rolls.challenges.services import MAX_MOS, MAX_RUNG_BOXES, MAX_RUNGS, NAME_LENGTH
from rolls.countdowns.services import MAX_BOXES, MAX_STAGES
from rolls.models import Challenge, Countdown, Roll

MAX_CHARACTERS = 1000
MAX_SESSIONS = 2000
MAX_SPANS = 500  # spotlight spans in one session
MAX_COUNTDOWNS = 1000
MAX_CHALLENGES = 1000
MAX_LOG = 50_000
MAX_SNAPSHOT = 20_000  # characters of one log entry's snapshot as JSON; a fight's is ~2,000

COUNTDOWN_KEYS = frozenset(
    {"ref", "name", "boxes", "marked", "outcome", "visibility", "failure"}
    | {"stages", "announced", "completed_at", "created_at"}
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
        "whisper_to",
    }
)
MAX_WHISPERED = 100  # people one whispered entry names


def read_sessions(r: Reader, data: Mapping[str, Any], characters: set[int]) -> list[Json]:
    sessions: list[Json] = []
    numbers: set[int | None] = set()
    running = 0
    for at, row in r.rows(data, "sessions", "", MAX_SESSIONS):
        r.known(row, at, {"number", "started_at", "ended_at", "xp_awarded", "spotlight"})
        number = r.integer(row, "number", at, (1, 10**6), default=None)
        r.unique(f"{at}.number", number, numbers, f"two sessions are number {number}")
        started = read_time(r, row, "started_at", at)
        ended = read_time(r, row, "ended_at", at, nullable=True)
        running += ended is None
        if started and ended and ended < started:
            r.add(f"{at}.ended_at", "is before the session started")
        spans = []
        for where, span in r.rows(row, "spotlight", at, MAX_SPANS):
            r.known(span, where, {"character", "started_at", "ended_at"})
            spans.append(
                {
                    "character": read_pointer(
                        r, span, "character", where, characters, "character", required=True
                    ),
                    "started_at": read_time(r, span, "started_at", where),
                    "ended_at": read_time(r, span, "ended_at", where, nullable=True),
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
        if len(name) > 120:
            r.add(f"{at}.xp_awarded", "holds a name no character could have")
        if isinstance(xp, bool) or not isinstance(xp, int) or not 0 <= xp <= MAX_XP:
            r.add(f"{at}.xp_awarded.{name[:120]}", f"must be a whole number, 0 to {MAX_XP}")
    return value


def read_countdowns(r: Reader, data: Mapping[str, Any]) -> list[Json]:
    rows = r.rows(data, "countdowns", "", MAX_COUNTDOWNS)
    refs: set[int] = set()
    countdowns: list[Json] = [{"ref": read_ref(r, row, at, refs, 0)} for at, row in rows]
    failures: set[int] = set()
    for (at, row), countdown in zip(rows, countdowns, strict=True):
        r.known(row, at, COUNTDOWN_KEYS)
        boxes = r.integer(row, "boxes", at, (1, MAX_BOXES), default=None)
        failure = read_pointer(r, row, "failure", at, refs - {countdown["ref"]}, "other countdown")
        if failure is not None and failure in failures:
            r.add(f"{at}.failure", "is already another countdown's failure")
        failures.add(failure or 0)
        countdown |= {
            "name": r.text(row, "name", at, 120, required=True),
            "boxes": boxes,
            "marked": r.integer(row, "marked", at, (0, boxes or MAX_BOXES)),
            "outcome": r.text(row, "outcome", at, 300),
            **_stages(r, row, at, boxes),
            "visibility": r.choice(row, "visibility", at, Countdown.Visibility.values, "public"),
            "failure": failure,
            "completed_at": read_time(r, row, "completed_at", at, nullable=True),
            "created_at": read_time(r, row, "created_at", at),
        }
    return countdowns


def _stages(r: Reader, row: Mapping[str, Any], at: str, boxes: int | None) -> Json:
    """A countdown's events at boxes before its last, as the GM's form keeps them; a backup
    made before countdowns had them has none."""
    stages = []
    for where, stage in r.rows(row, "stages", at, MAX_STAGES):
        r.known(stage, where, {"at", "event"})
        box = r.integer(stage, "at", where, (1, (boxes or MAX_BOXES) - 1), default=None)
        stages.append({"at": box, "event": r.text(stage, "event", where, 300, required=True)})
    boxes_at = [stage["at"] for stage in stages if isinstance(stage["at"], int)]
    if len(boxes_at) == len(stages) and boxes_at != sorted(set(boxes_at)):
        r.add(f"{at}.stages", "one event a box, in box order")
    most = len(stages)
    return {"stages": stages, "announced": r.integer(row, "announced", at, (0, most))}


def read_challenges(r: Reader, data: Mapping[str, Any]) -> list[Json]:
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
        else:
            _ladder_bounds(r, at, shape)
        challenges.append(
            {
                "name": r.text(row, "name", at, 120, required=True),
                "ladder": ladder,
                "state": state,
                "notes": r.text(row, "notes", at, 2000),
                "visibility": r.choice(
                    row, "visibility", at, Challenge.Visibility.values, "public"
                ),
                "created_at": read_time(r, row, "created_at", at),
            }
        )
    return challenges


def _ladder_bounds(r: Reader, at: str, ladder: ladder_rules.ChallengeLadder) -> None:
    """The bounds the GM's challenge form keeps: the table draws every box of every rung."""
    if len(ladder.rungs) > MAX_RUNGS:
        r.add(f"{at}.ladder.rungs", f"a challenge has at most {MAX_RUNGS} rungs")
    for index, rung in enumerate(ladder.rungs):
        if not 1 <= rung.boxes <= MAX_RUNG_BOXES or rung.mos > MAX_MOS:
            r.add(
                f"{at}.ladder.rungs[{index}]",
                f"a rung has 1 to {MAX_RUNG_BOXES} boxes and a margin of 0 to {MAX_MOS}",
            )
    if len(json.dumps(ladder.to_dict())) > MAX_SNAPSHOT or len(ladder.name) > NAME_LENGTH:
        r.add(f"{at}.ladder", "is far larger than any challenge")


def read_log(
    r: Reader, data: Mapping[str, Any], characters: set[int], sessions: set[int]
) -> list[Json]:
    """The log as it was written: each entry after the one before it in time, and following
    (a Fudge point's reroll, a fight's confirmation) only an entry already in the log."""
    log: list[Json] = []
    refs: set[int] = set()
    previous: datetime | None = None
    for at, row in r.rows(data, "log", "", MAX_LOG):
        r.known(row, at, LOG_KEYS)
        ref = read_ref(r, row, at, refs, 0)
        time = read_time(r, row, "time", at)
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
                "session": read_pointer(r, row, "session", at, sessions, "session"),
                "roller": r.text(row, "roller", at, USERNAME) if row.get("roller") else None,
                "character": read_pointer(r, row, "character", at, characters, "character"),
                # Not ``refs - {ref}``: a copy of the set an entry made a long log's check
                # take seconds.
                "follows": read_pointer(r, row, "follows", at, refs, "earlier log entry", but=ref),
                "kind": r.choice(row, "kind", at, Roll.Kind.values, ""),
                "visibility": r.choice(row, "visibility", at, Roll.Visibility.values, "table"),
                "hidden_difficulty": r.flag(row, "hidden_difficulty", at),
                # An untitled entry whose snapshot says its heading keeps no label (entry_words).
                "label": r.text(row, "label", at, 200, required=not _says_heading(row)),
                "snapshot": _snapshot(r, row, at),
                "succeeded": succeeded if isinstance(succeeded, bool) else None,
                "gm_note": r.text(row, "gm_note", at, 500),
                # A whisper's people, by username; who of them is here reads it once restored.
                "whisper_to": r.texts(row, "whisper_to", at, MAX_WHISPERED, USERNAME),
            }
        )
    return log


def _says_heading(row: Mapping[str, Any]) -> bool:
    snapshot = row.get("snapshot")
    return isinstance(snapshot, dict) and isinstance(snapshot.get("said"), dict)


def _snapshot(r: Reader, row: Mapping[str, Any], at: str) -> Json:
    """What the entry showed when it was rolled. Its shape is the roll's own, so it is held
    to size here (its texts to the input rule with the rest of the file, ``Reader.clean``),
    and ``restore`` checks that each entry still shows."""
    value = row.get("snapshot")
    if not isinstance(value, dict):
        r.add(f"{at}.snapshot", "must be an object")
        return {}
    if len(json.dumps(value)) > MAX_SNAPSHOT:
        r.add(f"{at}.snapshot", f"must be at most {MAX_SNAPSHOT} characters as JSON")
    return value
