"""A wound marked on a sheet, written in the table's log as a fight's confirmed wound is: a box
tapped or a condition taken, by a GM or by the player themself, is a line in the log and so in
the session's recap ("Wound marked on Louie: Hurt (by the GM, on the sheet)."). Whoever marks
it, a wound is the same news to the table, and players often mark the wound the GM called.

A PC's wounds are the table's to read, as its sheet and the party strip show them to every
member; an NPC's tracks show on no player's screen, so its line is the GMs' alone: a GM-only
announcement, which players never learn exists (``log_selectors.readable``). The line is an
announcement, not a fight's confirmation (an opposed roll following the exchange it confirms):
there is no exchange to follow, and a secret opposed roll would still show players "the GM
rolled".

The sheet belongs to characters, which may not import the table: its track services tell of a
mark by ``characters.signals.track_marked``, inside their transaction, and this writes the line.
A box cleared is a correction, and healing has its own logged actions (``healing``), so only
marks are told."""

import uuid
from collections.abc import Sequence

from django.utils.translation import gettext, ngettext

from campaigns.models import Membership
from campaigns.selectors import table_language
from characters.models import Character
from characters.signals import track_marked
from fudgetable.rules.sheet_tracks import Taken
from rolls.models import Roll
from rolls.services import record_entry


def taken_words(taken: Taken) -> str:
    """One row's marks in the game's words: "Hurt", "Scratch (3 boxes)", "Hurt circled as a
    stun", "Minor: twisted ankle"."""
    words = taken.row
    if taken.names:
        words += ": " + ", ".join(taken.names)
    if taken.stuns:
        if taken.boxes == 1:
            return gettext("%(row)s circled as a stun") % {"row": words}
        circled = ngettext("%(n)d box circled", "%(n)d boxes circled", taken.stuns)
        return f"{words} ({circled % {'n': taken.stuns}})"
    if taken.boxes > 1:
        boxes = gettext("%(n)d boxes") % {"n": taken.boxes}
        return f"{words} ({boxes})"
    return words


def wound_logged(
    *, membership: Membership, character: Character, track: str, taken: Sequence[Taken]
) -> Roll:
    """Writes the line for what ``membership``'s person marked on ``character``'s ``track``,
    pushed to the table's screens as any entry is (GM-only for an NPC)."""
    # Written in the table's language, which the log reads (not redrawn if it changes later).
    with table_language(membership.campaign):
        who = gettext("the GM") if membership.is_gm else membership.user.get_username()
        said = {"name": character.name, "wounds": "; ".join(map(taken_words, taken)), "who": who}
        line = (
            ngettext(
                "Wound marked on %(name)s: %(wounds)s (by %(who)s, on the sheet).",
                "Wounds marked on %(name)s: %(wounds)s (by %(who)s, on the sheet).",
                len(taken),
            )
            % said
        )
    entry, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.ANNOUNCEMENT,
        label=line,
        snapshot={
            "lines": [line],
            "wound": {
                "track": track,
                "taken": [
                    {"row": t.row, "boxes": t.boxes, "stuns": t.stuns, "names": list(t.names)}
                    for t in taken
                ],
                "by_gm": membership.is_gm,
            },
        },
        succeeded=None,
        # A tap that marks nothing new sends nothing, so each line is a mark of its own.
        key=f"sheet-wound-{uuid.uuid4().hex}",
        character=character,
        secret=character.is_npc,
    )
    return entry


def _track_marked(
    sender: object,
    *,
    by: Membership,
    character: Character,
    track: str,
    taken: Sequence[Taken],
    **kwargs: object,
) -> None:
    wound_logged(membership=by, character=character, track=track, taken=taken)


def connect() -> None:
    """Has the table log a wound marked on a sheet (``characters.signals``)."""
    track_marked.connect(_track_marked, dispatch_uid="table-log-sheet-wound")
