"""A log entry's heading in words, made when the entry is drawn (docs/architecture.md,
"Languages").

An entry stores what happened: the snapshot's ``said`` holds a key and the names people typed
(``said("fight", attacker=..., defender=...)``), and ``Roll.label`` only those names. The words
around them are made here, in the language active where the entry is drawn, which for the
table's log is the table's (``campaigns.selectors.table_language``): changing it redraws every
entry in the new one, and nothing stored needs translating. An entry written before (or one a
backup brought back without ``said``) is drawn from its stored label, as it always was.
"""

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.utils.translation import gettext, ngettext, pgettext_lazy

from fudgetable.rules.resolution import Outcome
from fudgetable.rules.sheet_tracks import CONDITION
from fudgetable.rules_words import said as rules_said
from rolls.models import Roll

SAID = "said"  # the snapshot's key

Said = dict[str, Any]


def said(key: str, **names: object) -> Said:
    """What an entry's heading says, for its snapshot: ``key`` and the names it tells of."""
    return {"key": key, **names}


def names(words: Sequence[str]) -> str:
    """The names as a list is said: "Anna", "Anna and Bo", "Anna, Bo and Cy"."""
    if len(words) == 1:
        return words[0]
    return gettext("%(names)s and %(last)s") % {"names": ", ".join(words[:-1]), "last": words[-1]}


# What a roll came to, as its entry says it (a heading's word, and the same within a sentence
# of a summary); the snapshot keeps the rules' value.
OUTCOME_WORDS = {
    Outcome.SUCCESS: pgettext_lazy("outcome", "Success"),
    Outcome.FAILURE: pgettext_lazy("outcome", "Failure"),
    Outcome.TIE: pgettext_lazy("outcome", "Tie"),
    Outcome.DRAW: pgettext_lazy("outcome", "Draw"),
    Outcome.STATUS_QUO: pgettext_lazy("outcome", "Status-quo"),
}
OUTCOME_IN_A_SENTENCE = {
    Outcome.SUCCESS: pgettext_lazy("outcome in a sentence", "success"),
    Outcome.FAILURE: pgettext_lazy("outcome in a sentence", "failure"),
    Outcome.TIE: pgettext_lazy("outcome in a sentence", "tie"),
    Outcome.DRAW: pgettext_lazy("outcome in a sentence", "draw"),
    Outcome.STATUS_QUO: pgettext_lazy("outcome in a sentence", "status-quo"),
}


def outcome_words(outcome: str, *, in_a_sentence: bool = False) -> str:
    """An outcome in the words of the language the entry is drawn in; a value this version
    does not know (a file's) as it was written."""
    words = OUTCOME_IN_A_SENTENCE if in_a_sentence else OUTCOME_WORDS
    try:
        return str(words[Outcome(outcome)])
    except ValueError:
        return str(outcome)


def headline(outcome: str, leaders: Sequence[str]) -> str:
    """A contest of many's result: who won, or what the tie at the top came to (``outcome``
    is the rules' ``Outcome`` value)."""
    if len(leaders) == 1:
        return gettext("%(name)s wins") % {"name": leaders[0]}
    who = {"names": names(leaders)}
    if outcome == Outcome.SUCCESS:
        return gettext("%(names)s share the win") % who
    if outcome == Outcome.DRAW:
        return gettext("%(names)s draw: nobody wins") % who
    if outcome == Outcome.STATUS_QUO:
        return gettext("%(names)s tie: nothing changes") % who
    return gettext("%(names)s tie: nobody wins") % who


def marked_words(marked: Mapping[str, Any]) -> str:
    """One wound a fight's confirmation marked (``rolls.fight.exchange.fight_confirm``), in
    words; an entry written before the words were made here kept its own ``text``."""
    if "text" in marked:
        return str(marked["text"])
    told = {"name": marked["name"], "wound": marked["wound"], "marked": marked.get("marked")}
    if marked.get("gone"):
        return gettext("%(name)s: %(wound)s, but they are no longer at the table") % told
    boxes, overflow, stun = marked["boxes"], marked["overflow"], marked.get("stun")
    if stun and not boxes and not overflow:
        return gettext("%(name)s: %(wound)s as a stun, which has no effect") % told
    condition = marked.get("track") == CONDITION
    if stun and not condition and not overflow:
        return gettext("%(name)s: %(marked)s circled as a stun") % told
    if condition:
        told["boxes"] = ngettext("%(n)d box", "%(n)d boxes", boxes) % {"n": boxes}
        if overflow:
            return gettext("%(name)s: %(wound)s (%(boxes)s, and the track is full)") % told
        return gettext("%(name)s: %(wound)s (%(boxes)s)") % told
    if overflow:
        return (
            gettext("%(name)s: %(wound)s, but no box is free at or above it (the GM rules)") % told
        )
    if marked.get("marked") != marked["wound"]:
        return (
            gettext("%(name)s: %(wound)s, marked as %(marked)s (the %(wound)s boxes are full)")
            % told
        )
    return gettext("%(name)s: %(wound)s") % told


def _fudge_point(said: Said, roll: Roll) -> str:
    on = said.get("on")
    label = _heading(on, roll) if isinstance(on, dict) else None
    return gettext("%(label)s (Fudge point)") % {"label": label or said["label"]}


def _wounds_marked(said: Said, roll: Roll) -> str:
    marked = roll.snapshot["marked"]
    words = "; ".join(marked_words(m) for m in marked)
    return ngettext("Wound marked on %(words)s", "Wounds marked on %(words)s", len(marked)) % {
        "words": words
    }


def _contest_many(said: Said, roll: Roll) -> str:
    words = headline(said["outcome"], said["leaders"])
    if not said.get("label"):
        return words
    return gettext("%(label)s: %(headline)s") % {"label": said["label"], "headline": words}


HEADINGS: dict[str, Callable[[Said, Roll], str]] = {
    "contest": lambda s, r: gettext("%(active)s vs %(passive)s") % s,
    "fudge-point": _fudge_point,
    "coincidence": lambda s, r: gettext("%(name)s spends a Fudge point: %(text)s") % s,
    "coincidence-allowed": lambda s, r: gettext("The GM allows it: %(note)s") % {"note": s["text"]},
    "fight": lambda s, r: gettext("Fight: %(attacker)s vs %(defender)s") % s,
    "shot": lambda s, r: gettext("Shot: %(shooter)s at %(target)s") % s,
    "manoeuvre": lambda s, r: gettext("Manoeuvre: %(name)s after an All-Out Defense") % s,
    "wounds-marked": _wounds_marked,
    "contest-many": _contest_many,
    "situational": lambda s, r: gettext("Situational roll"),
    "reaction": lambda s, r: gettext("Reaction roll"),
}


def _heading(said: Said, roll: Roll) -> str | None:
    heading = HEADINGS.get(str(said.get("key")))
    if heading is None:
        return None
    try:
        return heading(said, roll)
    except (KeyError, TypeError, ValueError, AttributeError):
        return None  # a restored backup's entry may say what no heading reads: its label shows


def _outcome_after(sentence: str, s: Said) -> str:
    """A countdown's or a challenge's last words, then what the GM wrote happens (as written)."""
    return sentence + (f" {s['outcome']}" if s.get("outcome") else "")


# The table's own lines (``rolls.services.roll_announce``): a key and the names in each, drawn
# here like an entry's heading. What a GM wrote (a title, an event, an outcome) stays theirs.
LINES: dict[str, Callable[[Said], str]] = {
    "scene-shown": lambda s: gettext("Scene: %(title)s") % s,
    "scene-cleared": lambda s: gettext("The scene is cleared."),
    "party-stands": lambda s: gettext("The party stands at %(area)s.") % s,
    "pcs-stand": lambda s: (
        ngettext("%(names)s stands at %(area)s.", "%(names)s stand at %(area)s.", s["count"])
        % {"names": s["names"], "area": s["area"]}
    ),
    "card": lambda s: gettext("Card: %(title)s") % s,
    "card-everyone": lambda s: gettext("Card shown to everyone: %(title)s") % s,
    "card-some": lambda s: gettext("Card shown to %(people)s: %(title)s") % s,
    "event": lambda s: (
        gettext("%(name)s: %(event)s") % {"name": s["name"], "event": rules_said(s["event"])}
    ),
    "countdown-complete": lambda s: _outcome_after(gettext("%(name)s is complete.") % s, s),
    "countdown-succeeded": lambda s: _outcome_after(gettext("%(name)s succeeded.") % s, s),
    "countdown-failed": lambda s: _outcome_after(gettext("%(name)s failed.") % s, s),
    "challenge-ruined": lambda s: gettext("%(name)s is ruined.") % s,
    "challenge-complete": lambda s: _outcome_after(gettext("%(name)s is complete.") % s, s),
    "time-passes-once": lambda s: gettext("Time passes: one %(period)s.") % s,
    # The period is the GM's own words ("significant moment of play"): no plural is made.
    "time-passes": lambda s: gettext("Time passes: %(periods)s × %(period)s.") % s,  # noqa: RUF001
    "boxes-lost": lambda s: (
        ngettext(
            "%(name)s loses %(count)s box: nobody pursued it.",
            "%(name)s loses %(count)s boxes: nobody pursued it.",
            s["count"],
        )
        % s
    ),
    "pursued": lambda s: gettext("%(name)s was pursued and keeps its boxes.") % s,
    "healed": lambda s: _healed(s),
    "care-no-help": lambda s: _care(
        gettext("Medical care by %(healer)s: a %(result)s result does not help %(who)s"), s
    ),
    "care-waits": lambda s: _care(
        gettext("Medical care by %(healer)s: %(who)s waits, with no free box one level down"), s
    ),
    "care-heals": lambda s: _care(gettext("Medical care by %(healer)s: %(who)s heals"), s),
    "care-now": lambda s: _care(gettext("Medical care by %(healer)s: %(who)s is now %(to)s"), s),
    "care-new-week": lambda s: gettext("A new week of medical care begins for %(name)s.") % s,
}


def _healed(s: Said) -> str:
    """A healing action from the sheet: "Dorothy: A week of rest (Wounds): 2 boxes taken, now
    2." The action's and the track's names are the rules' (a track a GM renamed, theirs)."""
    told = {"name": s["name"], "action": rules_said(s["action"]), "track": rules_said(s["track"])}
    if s.get("unchanged"):
        return gettext("%(name)s: %(action)s (%(track)s): nothing to heal.") % told
    words = ngettext(
        "%(name)s: %(action)s (%(track)s): %(before)s box taken, now %(after)s.",
        "%(name)s: %(action)s (%(track)s): %(before)s boxes taken, now %(after)s.",
        s["before"],
    )
    return words % {**told, "before": s["before"], "after": s["after"]}


def _care(sentence: str, s: Said) -> str:
    """Medical care's line: the healer, the patient's wound, what came of it, and the hospital's
    bonus if there was one."""
    wound = gettext("%(patient)s's %(level)s wound") % {
        "patient": s["patient"],
        "level": rules_said(s["level"]),
    }
    told = {**s, "who": wound, "to": rules_said(s["to"]) if s.get("to") else ""}
    line = sentence % told
    if s.get("hospital"):
        line += " " + gettext("(in a hospital, +%(bonus)s)") % {"bonus": s["hospital"]}
    return line + "."


def line_words(line: object) -> str | None:
    """One line of an announcement in the active language; None for one no key here reads."""
    if isinstance(line, str):
        return line  # written before the lines kept their keys
    if not isinstance(line, dict) or str(line.get("key")) not in LINES:
        return None
    try:
        return LINES[str(line["key"])](line)
    except (KeyError, TypeError, ValueError):
        return None


def lines_words(lines: Sequence[object]) -> str | None:
    """An announcement's lines, one after the other, or None if one cannot be read."""
    drawn = [line_words(line) for line in lines]
    return None if any(words is None for words in drawn) else " ".join(map(str, drawn))


def entry_label(roll: Roll) -> str:
    """The entry's heading in the active language: "Fight: Louie vs Rocco"; "Louie: Stealth"
    (a check's is the names alone); an announcement's lines. The stored label when the entry
    says nothing more."""
    snapshot = roll.snapshot if isinstance(roll.snapshot, dict) else {}
    lines = snapshot.get("lines") if roll.kind == Roll.Kind.ANNOUNCEMENT else None
    if isinstance(lines, list) and any(isinstance(line, dict) for line in lines):
        return lines_words(lines) or roll.label
    said = snapshot.get(SAID)
    words = _heading(said, roll) if isinstance(said, dict) else None
    return roll.label if words is None else words
