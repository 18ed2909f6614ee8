"""An attack from the board (issue #39): a fighter picks a weapon and taps a target, and these
rules say what kind of exchange it is and which trait each side fights with when nobody says.

- The kind follows EZFudge's round ("The Combat Round"): in the melee phase a fighter hits
  someone in reach, which on the board is the same area (two figures in one area are within
  Touch or Short range, ``areas``); in the ranged phase a fighter shoots at any range; the
  other phases ("resolve remaining non-combat actions", wounds) hold no attack. With no round
  running, a target in the fighter's area is fought in melee and one beyond it is shot at.
- The trait: the seeds name no fixed skill for a weapon (an EZFudge role passes "The
  Argument": "Because I am a ___, I can ___"), so the trait proposed is the one that reads as
  fighting with this weapon: one sharing a word with its name ("Quarterstaff for Hire" for a
  quarterstaff), else one named for this kind of fighting ("Archer", "Ranged Combat" for a
  bow; "Fighter", "Melee Combat" for a sword), the higher level first. None fits: untrained
  (EZFudge: "If the character doesn't have a role that applies, try the default of Poor").
  The person attacking may pick another, and the log says which was rolled.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum


class Kind(StrEnum):
    MELEE = "melee"
    RANGED = "ranged"


class Refusal(StrEnum):
    """Why the board's attack is not one the round allows."""

    OUT_OF_REACH = "out-of-reach"  # the melee phase, and the target in another area
    NO_ATTACK_PHASE = "no-attack-phase"  # the phase of other actions, or of wounds


MELEE_PHASE, RANGED_PHASE = "melee", "ranged"


def attack_kind(*, phase: str, same_area: bool) -> Kind | Refusal:
    """Melee or a shot for an attack made in ``phase`` ("" when no round runs)."""
    if not phase:
        return Kind.MELEE if same_area else Kind.RANGED
    if phase == MELEE_PHASE:
        return Kind.MELEE if same_area else Refusal.OUT_OF_REACH
    if phase == RANGED_PHASE:
        return Kind.RANGED
    return Refusal.NO_ATTACK_PHASE


# Words that name fighting of each kind in the seeds' traits and roles (EZFudge's list of
# roles, Fudge Lite's "Melee Combat" and "Ranged Combat", Fudge 1995's weapon skills).
RANGED_WORDS = frozenset(
    [
        "archer",
        "archery",
        "bow",
        "bowman",
        "crossbow",
        "gun",
        "gunner",
        "gunslinger",
        "marksman",
        "ranged",
        "shooter",
        "shooting",
        "sniper",
        "sling",
        "throwing",
        "thrown",
    ]
)
MELEE_WORDS = frozenset(
    [
        "barbarian",
        "boxer",
        "boxing",
        "brawler",
        "brawling",
        "fighter",
        "fencer",
        "fencing",
        "knight",
        "melee",
        "soldier",
        "sword",
        "swordsman",
        "warrior",
        "wrestler",
        "wrestling",
    ]
)
# Short or common words a weapon's and a trait's names share without meaning it.
IGNORED = frozenset(["a", "an", "and", "at", "for", "hire", "of", "the", "with"])


@dataclass(frozen=True)
class TraitOption:
    name: str
    level: int
    attribute: bool = False  # an EZFudge attribute or the like, not a role or skill


def _words(text: str) -> set[str]:
    return {word for word in re.findall(r"[a-z]+", text.lower()) if word not in IGNORED}


def _fit(trait: TraitOption, weapon: str, kind: Kind) -> int:
    words = _words(trait.name)
    if words & _words(weapon):
        return 2
    if words & (RANGED_WORDS if kind == Kind.RANGED else MELEE_WORDS):
        return 1
    return 0


def fighting_trait(traits: Sequence[TraitOption], *, weapon: str, kind: Kind) -> int | None:
    """The index in ``traits`` of the trait proposed to fight with ``weapon`` ("" for bare
    hands) in a ``kind`` exchange; None: none fits, the fighter goes untrained."""
    best: tuple[int, int, bool] | None = None
    found = None
    for at, trait in enumerate(traits):
        fit = _fit(trait, weapon, kind)
        if not fit:
            continue
        rank = (fit, trait.level, not trait.attribute)
        if best is None or rank > best:
            best, found = rank, at
    return found
