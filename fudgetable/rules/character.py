"""EZFudge derived character values.

Seed: EZFudge Essentials, "Making Characters" (Attributes, Mass Scale, Gifts, Faults, Other
Numbers, Weapons and Armor). Attributes are plain ladder ints (Mediocre 0, Fair +1, ...).
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from fudgetable.rules.data import flag, integer, is_int, items, obj, optional_integer, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop

ATTRIBUTE_NAMES = (
    gettext_noop("Body"),
    gettext_noop("Agility"),
    gettext_noop("Mind"),
    gettext_noop("Will"),
)

# A modifier with no situation applies all the time (Toughness: +1 to CPD); one with a
# situation is for the GM to apply when it fits (Single-minded: +1 to any lengthy task).
CPD = "CPD"
INJ = "INJ"


@dataclass(frozen=True)
class ArmorType:
    name: str
    bonus: int
    or_more: bool = False  # the seed's "+5 (or more)" for advanced tech


ARMOR_TABLE: tuple[ArmorType, ...] = (
    ArmorType(gettext_noop("Leather jacket"), 1),
    ArmorType(gettext_noop("Martial arts gi"), 1),
    ArmorType(gettext_noop("Light bullet-proof vest"), 2),
    ArmorType(gettext_noop("Hardened leather armor"), 2),
    ArmorType(gettext_noop("Chain mail"), 3),
    ArmorType(gettext_noop("Scale mail"), 3),
    ArmorType(gettext_noop("Heavy bullet-proof vest"), 3),
    ArmorType(gettext_noop("Plate armor"), 4),
    ArmorType(gettext_noop("Heavy bullet-proof vest with composite inserts"), 4),
    ArmorType(gettext_noop("Advanced tech (sci-fi, etc.)"), 5, or_more=True),
)


@dataclass(frozen=True)
class MeleeWeaponType:
    description: str
    damage_factor: int


MELEE_WEAPON_TABLE: tuple[MeleeWeaponType, ...] = (
    MeleeWeaponType(gettext_noop("No helpful fighting role and unarmed"), -1),
    MeleeWeaponType(gettext_noop("Helpful fighting role but unarmed"), 0),
    MeleeWeaponType(gettext_noop("Small, blunt (blackjack, brass knuckles)"), 0),
    MeleeWeaponType(gettext_noop("Small, sharp (knife)"), 1),
    MeleeWeaponType(gettext_noop("Medium 1-handed, blunt (baton)"), 1),
    MeleeWeaponType(
        gettext_noop("Medium 1-handed, sharp (short sword, fencing weapon, hand axe)"), 2
    ),
    MeleeWeaponType(gettext_noop("Medium 2-handed, blunt (quarterstaff)"), 2),
    MeleeWeaponType(gettext_noop("Large 1-handed, blunt (club)"), 2),
    MeleeWeaponType(gettext_noop("Large 2-handed, blunt (heavy club)"), 3),
    MeleeWeaponType(gettext_noop("Large 1-handed, sharp (broadsword)"), 3),
    MeleeWeaponType(gettext_noop("Large 2-handed, sharp (greatsword, battle axe)"), 4),
)


@dataclass(frozen=True)
class GunType:
    name: str
    inj_choices: tuple[int, ...]  # "0 or 1": the GM settles which one a given weapon has


SELF_POWERED_WEAPON_TABLE: tuple[GunType, ...] = (
    GunType(gettext_noop("Pocket Handgun (unhelpful at range)"), (0, 1)),
    GunType(gettext_noop("Small Handgun"), (2, 3)),
    GunType(gettext_noop("Large Handgun"), (4, 5)),
    GunType(gettext_noop("Light Rifle"), (3, 4)),
    GunType(gettext_noop("Medium Rifle"), (5, 6)),
    GunType(gettext_noop("Assault Rifle"), (7, 8)),
    GunType(gettext_noop("Anti-Tank Weapon"), (10,)),
)


@dataclass(frozen=True)
class Modifier:
    """A +1 or -1 a gift or fault gives to a target (a trait name, "CPD", "INJ", ...)."""

    target: str
    amount: int
    situation: str = ""

    def __post_init__(self) -> None:
        if not self.target.strip():
            raise RulesError("modifier.target", gettext_noop("name what the modifier applies to"))
        if self.amount not in (-1, 1):
            raise RulesError("modifier.amount", gettext_noop("a gift or fault gives +1 or -1"))

    @property
    def always(self) -> bool:
        return not self.situation.strip()

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "amount": self.amount, "situation": self.situation}

    @classmethod
    def from_dict(cls, data: object) -> "Modifier":
        d = obj(data, "modifier")
        return cls(
            text(d, "target", "modifier"),
            integer(d, "amount", "modifier"),
            text(d, "situation", "modifier", ""),
        )


@dataclass(frozen=True)
class Gift:
    """An unranked advantage. A supernormal gift counts as at least two regular gifts."""

    name: str
    modifiers: tuple[Modifier, ...] = ()
    supernormal: bool = False

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesError("gift.name", gettext_noop("a gift needs a name"))
        if any(m.amount < 0 for m in self.modifiers):
            raise RulesError("gift.modifiers", gettext_noop("a gift only gives bonuses"))

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "modifiers": [m.to_dict() for m in self.modifiers],
            "supernormal": self.supernormal,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Gift":
        d = obj(data, "gift")
        supernormal = flag(d, "supernormal", "gift")
        mods = tuple(Modifier.from_dict(m) for m in items(d, "modifiers", "gift"))
        return cls(text(d, "name", "gift"), mods, supernormal)


@dataclass(frozen=True)
class Fault:
    """An unranked limitation, sometimes a -1 in stated situations."""

    name: str
    modifiers: tuple[Modifier, ...] = ()

    def __post_init__(self) -> None:
        if not self.name.strip():
            raise RulesError("fault.name", gettext_noop("a fault needs a name"))
        if any(m.amount > 0 for m in self.modifiers):
            raise RulesError("fault.modifiers", gettext_noop("a fault only gives penalties"))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "modifiers": [m.to_dict() for m in self.modifiers]}

    @classmethod
    def from_dict(cls, data: object) -> "Fault":
        d = obj(data, "fault")
        mods = tuple(Modifier.from_dict(m) for m in items(d, "modifiers", "fault"))
        return cls(text(d, "name", "fault"), mods)


def standing_modifier(target: str, gifts: Iterable[Gift], faults: Iterable[Fault]) -> int:
    """Sum of the always-on gift and fault modifiers to ``target``."""
    mods = [m for g in gifts for m in g.modifiers] + [m for f in faults for m in f.modifiers]
    return sum(m.amount for m in mods if m.target == target and m.always)


@dataclass(frozen=True)
class Attributes:
    body: int = 1
    agility: int = 1
    mind: int = 1
    will: int = 1

    def __post_init__(self) -> None:
        for name in ("body", "agility", "mind", "will"):
            value = getattr(self, name)
            if not is_int(value):
                raise RulesError(
                    f"attributes.{name}", gettext_noop("must be a ladder level (a whole number)")
                )

    # Floor division rounds toward minus infinity, which is "rounding fractions down" also
    # for characters with negative attributes: (-1 + 0) / 2 = -0.5 -> -1.
    @property
    def resilience(self) -> int:
        return (self.body + self.will) // 2

    @property
    def reflexes(self) -> int:
        return (self.agility + self.mind) // 2

    def to_dict(self) -> dict[str, int]:
        return {"body": self.body, "agility": self.agility, "mind": self.mind, "will": self.will}

    @classmethod
    def from_dict(cls, data: object) -> "Attributes":
        d = obj(data, "attributes")
        keys = ("body", "agility", "mind", "will")
        return cls(*(integer(d, key, "attributes") for key in keys))


@dataclass(frozen=True)
class Weapon:
    """A carried weapon: muscle-powered (a damage factor) or self-powered (its own INJ), used in
    melee or at range.

    Two things the seed keeps apart, so the sheet keeps them apart too: what powers the blow
    ("For weapons you power with your own strength, INJ = Body + Mass Scale + the damage
    factor", said under both of its weapon tables) and where it is used ("hitting" in melee
    reach, "shooting" at range). A bow, a sling or a javelin is powered by its wielder's
    strength and used at range: a damage factor and ``ranged``. A self-powered weapon (a gun)
    is always used at range, so ``ranged`` is set for it whatever the caller says."""

    name: str
    damage_factor: int | None = None
    inj: int | None = None
    quality: bool = False  # quality or unique weapons "might be one higher"
    ranged: bool = False  # shot or thrown: used in the ranged phase, not in melee

    def __post_init__(self) -> None:
        if (self.damage_factor is None) == (self.inj is None):
            raise RulesError(
                "weapon", gettext_noop("give either a damage factor or a self-powered INJ")
            )
        if self.inj is not None and self.inj < 0:
            raise RulesError("weapon.inj", gettext_noop("must not be negative"))
        if self.inj is not None and not self.ranged:
            object.__setattr__(self, "ranged", True)  # a gun shoots: there is no melee gun

    @property
    def self_powered(self) -> bool:
        return self.inj is not None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "damage_factor": self.damage_factor,
            "inj": self.inj,
            "quality": self.quality,
            "ranged": self.ranged,
        }

    @classmethod
    def from_dict(cls, data: object) -> "Weapon":
        d = obj(data, "weapon")
        factor = optional_integer(d, "damage_factor", "weapon")
        inj = optional_integer(d, "inj", "weapon")
        quality = flag(d, "quality", "weapon")
        ranged = flag(d, "ranged", "weapon")
        return cls(text(d, "name", "weapon"), factor, inj, quality, ranged)


def combined_personal_defense(
    resilience: int, *, armor_bonus: int = 0, mass_scale: int = 0, other: int = 0
) -> int:
    """CPD = armor bonus + mass scale + Resilience + other defence modifiers."""
    if armor_bonus < 0:
        raise RulesError("armor_bonus", gettext_noop("armor never lowers defence"))
    return armor_bonus + mass_scale + resilience + other


def melee_inj(body: int, damage_factor: int, *, mass_scale: int = 0, quality: bool = False) -> int:
    """INJ of a weapon powered by the wielder's own strength."""
    return body + mass_scale + damage_factor + (1 if quality else 0)


@dataclass(frozen=True)
class EzCharacter:
    """The parts of an EZFudge sheet that the derived numbers come from."""

    attributes: Attributes = field(default_factory=Attributes)
    mass_scale: int = 0
    armor_bonus: int = 0
    gifts: tuple[Gift, ...] = ()
    faults: tuple[Fault, ...] = ()

    def __post_init__(self) -> None:
        if self.armor_bonus < 0:
            raise RulesError("armor_bonus", gettext_noop("armor never lowers defence"))

    @property
    def resilience(self) -> int:
        return self.attributes.resilience

    @property
    def reflexes(self) -> int:
        return self.attributes.reflexes

    @property
    def cpd(self) -> int:
        other = standing_modifier(CPD, self.gifts, self.faults)
        return combined_personal_defense(
            self.resilience, armor_bonus=self.armor_bonus, mass_scale=self.mass_scale, other=other
        )

    def inj(self, weapon: Weapon) -> int:
        """The weapon's INJ for this character, counting always-on INJ gifts and faults."""
        other = standing_modifier(INJ, self.gifts, self.faults)
        if weapon.inj is not None:
            return weapon.inj + other
        assert weapon.damage_factor is not None  # guaranteed by Weapon.__post_init__
        base = melee_inj(
            self.attributes.body,
            weapon.damage_factor,
            mass_scale=self.mass_scale,
            quality=weapon.quality,
        )
        return base + other

    def to_dict(self) -> dict[str, Any]:
        return {
            "attributes": self.attributes.to_dict(),
            "mass_scale": self.mass_scale,
            "armor_bonus": self.armor_bonus,
            "gifts": [g.to_dict() for g in self.gifts],
            "faults": [f.to_dict() for f in self.faults],
        }

    @classmethod
    def from_dict(cls, data: object) -> "EzCharacter":
        d = obj(data, "character")
        return cls(
            attributes=Attributes.from_dict(d.get("attributes")),
            mass_scale=integer(d, "mass_scale", "character"),
            armor_bonus=integer(d, "armor_bonus", "character"),
            gifts=tuple(Gift.from_dict(g) for g in items(d, "gifts", "character")),
            faults=tuple(Fault.from_dict(f) for f in items(d, "faults", "character")),
        )
