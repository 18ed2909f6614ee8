"""What every dice method shares: the RNG it draws from, the roll it gives, and its contract.

Seeds: Fudge 1995 3.2 (rolling the dice), Fudge Lite "Trait Checks", EZFudge "Random Roll". A
method turns raw faces (Fudge dice as -1/0/+1, plain dice as the numbers showing, a card as its
code) into one number from the table, and knows the exact distribution of that number. All dice
are rolled on the server with a cryptographic RNG by default; tests pass a seeded one.
"""

import secrets
from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any, Protocol

from fudgetable.rules.data import items, obj, require_int
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

Face = int | str


class RandomSource(Protocol):
    """Anything shaped like ``random.Random``: ``secrets.SystemRandom`` in play, a seeded
    ``random.Random`` in tests."""

    def randint(self, a: int, b: int) -> int: ...

    def shuffle(self, x: MutableSequence[Any]) -> None: ...


SYSTEM_RANDOM: RandomSource = secrets.SystemRandom()


@dataclass(frozen=True)
class Roll:
    """One roll: the method's key, the faces as they came up, and the number they read as."""

    method: str
    faces: tuple[Face, ...]
    total: int

    def to_dict(self) -> dict[str, Any]:
        return {"method": self.method, "faces": list(self.faces), "total": self.total}

    @classmethod
    def from_dict(cls, data: object) -> "Roll":
        # Imported here because the registry imports every method module, which import this one.
        from fudgetable.rules.dice.registry import get_method

        mapping = obj(data, "roll")
        method = get_method(mapping.get("method"), setting="roll.method")
        faces = items(mapping, "faces", "roll", required=True)
        total = require_int(mapping.get("total"), "roll.total")
        read = method.read(tuple(faces))
        if read != total:
            raise RulesError(
                "roll.total",
                gettext_noop("those faces read as %(read)s, not %(total)s"),
                read=read,
                total=total,
            )
        return cls(method.key, tuple(faces), total)


class DiceMethod(ABC):
    """A way to get a random number for an action. Subclasses set ``key`` (the registry string
    an app stores) and ``label``, throw faces, read faces, and give the exact distribution."""

    key: str
    label: str

    def roll(self, rng: RandomSource | None = None) -> Roll:
        faces = self.throw(SYSTEM_RANDOM if rng is None else rng)
        return Roll(self.key, faces, self.read(faces))

    @abstractmethod
    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        """The faces that come up."""

    @abstractmethod
    def read(self, faces: Sequence[object]) -> int:
        """The number these faces give; refuses faces this method could not have rolled."""

    @abstractmethod
    def exact(self) -> dict[int, Fraction]:
        """Work out the exact distribution (called once; ``distribution`` caches it)."""

    @cached_property
    def _distribution(self) -> tuple[tuple[int, Fraction], ...]:
        return tuple(sorted(self.exact().items()))

    def distribution(self) -> dict[int, Fraction]:
        """The exact chance of each number (a fresh dict each call, safe to change)."""
        return dict(self._distribution)

    @property
    def lowest(self) -> int:
        return self._distribution[0][0]

    @property
    def highest(self) -> int:
        return self._distribution[-1][0]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.key}>"


def require_faces(
    faces: Sequence[object], count: int, low: int, high: int, setting: str = "roll.faces"
) -> tuple[int, ...]:
    """Check that there are ``count`` faces, each a whole number from ``low`` to ``high``."""
    if len(faces) != count:
        raise RulesError(
            setting,
            gettext_noop("expected %(count)s faces, got %(count2)s"),
            count=count,
            count2=len(faces),
        )
    checked = []
    for face in faces:
        number = require_int(face, setting)
        if not low <= number <= high:
            raise RulesError(
                setting,
                gettext_noop("%(number)s is not a face from %(low)s to %(high)s"),
                number=number,
                low=low,
                high=high,
            )
        checked.append(number)
    return tuple(checked)
