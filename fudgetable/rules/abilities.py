"""Peupfudge character traits: abilities, statuses, properties, inventory, characteristics.

Seed: Peupfudge 2022 draft, section 1 "Characters" and 1.1 "Abilities" (intrinsic aptitude),
with the worked examples in appendix C. Levels are plain ints from 0.
"""

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace
from typing import Any

from fudgetable.rules.advancement import peup_step_cost, peup_total_cost
from fudgetable.rules.data import integer, items, obj, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop


def _named(name: str, where: str) -> str:
    if not name.strip():
        raise RulesError(f"{where}.name", gettext_noop("needs a name"))
    return name


@dataclass(frozen=True)
class Ability:
    """An ability: unmodified level, XP put toward the next level, and a level modifier.

    The modifier counts in play but never in cost: a hobbit's Strength 3 - 1 rolls as 2
    yet costs what level 3 costs to raise.
    """

    name: str
    level: int = 0
    progress: int = 0
    modifier: int = 0

    def __post_init__(self) -> None:
        _named(self.name, "ability")
        if self.level < 0:
            raise RulesError("ability.level", gettext_noop("Peupfudge levels start at 0"))
        if not 0 <= self.progress < peup_step_cost(self.level):
            raise RulesError(
                "ability.progress",
                gettext_noop("must be from 0 to %(value)s"),
                value=peup_step_cost(self.level) - 1,
            )

    @property
    def next_cost(self) -> int:
        return peup_step_cost(self.level)

    @property
    def effective_level(self) -> int:
        return self.level + self.modifier

    @property
    def xp_spent(self) -> int:
        return peup_total_cost(self.level) + self.progress

    def allocate(self, xp: int) -> "Ability":
        """Put ``xp`` toward this ability; it counts as spent even short of a level."""
        if xp < 0:
            raise RulesError("xp", gettext_noop("cannot allocate negative XP"))
        level, progress = self.level, self.progress + xp
        while progress >= peup_step_cost(level):
            progress -= peup_step_cost(level)
            level += 1
        return replace(self, level=level, progress=progress)

    def describe(self) -> str:
        """Sheet text such as ``"4 (+6/16)"`` or ``"3 - 1 = 2"``."""
        sheet = str(self.level)
        if self.modifier:
            sign = "+" if self.modifier > 0 else "-"
            sheet = f"{sheet} {sign} {abs(self.modifier)} = {self.effective_level}"
        if self.progress:
            sheet = f"{sheet} (+{self.progress}/{self.next_cost})"
        return sheet

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "level": self.level,
            "progress": self.progress,
            "modifier": self.modifier,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Ability":
        d = obj(data, "ability")
        return cls(
            text(d, "name", "ability"),
            integer(d, "level", "ability", 0),
            integer(d, "progress", "ability", 0),
            integer(d, "modifier", "ability", 0),
        )


@dataclass(frozen=True)
class AbilityBonus:
    """What a property does to one ability: a level modifier, or bonus starting XP."""

    ability: str
    amount: int
    situation: str = ""  # empty: always; else only then ("when using the left arm")

    def to_dict(self) -> dict[str, Any]:
        return {"ability": self.ability, "amount": self.amount, "situation": self.situation}

    @classmethod
    def from_dict(cls, data: object) -> "AbilityBonus":
        d = obj(data, "bonus")
        return cls(
            text(d, "ability", "bonus"),
            integer(d, "amount", "bonus"),
            text(d, "situation", "bonus", ""),
        )


@dataclass(frozen=True)
class Property:
    """A trait tracked only when it applies (deaf, blessed, "talented observer")."""

    name: str
    note: str = ""
    level_modifiers: tuple[AbilityBonus, ...] = ()
    starting_xp: tuple[AbilityBonus, ...] = ()

    def __post_init__(self) -> None:
        _named(self.name, "property")
        if any(b.amount < 0 or b.situation for b in self.starting_xp):
            raise RulesError(
                "property.starting_xp", gettext_noop("starting XP is a plain positive bonus")
            )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "note": self.note,
            "level_modifiers": [b.to_dict() for b in self.level_modifiers],
            "starting_xp": [b.to_dict() for b in self.starting_xp],
        }

    @classmethod
    def from_dict(cls, data: object) -> "Property":
        d = obj(data, "property")
        return cls(
            text(d, "name", "property"),
            text(d, "note", "property", ""),
            tuple(AbilityBonus.from_dict(b) for b in items(d, "level_modifiers", "property")),
            tuple(AbilityBonus.from_dict(b) for b in items(d, "starting_xp", "property")),
        )


def level_in_play(
    ability: Ability, properties: Iterable[Property] = (), situations: Collection[str] = ()
) -> int:
    """L for an action: modified level plus property modifiers that apply right now."""
    bonus = sum(
        b.amount
        for p in properties
        for b in p.level_modifiers
        if b.ability == ability.name and (not b.situation or b.situation in situations)
    )
    return ability.effective_level + bonus


@dataclass(frozen=True)
class StatusState:
    name: str
    modifier: int = 0


@dataclass(frozen=True)
class Status:
    """A trait tracked all the time, moving between named states (lowest first)."""

    name: str
    states: tuple[StatusState, ...]
    current: str
    affects: tuple[str, ...] = ()  # abilities whose A the state modifies; empty means none

    def __post_init__(self) -> None:
        _named(self.name, "status")
        names = [s.name for s in self.states]
        if not names or len(set(names)) != len(names):
            raise RulesError(
                "status.states", gettext_noop("give one or more states with distinct names")
            )
        if self.current not in names:
            raise RulesError(
                "status.current",
                gettext_noop("%(current)r is not a state of %(name)s"),
                current=self.current,
                name=self.name,
            )

    @property
    def state(self) -> StatusState:
        return next(s for s in self.states if s.name == self.current)

    def shift(self, steps: int) -> "Status":
        """Move up (positive) or down the states, stopping at either end."""
        names = [s.name for s in self.states]
        index = min(max(names.index(self.current) + steps, 0), len(names) - 1)
        return replace(self, current=names[index])

    def set(self, state: str) -> "Status":
        return replace(self, current=state)

    def modifier_for(self, ability: str) -> int:
        return self.state.modifier if ability in self.affects else 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "states": [{"name": s.name, "modifier": s.modifier} for s in self.states],
            "current": self.current,
            "affects": list(self.affects),
        }

    @classmethod
    def from_dict(cls, data: object) -> "Status":
        d = obj(data, "status")
        states = []
        for raw in items(d, "states", "status"):
            s = obj(raw, "status.states")
            states.append(
                StatusState(
                    text(s, "name", "status.states"), integer(s, "modifier", "status.states", 0)
                )
            )
        affects = items(d, "affects", "status")
        if not all(isinstance(a, str) for a in affects):
            raise RulesError("status.affects", gettext_noop("must be a list of ability names"))
        return cls(
            text(d, "name", "status"), tuple(states), text(d, "current", "status"), tuple(affects)
        )


def energy(current: str = "Neutral") -> Status:
    """The seed's example status (appendix C, example 2)."""
    states = (
        StatusState(gettext_noop("Exhausted"), -2),
        StatusState(gettext_noop("Tired"), -1),
        StatusState(gettext_noop("Neutral"), 0),
        StatusState(gettext_noop("Rested"), 1),
    )
    return Status(
        gettext_noop("Energy"),
        states,
        current,
        affects=(gettext_noop("Muscle"), gettext_noop("Perception")),
    )


@dataclass(frozen=True)
class Item:
    """Something carried. ``inside`` names the key of the item holding it, if any."""

    key: str
    name: str
    inside: str | None = None
    note: str = ""  # "worn", "full", "equipped"
    quantity: int = 1

    def __post_init__(self) -> None:
        if not self.key:
            raise RulesError("item.key", gettext_noop("an item needs a key"))
        _named(self.name, "item")
        if self.quantity < 1:
            raise RulesError("item.quantity", gettext_noop("must be at least 1"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "name": self.name,
            "inside": self.inside,
            "note": self.note,
            "quantity": self.quantity,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Item":
        d = obj(data, "item")
        inside = d.get("inside")
        if inside is not None and not isinstance(inside, str):
            raise RulesError("item.inside", gettext_noop("must be an item key or null"))
        return cls(
            text(d, "key", "item"),
            text(d, "name", "item"),
            inside,
            text(d, "note", "item", ""),
            integer(d, "quantity", "item", 1),
        )


@dataclass(frozen=True)
class Inventory:
    """Items on a character; an item may sit inside another (a pouch in a pack)."""

    items: tuple[Item, ...] = ()

    def __post_init__(self) -> None:
        keys = [i.key for i in self.items]
        if len(set(keys)) != len(keys):
            raise RulesError("inventory.items", gettext_noop("item keys must be unique"))
        for item in self.items:
            if item.inside is not None and item.inside not in keys:
                raise RulesError(
                    "inventory.items",
                    gettext_noop("%(name)s is inside a missing item"),
                    name=item.name,
                )
            if item.inside is not None and item.key in self._containers_of(item.inside):
                raise RulesError(
                    "inventory.items", gettext_noop("%(name)s is inside itself"), name=item.name
                )

    def _item(self, key: str) -> Item:
        for item in self.items:
            if item.key == key:
                return item
        raise RulesError("item", gettext_noop("no item %(key)r"), key=key)

    def _containers_of(self, key: str) -> list[str]:
        """Keys from ``key`` outward to the top level (stops if a loop is found)."""
        chain: list[str] = []
        current: str | None = key
        by_key = {i.key: i for i in self.items}
        while current is not None and current not in chain and current in by_key:
            chain.append(current)
            current = by_key[current].inside
        return chain

    def contents(self, key: str | None) -> tuple[Item, ...]:
        """Items directly inside ``key`` (None: carried at the top level)."""
        return tuple(i for i in self.items if i.inside == key)

    def descendants(self, key: str) -> tuple[Item, ...]:
        found: list[Item] = []
        for child in self.contents(key):
            found.append(child)
            found.extend(self.descendants(child.key))
        return tuple(found)

    def add(self, item: Item) -> "Inventory":
        return Inventory((*self.items, item))

    def move(self, key: str, into: str | None) -> "Inventory":
        item = self._item(key)
        if into is not None:
            self._item(into)
            if into == key or into in {d.key for d in self.descendants(key)}:
                raise RulesError(
                    "into", gettext_noop("%(name)s cannot go inside itself"), name=item.name
                )
        moved = replace(item, inside=into)
        return Inventory(tuple(moved if i.key == key else i for i in self.items))

    def remove(self, key: str) -> "Inventory":
        """Take an item away, with everything inside it."""
        gone = {key} | {d.key for d in self.descendants(self._item(key).key)}
        return Inventory(tuple(i for i in self.items if i.key not in gone))

    def to_dict(self) -> dict[str, Any]:
        return {"items": [i.to_dict() for i in self.items]}

    @classmethod
    def from_dict(cls, data: object) -> "Inventory":
        d = obj(data, "inventory")
        return cls(tuple(Item.from_dict(i) for i in items(d, "items", "inventory")))


@dataclass(frozen=True)
class Characteristic:
    """Identity and background for the story: name, species, backstory, ..."""

    name: str
    value: str

    def __post_init__(self) -> None:
        _named(self.name, "characteristic")

    def to_dict(self) -> dict[str, str]:
        return {"name": self.name, "value": self.value}

    @classmethod
    def from_dict(cls, data: object) -> "Characteristic":
        d = obj(data, "characteristic")
        return cls(text(d, "name", "characteristic"), text(d, "value", "characteristic"))


def standing(level: int, poor: int, decent: int, great: int) -> str:
    """Where a level sits against the GM's marks for its ability (PEUP 2: "determine what
    level for each ability is considered poor, decent, excellent")."""
    if not poor < decent < great:
        raise RulesError("marks", gettext_noop("poor, decent and great must rise"))
    for mark, name in ((great, "great"), (decent, "decent"), (poor, "poor")):
        if level >= mark:
            return name
    return "below poor"
