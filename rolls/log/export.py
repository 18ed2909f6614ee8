"""The roll log as a viewer may take it home: JSON and Markdown, with the same visibility as
the pages. A player gets a secret roll only as "the GM rolled", and nothing of a hidden
difficulty: not the difficulty, the margin, the outcome, nor anything that gives them away."""

import re
from collections.abc import Iterable
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext

from fudgetable import entry_ids
from rolls.entry_words import entry_label
from rolls.fragments import SECRET_TEXT, roll_summary
from rolls.models import Roll

# What a hidden difficulty keeps from players: the difficulty, and everything read from it.
HIDDEN_KEYS = frozenset(
    {
        "difficulty",
        "difficulty_name",
        "margin",
        "outcome",
        "critical",
        "degree",
        "chance",
        "chance_percent",
        "xp_gained",
    }
)
MARKDOWN_SPECIALS = re.compile(r"([\\`*_\[\]<>|~])")  # what turns inline text into markup


def _time(roll: Roll) -> str:
    return timezone.localtime(roll.created_at).isoformat(timespec="seconds")


def visible_roll(roll: Roll, *, gm_view: bool) -> dict[str, Any]:
    """One log entry as JSON, with what this viewer may see and nothing more."""
    session = roll.session.number if roll.session else None
    if roll.secret and not gm_view:
        return {
            "id": entry_ids.encode(roll.pk),
            "time": _time(roll),
            "session": session,
            "text": str(SECRET_TEXT),
        }
    hide = roll.hidden_difficulty and not gm_view
    snapshot = {k: v for k, v in roll.snapshot.items() if not (hide and k in HIDDEN_KEYS)}
    entry: dict[str, Any] = {
        "id": entry_ids.encode(roll.pk),
        "time": _time(roll),
        "session": session,
        "kind": roll.kind,
        "label": entry_label(roll),  # in words; the snapshot says what it tells of
        "roller": _roller(roll),
        "character": roll.character.name if roll.character else None,
        "follows": roll.follows_id and entry_ids.encode(roll.follows_id),
        "hidden_difficulty": roll.hidden_difficulty,
        "succeeded": None if hide else roll.succeeded,
        "snapshot": snapshot,
        "gm_note": roll.gm_note,
    }
    if gm_view:
        entry["visibility"] = roll.visibility
    return entry


def as_json(rolls: Iterable[Roll], *, gm_view: bool, heading: dict[str, Any]) -> dict[str, Any]:
    return {**heading, "rolls": [visible_roll(roll, gm_view=gm_view) for roll in rolls]}


def _md(text: str) -> str:
    """Names and notes are people's words: they must not turn into Markdown."""
    return MARKDOWN_SPECIALS.sub(r"\\\1", " ".join(str(text).split()))


def markdown_line(roll: Roll, *, gm_view: bool) -> str:
    when = timezone.localtime(roll.created_at).strftime("%Y-%m-%d %H:%M")
    where = (
        gettext("Session %(number)s") % {"number": roll.session.number} + " · "
        if roll.session
        else ""
    )
    if roll.secret and not gm_view:
        return f"- {when} · {where}{SECRET_TEXT}"
    notes = []
    if roll.secret:
        notes.append(gettext("secret"))
    if roll.hidden_difficulty:
        notes.append(
            gettext("hidden difficulty") if gm_view else gettext("against a hidden difficulty")
        )
    if "fudge_point_use" in roll.snapshot:
        notes.append(gettext("Fudge point: %(use)s") % {"use": roll.snapshot["fudge_point_use"]})
    if roll.snapshot.get("xp_gained") and (gm_view or not roll.hidden_difficulty):
        notes.append(gettext("+%(xp)s XP for the miss") % {"xp": roll.snapshot["xp_gained"]})
    line = f"- {when} · {where}{_md(roll_summary(roll, gm_view=gm_view))}"
    if notes:
        line += f" ({', '.join(notes)})"
    if roll.gm_note:
        line += "\n  - " + gettext("GM: %(note)s") % {"note": _md(roll.gm_note)}
    return line


def as_markdown(rolls: Iterable[Roll], *, gm_view: bool, title: str, filters: str) -> str:
    lines = ["# " + gettext("Roll log: %(title)s") % {"title": _md(title)}, ""]
    if filters:
        lines += [_md(filters), ""]
    lines += [markdown_line(roll, gm_view=gm_view) for roll in rolls] or [gettext("No rolls.")]
    return "\n".join(lines) + "\n"


def _roller(roll: Roll) -> str | None:
    """Who rolled: nobody for the table's own announcements, and "a former player" for a
    roll whose roller has since deleted their account."""
    if roll.roller is not None:
        return roll.roller.get_username()
    return None if roll.kind == Roll.Kind.ANNOUNCEMENT else "a former player"
