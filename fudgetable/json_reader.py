"""Reading a JSON document that people may have edited by hand: field by field, noting every
problem with where it is ("traits[3].level: ..."), so a file can be fixed in one go.

Shared by the character import and the campaign restore; it knows JSON and the database's
limits, not what a sheet or a campaign is.
"""

from collections.abc import Collection, Mapping
from datetime import datetime
from typing import Any

from django.utils.translation import gettext

from fudgetable.input_rule import json_problems

Json = dict[str, Any]

# A key named ``id`` or ``pk`` is ignored wherever it appears: an import never trusts ids.
IGNORED = frozenset({"id", "pk"})
SMALL = (-32768, 32767)  # what a SmallIntegerField holds
POSITIVE = (0, 2147483647)  # what a PositiveIntegerField holds
USERNAME = 150  # what a user name holds (django.contrib.auth)

MISSING = object()
# Problems a document's refusal lists before "and N more": a file broken the same way in
# 40,000 places was a 4 MB page that took 18 s to draw, and nobody reads past the first few.
MOST_LISTED = 100


def place(where: str, key: str) -> str:
    """Where a key is in the document: "traits[3]" and "level" make "traits[3].level"."""
    return f"{where}.{key}" if where else key


class Reader:
    """Reads a JSON object field by field, noting every problem and keeping the clean values
    (with the model's defaults filled in) for the service that saves them."""

    def __init__(self, document: str) -> None:
        self.document = document  # "a character file": what an unknown key is not part of
        self.listed: list[str] = []
        self.unlisted = 0

    @property
    def problems(self) -> list[str]:
        """Every problem noted, the first ``MOST_LISTED`` of them in words."""
        more = [gettext("and %(count)s more") % {"count": self.unlisted}] if self.unlisted else []
        return self.listed + more

    def clean(self, document: object) -> None:
        """Holds every text and number in the document, wherever it is, to the one input rule
        (``fudgetable.input_rule``): no lone surrogates, no control characters but tab and line
        breaks, no NaN or Infinity, no number past 18 digits."""
        for problem in json_problems(document):
            self.note(problem)

    def add(self, where: str, message: str) -> None:
        self.note(f"{where}: {message}")

    def note(self, problem: str) -> None:
        """Notes a problem already in words with its place."""
        if len(self.listed) < MOST_LISTED:
            self.listed.append(problem)
        else:
            self.unlisted += 1

    def known(self, d: Mapping[str, Any], where: str, allowed: Collection[str]) -> None:
        for key in d:
            if key not in allowed and key not in IGNORED:
                self.add(place(where, str(key)), f"is not part of {self.document}")

    def text(
        self, d: Mapping[str, Any], key: str, where: str, most: int, *, required: bool = False
    ) -> str:
        at, value = place(where, key), d.get(key, MISSING)
        if value is MISSING:
            if required:
                self.add(at, "is missing")
            return ""
        if not isinstance(value, str):
            self.add(at, "must be text")
            return ""
        if required and not value.strip():
            self.add(at, "must not be empty")
        if len(value) > most:
            self.add(at, f"must be at most {most} characters (it has {len(value)})")
        return value

    def integer(
        self,
        d: Mapping[str, Any],
        key: str,
        where: str,
        bounds: tuple[int, int] | None = None,
        *,
        default: int | None = 0,
        nullable: bool = False,
    ) -> int | None:
        """A whole number within ``bounds``; missing gives ``default`` (``None``: required)."""
        at, value = place(where, key), d.get(key, MISSING)
        if value is MISSING or (value is None and nullable):
            if value is MISSING and default is None and not nullable:
                self.add(at, "is missing")
            return None if nullable else default
        if isinstance(value, bool) or not isinstance(value, int):
            self.add(at, "must be a whole number")
            return None
        if bounds and not bounds[0] <= value <= bounds[1]:
            self.add(at, f"must be between {bounds[0]} and {bounds[1]}")
            return None
        return value

    def flag(self, d: Mapping[str, Any], key: str, where: str) -> bool:
        value = d.get(key, False)
        if not isinstance(value, bool):
            self.add(place(where, key), "must be true or false")
            return False
        return value

    def choice(
        self, d: Mapping[str, Any], key: str, where: str, choices: Collection[str], default: str
    ) -> str | None:
        at, value = place(where, key), d.get(key, default or MISSING)
        if value is MISSING:
            self.add(at, "is missing")
            return None
        if value not in choices:
            self.add(at, f"must be one of {', '.join(choices)}")
            return None
        return str(value)

    def rows(self, d: Mapping[str, Any], key: str, where: str, most: int) -> list[tuple[str, Json]]:
        """The objects in a list, each with its place ("traits[3]")."""
        at, value = place(where, key), d.get(key, [])
        if not isinstance(value, list):
            self.add(at, "must be a list")
            return []
        if len(value) > most:
            self.add(at, f"holds at most {most} entries (it has {len(value)})")
            return []
        found = []
        for index, row in enumerate(value):
            if isinstance(row, dict):
                found.append((f"{at}[{index}]", row))
            else:
                self.add(f"{at}[{index}]", "must be an object")
        return found

    def texts(
        self, d: Mapping[str, Any], key: str, where: str, most: int, length: int
    ) -> list[str]:
        """A list of at most ``most`` texts, each of at most ``length`` characters."""
        at, value = place(where, key), d.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            self.add(at, "must be a list of text")
            return []
        if len(value) > most:
            self.add(at, f"holds at most {most} entries (it has {len(value)})")
        for index, text in enumerate(value):
            if len(text) > length:
                self.add(f"{at}[{index}]", f"must be at most {length} characters")
        return value

    def unique(self, at: str, value: object, seen: set[Any], message: str) -> None:
        """Notes ``message`` when ``value`` was seen before in the same list."""
        if value in seen:
            self.add(at, message)
        seen.add(value)


# A document made of lists whose rows name each other (a campaign backup: entries, scenes, cards)
# gives each row a ref and points at rows by it; the readers below check both.


def read_ref(r: Reader, row: Mapping[str, Any], at: str, seen: set[int], fallback: int) -> int:
    """A row's ref: a whole number no other row of its list has (``fallback`` when the
    file is of version 1, which numbers nothing)."""
    ref = r.integer(row, "ref", at, (1, 10**9), default=None) if fallback == 0 else fallback
    if ref is not None and ref in seen:
        r.add(f"{at}.ref", f"another entry is also {ref}")
    seen.add(ref or 0)
    return ref or 0


def read_time(
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
        # Refused, and not handed on: a time without its offset cannot be compared with the
        # others (the log's order), and the comparison raised where a refusal was due.
        return None
    return moment


def read_pointer(
    r: Reader,
    d: Mapping[str, Any],
    key: str,
    at: str,
    refs: set[int],
    what: str,
    *,
    required: bool = False,
    but: int | None = None,
) -> int | None:
    """A ref to another part of the file (any of ``refs`` but ``but``), or null; one to
    nothing is reported."""
    value = d.get(key)
    if value is None:
        if required:
            r.add(f"{at}.{key}", f"must name a {what} of this backup")
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in refs or value == but:
        r.add(f"{at}.{key}", f"names no {what} of this backup")
        return None
    return value
