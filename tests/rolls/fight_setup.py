"""What the fight tests share: loaded Fudge dice, an EZFudge table, the seed's Jason Free and
an NPC brute to fight him, and the fight form as the table page posts it. Test modules take
the fixtures with ``from tests.rolls.fight_setup import *``."""

import pytest

from characters.models import Character, Gear, Trait
from characters.services import character_create, feature_add, gear_add, trait_add
from fudgetable.rules.dice import base as dice_base
from tests.rolls.conftest import fresh_key, set_rules

HTMX = {"HX-Request": "true"}


class LoadedDice:
    """A random source that throws the given Fudge dice faces (-1, 0, +1) in order."""

    def __init__(self, faces):
        self.faces = list(faces)

    def randint(self, a, b):
        return self.faces.pop(0)

    def shuffle(self, x):
        pass


@pytest.fixture
def dice(monkeypatch):
    def load(*faces):
        monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice(faces))

    return load


def attribute(character: Character, name: str, level: int) -> None:
    Trait.objects.filter(character=character, name=name).update(level=level)


@pytest.fixture
def ez(campaign):
    set_rules(campaign, "ezfudge")
    return campaign


@pytest.fixture
def jason(ez, member):
    """The seed's Jason Free: Great Quarterstaff for Hire, CPD 4, quarterstaff INJ 5."""
    pc = character_create(campaign=ez, owner=member, name="Jason Free")
    for name, level in (("Body", 3), ("Agility", 2), ("Mind", 2), ("Will", 2)):
        attribute(pc, name, level)
    trait_add(character=pc, name="Quarterstaff for Hire", level=3, kind="role")
    feature_add(character=pc, kind="gift", name="Toughness", target="CPD", amount=1)
    gear_add(character=pc, kind="armor", name="Leather armour", armor_bonus=1)
    gear_add(character=pc, kind="weapon", name="Quarterstaff", damage_factor=2)
    return pc


@pytest.fixture
def brute(ez):
    """An NPC the players have met (a fight's lines name him to them): Good Fighter, club
    (INJ 1 + 2 = 3), chain mail (CPD 1 + 3 = 4), four boxes."""
    npc = character_create(campaign=ez, owner=None, name="Brute", kind="npc", npc_boxes=4)
    npc.revealed = True
    npc.save(update_fields=["revealed"])
    trait_add(character=npc, name="Fighter", level=2, kind="role")
    gear_add(character=npc, kind="armor", name="Chain mail", armor_bonus=3)
    gear_add(character=npc, kind="weapon", name="Club", damage_factor=2)
    return npc


@pytest.fixture
def crossbow(brute):
    """A self-powered weapon for the Brute: INJ 5, verified by the GM as the seed asks."""
    return gear_add(character=brute, kind="weapon", name="Crossbow", inj=5)


def role(character: Character, name: str) -> Trait:
    return character.traits.get(name=name)


def weapon(character: Character) -> Gear:
    return character.gear.get(kind=Gear.Kind.WEAPON, ranged=False)


def ranged_form(shooter, shooter_trait, gun, shot_at, **extra) -> dict:
    """The ranged form as the fight panel posts it: no evade, short range, good light."""
    data = {
        "shooter": shooter.pk,
        "shooter_trait": shooter_trait.pk if shooter_trait else "untrained",
        "shooter_weapon": gun.pk,
        "target": shot_at.pk,
        "evade": "",
        "range": "S",
        "light": "good",
        "cover": "none",
        "difficulty": "",
        "key": fresh_key(),
    }
    data.update(extra)
    return data


def _armed(character: Character) -> bool:
    return character.gear.filter(kind="weapon", ranged=False).exists()


def fight_form(attacker, attacker_trait, defender, defender_trait, **extra) -> dict:
    data = {
        "attacker": attacker.pk,
        "attacker_trait": attacker_trait.pk if attacker_trait else "untrained",
        "attacker_weapon": weapon(attacker).pk if _armed(attacker) else "",
        "attacker_tactic": "none",
        "attacker_position": "0",
        "defender": defender.pk,
        "defender_trait": defender_trait.pk if defender_trait else "untrained",
        "defender_weapon": weapon(defender).pk if _armed(defender) else "",
        "defender_tactic": "none",
        "defender_position": "0",
        "key": fresh_key(),
    }
    data.update(extra)
    return data
