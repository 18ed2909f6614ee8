"""What the fight log says about the round to come: which All-Out Defenses may still be followed
by a manoeuvre test, and which opponents take its -1 in their next action.

Both are read from the log, which is append-only: a manoeuvre test follows the exchange it comes
after, and its -1 is used by the first later exchange in which the opponent acts (a side of that
entry). Only the running play session counts: a fight does not carry over to the next one.
"""

from dataclasses import dataclass
from typing import Any

from characters.models import Character, Gear, Trait
from characters.selectors import rules_sheet, weapon_of
from fudgetable.rules import fight as rules
from fudgetable.rules.ranged import shot_inj
from fudgetable.rules.rulesets import Ruleset
from rolls.models import Roll
from rolls.selectors import running_session_id

MELEE, RANGED, MANOEUVRE = "melee", "ranged", "manoeuvre"
RECENT = 20  # fight entries looked back over: a round is a handful of them


@dataclass(frozen=True)
class Outmanoeuvred:
    """An opponent's -1 in their next action, and whose test gave it."""

    test: int
    by: str
    opponent: int
    opponent_name: str


@dataclass(frozen=True)
class OpenManoeuvre:
    """A successful All-Out Defense whose defender may still test to manoeuvre."""

    exchange: Roll
    side: str
    character: int
    name: str
    opponent_name: str
    traits: list[tuple[int, str]]


@dataclass(frozen=True)
class FighterChoices:
    """What the fight panel offers of one character: the traits to fight, shoot or evade
    with, the weapons for melee, and the weapons shot or thrown, each with its INJ."""

    character: Character
    traits: list[tuple[int, str]]
    weapons: list[tuple[int, str]]
    guns: list[tuple[int, str]]


def fighter_choices(campaign_id: int, ruleset: Ruleset) -> list[FighterChoices]:
    """Every sheet at the table as the fight's pickers show it, for GMs: an NPC hidden from
    the players is among them (the panel says so), which is why nothing drawn from this goes
    to players. A weapon is offered where its kind fits (``rules.Weapon.ranged``): a bow with
    a damage factor in the ranged phase, with the INJ its shooter's Body gives it."""
    found = []
    characters = Character.objects.filter(campaign_id=campaign_id)
    for character in characters.prefetch_related("traits", "features", "gear"):
        traits = [
            (t.pk, f"{t.name}, {ruleset.ladder.describe(t.level + t.modifier)}")
            for t in character.traits.all()
        ]
        arms = [g for g in character.gear.all() if g.kind == Gear.Kind.WEAPON]
        sheet = rules_sheet(character)
        guns = [(g.pk, f"{g.name} (INJ {shot_inj(sheet, weapon_of(g))})") for g in arms if g.ranged]
        melee = [(g.pk, g.name) for g in arms if not g.ranged]
        found.append(FighterChoices(character, traits, melee, guns))
    return found


def recent_fights(campaign_id: int) -> list[Roll]:
    """The session's latest fight entries, oldest first: what the two readings below read."""
    found = Roll.objects.filter(
        campaign_id=campaign_id,
        session_id=running_session_id(campaign_id),
        kind=Roll.Kind.CONTEST,
        snapshot__has_key="fight",
    ).order_by("-pk")
    return list(reversed(found[:RECENT]))


def _acting(roll: Roll) -> set[int]:
    """The characters who acted in a fight entry: its sides (a target who does not evade is not
    one)."""
    return {side.get("character") for side in roll.snapshot.get("sides", [])} - {None}


def _phase(roll: Roll) -> str:
    return str(roll.snapshot["fight"].get("phase", MELEE))


def _at(side: str) -> int:
    """Where a side of a melee exchange is in its entry's sides."""
    return 0 if side == rules.ATTACKER else 1


def pending_manoeuvres(
    campaign_id: int, fights: list[Roll] | None = None
) -> dict[int, Outmanoeuvred]:
    """Opponents (by character id) who take -1 in their next action."""
    fights = recent_fights(campaign_id) if fights is None else fights
    pending: dict[int, Outmanoeuvred] = {}
    for at, roll in enumerate(fights):
        if _phase(roll) != MANOEUVRE:
            pending = {
                opponent: held
                for opponent, held in pending.items()
                if opponent not in _acting(roll)
            }
            continue
        exchange = next((f for f in fights[:at] if f.pk == roll.follows_id), None)
        if not roll.succeeded or exchange is None:
            continue
        opponent = exchange.snapshot["sides"][1 - _at(roll.snapshot["fight"]["side"])]
        if opponent.get("character") is not None:
            by = roll.snapshot["sides"][0]["name"]
            held = Outmanoeuvred(roll.pk, by, opponent["character"], opponent["name"])
            pending[held.opponent] = held
    return pending


def open_manoeuvres(campaign_id: int, fights: list[Roll] | None = None) -> list[OpenManoeuvre]:
    """Successful All-Out Defenses not yet followed by a test, whose defender has not acted
    since: newest first."""
    fights = recent_fights(campaign_id) if fights is None else fights
    tested = {
        (roll.follows_id, roll.snapshot["fight"].get("side"))
        for roll in fights
        if _phase(roll) == MANOEUVRE
    }
    found: list[dict[str, Any]] = []
    for at, roll in enumerate(fights):
        sides = roll.snapshot.get("sides", [])
        for side in roll.snapshot["fight"].get("defended", []):
            defender = sides[_at(side)]
            later = (_acting(f) for f in fights[at + 1 :] if _phase(f) != MANOEUVRE)
            gone = defender.get("character") is None
            if gone or (roll.pk, side) in tested or any(defender["character"] in a for a in later):
                continue
            opponent = sides[1 - _at(side)]["name"]
            found.append({"roll": roll, "side": side, "defender": defender, "opponent": opponent})
    ids = {entry["defender"]["character"] for entry in found}
    traits: dict[int, list[tuple[int, str]]] = {pk: [] for pk in ids}
    # Roles first: the test is "of a role which would grant Perception or Tactics abilities".
    rows = Trait.objects.filter(character_id__in=ids).order_by("name")
    for trait in sorted(rows, key=lambda t: t.kind != Trait.Kind.ROLE):
        traits[trait.character_id].append((trait.pk, trait.name))
    return [
        OpenManoeuvre(
            entry["roll"],
            entry["side"],
            entry["defender"]["character"],
            entry["defender"]["name"],
            entry["opponent"],
            traits[entry["defender"]["character"]],
        )
        for entry in reversed(found)
        if traits[entry["defender"]["character"]]  # none: gone, or nothing to test with
    ]
