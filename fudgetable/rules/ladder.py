"""Ladders: named rungs with integer values, and a name for every integer.

Seeds: Fudge Lite 3.1.0 "Fudge ladder" and "Superhuman Traits"; EZFudge "The Ladder" and
"Mathless EZFudge"; Fudge 1995 3.1 (Beyond Superb, Below Terrible) and 3.21; Fate (Fudge edition)
3.4.1 (Average); Peupfudge 1.1 (plain integer levels). Arithmetic is always on values; names are
for people. A value past either end of the rungs is named from the end rung and an offset
("Superb +2"), and any rung followed by an offset parses ("Great +2" is Fudge 1995's own way of
announcing a result), so every integer has exactly one name and every name parses back.
"""

import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from fudgetable.rules.data import flag, items, obj, require_int, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

_SPACE = re.compile(r"\s+")
_NUMBER = re.compile(r"[+-]?\d+")
_OFFSET = re.compile(r"(.+)([+-])(\d+)")
_ANNOTATED = re.compile(r"(.+)\(([+-]?\d+)\)")


def _normal(name: str) -> str:
    # Spacing and case carry no meaning: "superb+1", "Superb + 1" and "SUPERB +1" are one name.
    return _SPACE.sub("", name).lower()


def _to_int(digits: str, setting: str) -> int:
    try:
        return int(digits)
    except ValueError as error:  # more digits than Python will convert
        raise RulesError(setting, "that number is too long") from error


@dataclass(frozen=True)
class Rung:
    """One named step. ``extended`` marks rungs that results reach but traits normally don't
    (Fudge Lite's Superhuman tier, EZFudge's rungs below Terrible)."""

    name: str
    value: int
    extended: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "extended": self.extended}


@dataclass(frozen=True)
class Ladder:
    """An immutable ladder. ``rungs`` run low to high with strictly increasing values; an empty
    ``rungs`` makes a numbers-only ladder (Peupfudge). ``aliases`` are extra names that parse but
    are never produced (Fudge 1995's Legendary). ``separator`` goes between an end rung and the
    offset when naming values past the ends. ``floor`` and ``ceiling`` clamp results."""

    key: str
    label: str
    rungs: tuple[Rung, ...]
    aliases: tuple[Rung, ...] = ()
    separator: str = " "
    floor: int | None = None
    ceiling: int | None = None
    _lookup: Mapping[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        lookup: dict[str, int] = {}
        for kind, rungs in (("rungs", self.rungs), ("aliases", self.aliases)):
            for index, rung in enumerate(rungs):
                where = f"ladder.{kind}[{index}]"
                require_int(rung.value, f"{where}.value")
                _check_name(rung.name, f"{where}.name")
                normal = _normal(rung.name)
                if normal in lookup:
                    raise RulesError(f"{where}.name", f"{rung.name!r} is already on the ladder")
                lookup[normal] = rung.value
        for lower, higher in zip(self.rungs, self.rungs[1:], strict=False):
            if higher.value <= lower.value:
                raise RulesError("ladder.rungs", "values must rise strictly from low to high")
        if self.separator.strip(" "):
            raise RulesError("ladder.separator", "may only be spaces or empty")
        for bound in ("floor", "ceiling"):
            if getattr(self, bound) is not None:
                require_int(getattr(self, bound), f"ladder.{bound}")
        if self.floor is not None and self.ceiling is not None and self.floor > self.ceiling:
            raise RulesError("ladder.floor", "must not be above the ceiling")
        object.__setattr__(self, "_lookup", lookup)

    @property
    def numeric(self) -> bool:
        return not self.rungs

    @property
    def trait_rungs(self) -> tuple[Rung, ...]:
        """The rungs a trait normally sits on (the ones offered when building a character)."""
        return tuple(rung for rung in self.rungs if not rung.extended)

    def rung(self, value: int) -> Rung | None:
        """The rung with exactly this value, if there is one."""
        return next((rung for rung in self.rungs if rung.value == value), None)

    def name(self, value: int) -> str:
        """The name of any integer on this ladder."""
        require_int(value, "value")
        if self.numeric:
            return str(value)
        bottom = self.rungs[0]
        if value < bottom.value:
            return f"{bottom.name}{self.separator}-{bottom.value - value}"
        # At or above the bottom: the highest rung not above the value, plus what is left over
        # (past the top, or inside a gap of a custom ladder with uneven steps).
        base = max((rung for rung in self.rungs if rung.value <= value), key=lambda r: r.value)
        if base.value == value:
            return base.name
        return f"{base.name}{self.separator}+{value - base.value}"

    def describe(self, value: int) -> str:
        """A name with its number, the way the seeds print them: "Good (+2)", "Mediocre (0)"."""
        if self.numeric:
            return self.name(value)
        number = "0" if value == 0 else f"{value:+d}"
        return f"{self.name(value)} ({number})"

    def value(self, name: str, setting: str = "rung") -> int:
        """Parse a name back to its value. Accepts any rung or alias (any case and spacing), a
        rung with an offset ("Great +2"), a plain number ("+2", "-1"), and a described name
        whose number agrees ("Good (+2)"). ``setting`` names the field in any error."""
        if not isinstance(name, str):
            raise RulesError(setting, f"must be a rung name, not {name!r}")
        normal = _normal(name)
        annotated = _ANNOTATED.fullmatch(normal)
        if annotated:
            value = self.value(annotated.group(1), setting)
            if value != _to_int(annotated.group(2), setting):
                raise RulesError(setting, f"{name!r} names one value and numbers another")
            return value
        if _NUMBER.fullmatch(normal):
            return _to_int(normal, setting)
        if normal in self._lookup:
            return self._lookup[normal]
        offset = _OFFSET.fullmatch(normal)
        if offset and offset.group(1) in self._lookup:
            steps = _to_int(offset.group(3), setting)
            base = self._lookup[offset.group(1)]
            return base + steps if offset.group(2) == "+" else base - steps
        raise RulesError(setting, f"{name!r} is not on the {self.label} ladder")

    def clamp(self, value: int) -> int:
        """Keep a result inside the ladder's bounds (Fudge Lite: never below Terrible)."""
        if self.floor is not None and value < self.floor:
            return self.floor
        if self.ceiling is not None and value > self.ceiling:
            return self.ceiling
        return value

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "label": self.label,
            "rungs": [rung.to_dict() for rung in self.rungs],
            "aliases": [{"name": a.name, "value": a.value} for a in self.aliases],
            "separator": self.separator,
            "floor": self.floor,
            "ceiling": self.ceiling,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Ladder":
        d = obj(data, "ladder")
        key = _text(d, "key")
        label = _text(d, "label")
        separator = text(d, "separator", "ladder", " ")
        bounds = {}
        for bound in ("floor", "ceiling"):
            raw = d.get(bound)
            bounds[bound] = None if raw is None else require_int(raw, f"ladder.{bound}")
        return cls(
            key=key,
            label=label,
            rungs=_rungs(d, "rungs"),
            aliases=_rungs(d, "aliases"),
            separator=separator,
            floor=bounds["floor"],
            ceiling=bounds["ceiling"],
        )


def check_rung_name(name: object, setting: str = "rung") -> None:
    """Raises ``RulesError`` for a name no rung may have: empty, or one that would read back as
    a number, an offset or a described name ("+2", "Good+1", "Good (+1)")."""
    _check_name(name, setting)


def _check_name(name: object, setting: str) -> None:
    if not isinstance(name, str) or not _normal(name):
        raise RulesError(setting, "must be a non-empty name")
    normal = _normal(name)
    # A name that reads as a number, an offset or a description could not parse back.
    if _NUMBER.fullmatch(normal) or _OFFSET.fullmatch(normal) or "(" in normal or ")" in normal:
        raise RulesError(setting, f"{name!r} would read as a number, an offset or a description")
    if normal[-1] in "+-":
        raise RulesError(setting, f"{name!r} may not end in + or -")


def worded(ladder: Ladder, *choices: Mapping[str, str]) -> Ladder:
    """``ladder`` in other words, for people to read. Each choice maps a rung's own name to a
    word for it (``{"Good": "Bom"}``), the first choice first: a GM's words, then the rules'
    words in the reader's language. A rung takes the first word no other rung has taken, else
    its own name. Every other word, and every own name, still parses as an alias where it names
    no other value, so "vs Good" reads at a table that says "Bom". A word no rung may have
    (``check_rung_name``) is passed over; values, bounds and the separator stay as they were.
    Should the words leave a rung no name of its own, the ladder keeps its own names."""
    if ladder.numeric or not choices:
        return ladder
    taken: dict[str, int] = {}
    names: dict[int, str] = {}
    for choice in choices:  # one choice for every rung before the next choice
        for rung in ladder.rungs:
            word = choice.get(rung.name)
            if rung.value in names or not _fits(word) or _normal(str(word)) in taken:
                continue
            names[rung.value] = str(word)
            taken[_normal(str(word))] = rung.value
    for rung in ladder.rungs:
        if rung.value not in names:
            if _normal(rung.name) in taken:
                return ladder
            names[rung.value] = rung.name
            taken[_normal(rung.name)] = rung.value
    aliases = []
    for own in (*ladder.rungs, *ladder.aliases):
        for word in (own.name, *(choice.get(own.name) for choice in choices)):
            if _fits(word) and _normal(str(word)) not in taken:
                aliases.append(Rung(str(word), own.value))
                taken[_normal(str(word))] = own.value
    rungs = tuple(replace(rung, name=names[rung.value]) for rung in ladder.rungs)
    return replace(ladder, rungs=rungs, aliases=tuple(aliases))


def _fits(word: object) -> bool:
    try:
        _check_name(word, "rung")
    except RulesError:
        return False
    return True


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise RulesError(f"ladder.{key}", "must be non-empty text")
    return value


def _rungs(d: Mapping[str, Any], kind: str) -> tuple[Rung, ...]:
    rungs = []
    for index, raw in enumerate(items(d, kind, "ladder")):
        where = f"ladder.{kind}[{index}]"
        item = obj(raw, where)
        extended = flag(item, "extended", where)
        name = item.get("name")
        _check_name(name, f"{where}.name")
        assert isinstance(name, str)  # narrowed by _check_name
        rungs.append(Rung(name, require_int(item.get("value"), f"{where}.value"), extended))
    return tuple(rungs)


# Each rung's name is marked for the catalogues: the app says it in the reader's language, or
# in the words a campaign's GM chose (``worded``).
_SEVEN = (
    gettext_noop("Terrible"),
    gettext_noop("Poor"),
    gettext_noop("Mediocre"),
    gettext_noop("Fair"),
    gettext_noop("Good"),
    gettext_noop("Great"),
    gettext_noop("Superb"),
)
_SUPERHUMAN = (
    gettext_noop("Fair Superhuman"),
    gettext_noop("Good Superhuman"),
    gettext_noop("Great Superhuman"),
    gettext_noop("Superb Superhuman"),
)


def _seven(start: int = -2) -> tuple[Rung, ...]:
    return tuple(Rung(name, start + index) for index, name in enumerate(_SEVEN))


# Fudge Lite names four Superhuman rungs above Superb and nothing past them; past +8 we go on
# from the last named rung the way Fudge 1995 does past Superb: "Superb Superhuman +1" is +9.
# Results never fall below Terrible, but difficulties and raw sums can, so -3 still has a name.
FUDGE_LITE = Ladder(
    key="fudge-lite",
    label="Fudge Lite",
    rungs=_seven()
    + tuple(Rung(name, 5 + index, extended=True) for index, name in enumerate(_SUPERHUMAN)),
    floor=-2,
)

# EZFudge names two rungs below Terrible; past them, and past Superb, it writes offsets with no
# space ("Superb+1"), so the ladder does too: -5 is "Completely Terrible-1".
EZFUDGE = Ladder(
    key="ezfudge",
    label="EZFudge",
    rungs=(
        Rung(gettext_noop("Completely Terrible"), -4, extended=True),
        Rung(gettext_noop("Worse Than Terrible"), -3, extended=True),
        *_seven(),
    ),
    separator="",
)

FUDGE_1995 = Ladder(
    key="fudge-1995",
    label="Fudge 1995",
    rungs=_seven(),
    aliases=(Rung(gettext_noop("Legendary"), 5),),
)

# Fate puts Average between Mediocre and Fair. Mediocre stays 0, as on every other Fudge ladder,
# and each rung above moves up one (Average +1, Fair +2 ... Superb +5), as in Fate's later
# editions; every rung is still one step of the dice apart, which is all the arithmetic needs.
# A Fate ruleset's default difficulty (Fair) is therefore +2.
FATE = Ladder(
    key="fate",
    label="Fate (Fudge edition)",
    rungs=(
        Rung("Terrible", -2),
        Rung("Poor", -1),
        Rung("Mediocre", 0),
        Rung(gettext_noop("Average"), 1),
        Rung("Fair", 2),
        Rung("Good", 3),
        Rung("Great", 4),
        Rung("Superb", 5),
    ),
)

# Peupfudge levels are plain integers: untrained is 0, there is no ceiling, and penalties may
# take a level below 0 (the seed's ant has Strength 7 - 50 = -43).
PEUPFUDGE = Ladder(key="peupfudge", label="Peupfudge", rungs=())

LADDERS: Mapping[str, Ladder] = {
    ladder.key: ladder for ladder in (FUDGE_LITE, EZFUDGE, FUDGE_1995, FATE, PEUPFUDGE)
}


def get_ladder(key: str) -> Ladder:
    """A preset ladder by its key (``fudge-lite``, ``ezfudge``, ``fudge-1995``, ``fate``,
    ``peupfudge``)."""
    if not isinstance(key, str) or key not in LADDERS:
        raise RulesError("ladder", f"unknown ladder {key!r}; choose one of {', '.join(LADDERS)}")
    return LADDERS[key]
