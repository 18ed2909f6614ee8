"""What a session's log holds, counted as the recap says it: the rolls (``Roll.is_roll``), the
wounds marked, the Fudge points spent, what people said and the table's other lines, each
apart, so that three chat lines never read as three rolls. Counted from the entries the reader
may read, so the count tells nobody of a line kept from them."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.utils.translation import ngettext

from rolls.models import Roll


@dataclass(frozen=True)
class Tally:
    rolls: int = 0
    wounds: int = 0
    fudge_points: int = 0
    messages: int = 0
    lines: int = 0

    def said(self) -> list[str]:
        """The rolls, and each other count that is not nothing, in words: "0 rolls",
        "2 rolls · 3 messages"."""
        counts = (
            (self.rolls, ngettext("%(n)d roll", "%(n)d rolls", self.rolls)),
            (self.wounds, ngettext("%(n)d wound marked", "%(n)d wounds marked", self.wounds)),
            (
                self.fudge_points,
                ngettext("%(n)d Fudge point spent", "%(n)d Fudge points spent", self.fudge_points),
            ),
            (self.messages, ngettext("%(n)d message", "%(n)d messages", self.messages)),
            (self.lines, ngettext("%(n)d other line", "%(n)d other lines", self.lines)),
        )
        return [words % {"n": n} for at, (n, words) in enumerate(counts) if n or not at]


def wounds_in(entry: Roll) -> int:
    """The wounds an entry marked: a fight's confirmation, one per fighter it marked; a wound
    marked from a sheet (``rolls.fight.sheet_wounds``), one."""
    if "confirms" in entry.snapshot:
        return len(entry.snapshot.get("marked", []))
    return int("wound" in entry.snapshot and entry.kind == Roll.Kind.ANNOUNCEMENT)


def tally(entries: Iterable[Roll]) -> Tally:
    rolls = wounds = fudge_points = messages = lines = 0
    for entry in entries:
        if entry.is_roll:
            rolls += 1
        elif wounded := wounds_in(entry):
            wounds += wounded
        elif entry.kind == Roll.Kind.FUDGE_POINT:
            fudge_points += 1
        elif entry.kind == Roll.Kind.MESSAGE:
            messages += 1
        else:
            lines += 1
    return Tally(rolls, wounds, fudge_points, messages, lines)
