"""A message in the log, as data: what its entry's snapshot holds, and the one line that says
it in plain words (the log's export, the recap's summary, a screen reader, a webhook).

A message is a log entry (``Roll.Kind.MESSAGE``), append-only like a roll: said as one of
the speaker's characters or as themselves (out of character), an emote, or a whisper that
only its people read (``Roll.Visibility.WHISPER``, ``Whispered``)."""

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext

from fudgetable.rules.dice_words import Style

LABEL_LENGTH = 200  # Roll.label's


def message_snapshot(
    *,
    text: str,
    style: Style,
    speaker: str,
    to: Sequence[str] = (),
    people: Mapping[str, int] | None = None,
) -> dict[str, Any]:
    """``speaker``: the character's name, or the person's own for out of character; ``to``:
    a whisper's people as the log names them; ``people``: whom it mentions ({name: id})."""
    snapshot: dict[str, Any] = {"text": text, "style": style, "speaker": speaker}
    if to:
        snapshot["to"] = list(to)
    if people:
        snapshot["people"] = dict(people)
    return snapshot


def message_line(snapshot: Mapping[str, Any]) -> str:
    """The message in one line of plain words: 'Louie: "Run!"', "* Louie runs",
    "alice (out of character): brb", "alice to bob (whisper): psst"."""
    text = " ".join(str(snapshot["text"]).split())
    speaker = str(snapshot["speaker"])
    to = ", ".join(str(name) for name in snapshot.get("to", ()))
    if snapshot["style"] == "emote":
        line = f"* {speaker} {text}"
    elif snapshot["style"] == "ooc":
        line = gettext("%(speaker)s (out of character): %(text)s") % {
            "speaker": speaker,
            "text": text,
        }
    else:
        line = f"{speaker}: “{text}”"
    if to:
        line = gettext("%(line)s (whispered to %(to)s)") % {"line": line, "to": to}
    return line


def message_label(snapshot: Mapping[str, Any]) -> str:
    return message_line(snapshot)[:LABEL_LENGTH]
