"""The sheet's lines for a roll (``fudgetable.rules.sheet_modifiers``), gathered from the
database: the character's tracks come with it, its gifts and faults that name the trait and,
in Peupfudge, its statuses and properties, in one query each."""

from collections.abc import Mapping
from typing import Any

from characters.models import Character, Detail, Feature
from characters.selectors import roll_details
from fudgetable.rows import rows
from fudgetable.rules.character import Fault, Gift, Modifier
from fudgetable.rules.rulesets import Ruleset, TraitScheme
from fudgetable.rules.sheet_modifiers import SheetModifiers, Ticks, sheet_modifiers

UNTRAINED = "untrained"


def offered(ruleset: Ruleset, character: Character | None, trait: str) -> SheetModifiers:
    """Every line ``character``'s sheet offers for a roll of ``trait``; none without one."""
    if character is None:
        return SheetModifiers()
    gifts: list[Gift] = []
    faults: list[Fault] = []
    if trait != UNTRAINED:
        # As the ORM's iexact reads on PostgreSQL, and by key (fudgetable.rows): every roll
        # of a character's asks this.
        found = rows(
            Feature,
            "main.character_id = %s AND UPPER(main.target) = UPPER(%s)",
            [character.pk, trait.strip()],
        )
        for feature in found:
            modifiers = (Modifier(feature.target, feature.amount, feature.situation),)
            if feature.kind == Feature.Kind.GIFT:
                gifts.append(Gift(feature.name, modifiers, feature.supernormal))
            else:
                faults.append(Fault(feature.name, modifiers))
    details = []
    if ruleset.trait_scheme is TraitScheme.ABILITIES:
        details = roll_details(Detail.objects.filter(character=character).exclude(modifier=0))
    return sheet_modifiers(
        ruleset,
        trait=trait,
        tracks_state=character.tracks,
        npc_boxes=character.npc_boxes if character.is_npc else None,
        gifts=gifts,
        faults=faults,
        details=details,
    )


def ticks(data: Mapping[str, Any]) -> Ticks | None:
    """The lines a roll form left ticked of those it showed, or None when its breakdown was
    not the one shown for this trait (no JavaScript, a trait changed since): then the
    defaults apply."""
    if str(data.get("sheet_lines_for") or "") != str(data.get("trait") or ""):
        return None
    shown = data.get("sheet_lines_shown")
    return Ticks(frozenset(data.get("sheet_lines") or ()), frozenset(shown) if shown else None)
