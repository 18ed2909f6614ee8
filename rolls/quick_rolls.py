"""A player's own traits as one-tap rolls at the table, each with its odds against the
campaign's default difficulty, the sheet's standing lines (a wound, a gift that always
applies) counted as a roll of it would count them."""

from dataclasses import dataclass
from typing import Any

from characters.models import Character, Feature, Trait
from characters.selectors import roll_details
from fudgetable.rules import checks
from fudgetable.rules.character import Fault, Gift, Modifier
from fudgetable.rules.ladder import Ladder
from fudgetable.rules.rulesets import Ruleset, TraitScheme
from fudgetable.rules.sheet_modifiers import sheet_modifiers


@dataclass(frozen=True)
class QuickRoll:
    character: Character
    trait: Trait
    level_name: str
    percent: int | None  # the chance to succeed; None for a deck, whose odds follow its pile


def quick_rolls(ruleset: Ruleset, characters: list[Character], ladder: Ladder) -> list[QuickRoll]:
    """Each PC's traits (``characters`` with traits, features and details prefetched), in
    sheet order, each level named on ``ladder`` (the campaign's words)."""
    rolls = []
    difficulty = ruleset.default_difficulty
    for character in characters:
        if character.is_npc:
            continue
        features = list(character.features.all())
        details = (
            roll_details(d for d in character.details.all() if d.modifier)
            if ruleset.trait_scheme is TraitScheme.ABILITIES
            else []
        )
        for trait in character.traits.all():
            level = trait.level + trait.modifier
            percent = None
            if ruleset.dice != "deck":
                lines = sheet_modifiers(
                    ruleset,
                    trait=trait.name,
                    tracks_state=character.tracks,
                    gifts=_named(features, trait.name, Feature.Kind.GIFT),
                    faults=_named(features, trait.name, Feature.Kind.FAULT),
                    details=details,
                )
                margins = checks.margins(
                    ruleset,
                    level=level,
                    difficulty=difficulty,
                    modifiers=tuple(line.amount for line in lines.chosen()),
                )
                percent = round(100 * checks.chance_of_margins(ruleset, margins))
            rolls.append(QuickRoll(character, trait, ladder.describe(level), percent))
    return rolls


def _named(features: list[Feature], trait: str, kind: str) -> list[Any]:
    """The gifts or faults whose modifier names ``trait``, as the rules read them."""
    named = [f for f in features if f.kind == kind and f.target.strip().lower() == trait.lower()]
    if kind == Feature.Kind.GIFT:
        return [
            Gift(f.name, (Modifier(f.target, f.amount, f.situation),), f.supernormal) for f in named
        ]
    return [Fault(f.name, (Modifier(f.target, f.amount, f.situation),)) for f in named]
