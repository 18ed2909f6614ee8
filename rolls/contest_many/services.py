"""Contests of many at the table: three or more characters, PCs and NPCs mixed, each rolling
its trait, ranked in one log entry (``fudgetable.rules.resolution.resolve_many``).

Seeds: Peupfudge 2 (:73) and its race out of the cave (:189-203); Fudge 1995 3.5 notes that an
opposed action may involve more than two characters. Each side rolls as it would in a
contest of two: a PC the campaign's dice for a contest, an NPC by the campaign's NPC roll mode.

A GM may enter any character; a player enters PCs only (NPCs' traits are the GM's), one of
them their own. The entry is a contest (``Roll.Kind.CONTEST``) with every side in its place,
best first, and no character of its own: no Fudge point is spent on it, as a point changes one
side's roll against one other side and there is no other side here.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Trait
from fudgetable.rules import checks, odds
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import Side, npc_roll_method, resolve_many
from fudgetable.rules.rulesets import Ruleset
from rolls.entry_words import SAID, said
from rolls.models import Roll
from rolls.services import (
    existing_roll,
    faces_shown,
    ladder_words,
    record_entry,
    refuse_observers,
)

MIN_SIDES = 3  # two sides are the table's ordinary opposed roll
MAX_SIDES = 6
LABEL_LENGTH = 120


@dataclass(frozen=True)
class ContestSide:
    """One side as entered: a character's trait, and the side's own modifiers (Peupfudge's
    A: "Old running shoes", +1)."""

    trait: Trait
    modifiers: tuple[int, ...] = ()

    @property
    def character(self) -> Character:
        return self.trait.character

    @property
    def level(self) -> int:
        # Peupfudge's level modifier counts in play, as it does in a check.
        return self.trait.level + self.trait.modifier


def enterable(membership: Membership):
    """The characters this person may enter in a contest: a GM, anyone; a player, the PCs."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        characters = characters.filter(kind=Character.Kind.PC)
    return characters


def sides_from(
    membership: Membership, entered: Sequence[tuple[int, Sequence[int]]]
) -> list[ContestSide]:
    """The sides a form names by trait id, each a trait of a character this person may enter;
    refused whole if any is not."""
    ids = [trait_id for trait_id, _ in entered]
    traits = {
        trait.pk: trait
        for trait in Trait.objects.filter(
            pk__in=ids, character__in=enterable(membership)
        ).select_related("character")
    }
    sides = []
    for number, (trait_id, modifiers) in enumerate(entered, start=1):
        if trait_id not in traits:
            raise RulesError(
                "sides",
                gettext("side %(number)s names no trait you may enter") % {"number": number},
            )
        sides.append(ContestSide(traits[trait_id], checks.check_modifiers(modifiers)))
    _check_sides(membership, sides)
    return sides


def _check_sides(membership: Membership, sides: Sequence[ContestSide]) -> None:
    if not MIN_SIDES <= len(sides) <= MAX_SIDES:
        raise RulesError(
            "sides",
            gettext("a contest of many has from %(least)s to %(most)s sides")
            % {"least": MIN_SIDES, "most": MAX_SIDES},
        )
    if len({side.character.pk for side in sides}) < len(sides):
        raise RulesError("sides", gettext("each side is a different character"))
    if not membership.is_gm and not any(
        side.character.owner_id == membership.user_id for side in sides
    ):
        raise RulesError("sides", gettext("one of the sides is a character of yours"))


def _method(ruleset: Ruleset, character: Character) -> str:
    """As in a contest of two: an NPC rolls by the NPC roll mode, a PC the contest dice."""
    return npc_roll_method(ruleset.npc_roll).key if character.is_npc else ruleset.opposed_dice


def win_chances(ruleset: Ruleset, sides: Sequence[ContestSide]) -> tuple[Fraction, ...]:
    """Each side's exact chance of winning, before anyone rolls."""
    return odds.many_win_chances(
        [(_method(ruleset, side.character), side.level, side.modifiers) for side in sides],
        ruleset.opposed_rules,
    )


def contest_odds(membership: Membership, sides: Sequence[ContestSide]) -> list[tuple[str, str]]:
    """Each side's chance of winning in words, and the chance that nobody does (the best
    result shared, where the ruleset reads that as no win)."""
    chances = win_chances(campaign_ruleset(membership.campaign), sides)
    words = [(side.character.name, _percent(p)) for side, p in zip(sides, chances, strict=True)]
    nobody = 1 - sum(chances, Fraction(0))
    if nobody > 0:
        words.append((gettext("Nobody (a tie at the top)"), _percent(nobody)))
    return words


def _percent(chance: Fraction) -> str:
    return f"{float(chance) * 100:.1f}%"


@transaction.atomic
def roll_contest_many(
    *,
    membership: Membership,
    key: str,
    sides: Sequence[ContestSide],
    label: str = "",
    secret: bool = False,
) -> Roll:
    """Rolls every side and writes one log entry with each side in its place. ``secret``
    keeps it among the GMs; a player's contest is never secret. A resent form (same key) gets
    its roll back."""
    refuse_observers(membership)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    label = " ".join(label.split())
    if len(label) > LABEL_LENGTH:
        raise RulesError(
            "label",
            gettext("what the contest is fits in %(length)s characters") % {"length": LABEL_LENGTH},
        )
    _check_sides(membership, sides)
    ruleset = campaign_ruleset(membership.campaign)
    dice = [get_method(_method(ruleset, side.character)).roll() for side in sides]
    race = resolve_many(
        [
            Side(side.level, roll.total, side.modifiers)
            for side, roll in zip(sides, dice, strict=True)
        ],
        ruleset.opposed_rules,
    )
    chances = win_chances(ruleset, sides)
    entries = []
    for index in race.in_order:
        side, roll, result = sides[index], dice[index], race.sides[index]
        entries.append(
            {
                "name": side.character.name,
                "character": side.character.pk,
                "npc": side.character.is_npc,
                "trait": side.trait.name,
                "level": result.level,
                "level_name": ladder_words(ruleset, result.level),
                "modifiers": list(result.modifiers),
                "modifier": result.modifier,
                "method_label": get_method(roll.method).label,
                "shown": faces_shown(roll),
                "roll": roll.total,
                "result": result.result,
                "result_name": ladder_words(ruleset, result.result),
                "place": race.place(index),
                "chance": str(chances[index]),
                "chance_percent": round(float(chances[index]) * 100, 1),
            }
        )
    leaders = [sides[index].character.name for index in race.leaders]
    snapshot = {
        "many": True,
        "sides": entries,
        "winners": [sides[index].character.name for index in race.winners],
        "relative_degree": race.lead,
        "outcome": race.outcome.value,
        "critical": "",
        "degree": "",
        SAID: said("contest-many", label=label, outcome=race.outcome.value, leaders=leaders),
    }
    entry, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=label or ", ".join(leaders),
        snapshot=snapshot,
        succeeded=None,
        key=key,
        secret=secret and membership.is_gm,
    )
    return entry
