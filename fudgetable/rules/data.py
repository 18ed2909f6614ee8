"""Reading the JSON the app stores, one field at a time.

Every helper raises ``RulesError`` naming the offending field, so that a form can show the
message next to it. ``where`` is the dotted path of the object being read (``"track"``,
``"status.states"``) and a field's setting is ``f"{where}.{key}"``. A ``default`` of None
means the field is required: a missing key fails the type check like a wrong value does.
"""

from collections.abc import Iterable, Mapping
from enum import Enum
from typing import Any, TypeGuard

from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop


def is_int(value: object) -> TypeGuard[int]:
    # bool is a subclass of int, but JSON's true and false are never numbers.
    return isinstance(value, int) and not isinstance(value, bool)


def require_int(value: object, setting: str) -> int:
    """A whole number already in hand: an argument, a list item. The error quotes it back,
    since the caller, not a form field, usually made the mistake."""
    if not is_int(value):
        raise RulesError(
            setting, gettext_noop("must be a whole number, not %(value)r"), value=value
        )
    return value


def obj(data: object, where: str) -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise RulesError(where, gettext_noop("must be an object"))
    return data


def only(d: Mapping[str, Any], allowed: Iterable[str], where: str) -> None:
    """Refuse keys outside ``allowed``: a misspelt setting would otherwise be silently lost."""
    unknown = set(d) - set(allowed)
    if unknown:
        raise RulesError(
            where,
            gettext_noop("unknown settings: %(choices)s"),
            choices=", ".join(sorted(map(str, unknown))),
        )


def choice[E: Enum](kind: type[E], raw: object, setting: str) -> E:
    """The member of ``kind`` whose value ``raw`` is."""
    try:
        return kind(raw)
    except ValueError:
        choices = ", ".join(str(member.value) for member in kind)
        raise RulesError(
            setting, gettext_noop("%(raw)r is not one of %(choices)s"), raw=raw, choices=choices
        ) from None


def by_name[E: Enum](kind: type[E], d: Mapping[str, Any], key: str, where: str, default: E) -> E:
    """The member of ``kind`` stored by its lower-case name, for enums whose values are only
    an order (``Recovery.TENDING`` is 1) and would mean nothing in the stored JSON."""
    raw = d.get(key, default.name.lower())
    if not isinstance(raw, str) or raw.upper() not in kind.__members__:
        *rest, last = (name.lower() for name in kind.__members__)
        raise RulesError(
            f"{where}.{key}",
            gettext_noop("must be %(choices)s or %(last)s"),
            choices=", ".join(rest),
            last=last,
        )
    return kind[raw.upper()]


def integer(d: Mapping[str, Any], key: str, where: str, default: int | None = None) -> int:
    value = d.get(key, default)
    if not is_int(value):
        raise RulesError(f"{where}.{key}", gettext_noop("must be a whole number"))
    return value


def optional_integer(d: Mapping[str, Any], key: str, where: str) -> int | None:
    """A whole number, or None when the field is missing or null."""
    return None if d.get(key) is None else integer(d, key, where)


def text(d: Mapping[str, Any], key: str, where: str, default: str | None = None) -> str:
    value = d.get(key, default)
    if not isinstance(value, str):
        raise RulesError(f"{where}.{key}", gettext_noop("must be text"))
    return value


def flag(d: Mapping[str, Any], key: str, where: str, default: bool = False) -> bool:
    value = d.get(key, default)
    if not isinstance(value, bool):
        raise RulesError(f"{where}.{key}", gettext_noop("must be true or false"))
    return value


def items(d: Mapping[str, Any], key: str, where: str, *, required: bool = False) -> list[Any]:
    """A list, empty when the field is missing unless it is ``required``."""
    value = d.get(key) if required else d.get(key, [])
    if not isinstance(value, list):
        raise RulesError(f"{where}.{key}", gettext_noop("must be a list"))
    return value
