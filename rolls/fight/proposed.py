"""The traits the rules propose a fighter answers with, read off the sheet: to fight with a
weapon (``fudgetable.rules.attack.fighting_trait``) and to evade a shot
(``fudgetable.rules.defence.evading_trait``). The person attacking or defending may pick
another; the log says which was rolled."""

from characters.models import Gear, Trait
from fudgetable.rules import attack as rules
from fudgetable.rules.defence import evading_trait


def options_of(traits: list[Trait]) -> list[rules.TraitOption]:
    return [
        rules.TraitOption(t.name, t.level + t.modifier, t.kind == Trait.Kind.ATTRIBUTE)
        for t in traits
    ]


def proposed_trait(traits: list[Trait], gear: Gear | None, kind: rules.Kind) -> Trait | None:
    """The trait proposed to fight with ``gear`` (None: bare hands); None: untrained."""
    found = rules.fighting_trait(
        options_of(traits), weapon="" if gear is None else gear.name, kind=kind
    )
    return None if found is None else traits[found]


def evading_with(traits: list[Trait]) -> Trait | None:
    """The trait proposed to evade a shot with; None: untrained."""
    found = evading_trait(options_of(traits))
    return None if found is None else traits[found]
