"""The demo tables: one campaign per ruleset, two finished PCs built to its rules, and a few
NPCs, mostly from the seeds' own examples. Read by the ``demo`` command (the leading underscore
keeps Django from taking this module for a command)."""

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fudgetable.rules.tracks import LITE_PENALTY_TRACK

TERRIBLE, POOR, MEDIOCRE, FAIR, GOOD, GREAT, SUPERB = -2, -1, 0, 1, 2, 3, 4
# Fate's ladder puts Average at +1, so its rungs above sit one higher.
AVERAGE, FATE_FAIR, FATE_GOOD, FATE_GREAT = 1, 2, 3, 4
GIFT, FAULT = "gift", "fault"
STATUS, PROPERTY, CHARACTERISTIC = "status", "property", "characteristic"


@dataclass(frozen=True)
class Feature:
    kind: str  # GIFT or FAULT
    name: str
    target: str = ""
    amount: int = 0
    situation: str = ""


@dataclass(frozen=True)
class Item:
    name: str
    quantity: int = 1
    note: str = ""
    contents: tuple["Item", ...] = ()


@dataclass(frozen=True)
class Sheet:
    name: str
    description: str = ""
    notes: str = ""
    traits: tuple[tuple[str, int], ...] = ()  # levels; EZFudge attributes and roles too
    specialties: Mapping[str, str] = field(default_factory=dict)  # EZFudge role -> specialty
    allocate: tuple[tuple[str, int], ...] = ()  # Peupfudge: starting XP put toward abilities
    features: tuple[Feature, ...] = ()
    gear: tuple[Mapping[str, Any], ...] = ()  # gear_add's keywords
    items: tuple[Item, ...] = ()
    details: tuple[tuple[str, str, str, int], ...] = ()  # (kind, name, value, modifier)
    npc_boxes: int | None = None  # an NPC's condition track; None for a PC


@dataclass(frozen=True)
class Table:
    name: str
    ruleset: str
    pitch: str
    pcs: Mapping[str, Sheet]  # player's username -> their character
    npcs: tuple[Sheet, ...]
    overrides: Mapping[str, Any] = field(default_factory=dict)


def names(text: str) -> list[str]:
    return text.split(", ")


def ranked(levels: Mapping[int, str]) -> tuple[tuple[str, int], ...]:
    """Traits by level, the way a build reads: {GREAT: "Persuasion, Social Awareness"}."""
    return tuple((name, level) for level, text in levels.items() for name in names(text))


def _npc(name: str, boxes: int, behaviour: str, **sheet: Any) -> Sheet:
    return Sheet(name, notes=f"Behaviour: {behaviour}", npc_boxes=boxes, **sheet)


# --- Fudge Lite: 1 Superb, 2 Great, 3 Good, 4 Fair, 5 Mediocre over the base traits ---------

DROWNED_LIGHTHOUSE = Table(
    name="Demo: The Drowned Lighthouse",
    ruleset="fudge-lite",
    # The seed's own example of "Condition Penalties": Hurt -1, Very Hurt -2.
    overrides={"injury_track": LITE_PENALTY_TRACK.to_dict()},
    pitch="The light on Gull Rock went dark a week ago. Ships are breaking on the reef.",
    pcs={
        "alice": Sheet(
            "Marisol Vance",
            "The keeper's daughter, back to find out why her father's lamp went out.",
            traits=ranked(
                {
                    SUPERB: "Physical Awareness",
                    GREAT: "Persuasion, Social Awareness",
                    GOOD: "Athletics, Stealth",
                    FAIR: "Melee Combat, Streetwise",
                    MEDIOCRE: "Ranged Combat",
                }
            ),
            features=(Feature(GIFT, "Never gets seasick"), Feature(FAULT, "Afraid of deep water")),
            items=(
                Item("Oilskin coat", note="worn"),
                Item(
                    "Satchel",
                    contents=(Item("Storm lantern"), Item("Tinderbox"), Item("Rope", note="50 ft")),
                ),
            ),
        ),
        "bob": Sheet(
            "Old Tom Harrow",
            "A smuggler who knows the reef better than he lets on.",
            traits=ranked(
                {
                    SUPERB: "Melee Combat",
                    GREAT: "Athletics, Streetwise",
                    GOOD: "Physical Awareness, Ranged Combat, Stealth",
                    FAIR: "Persuasion",
                    MEDIOCRE: "Social Awareness",
                }
            ),
            features=(Feature(GIFT, "Owns a fast boat"), Feature(FAULT, "Wanted by the excise")),
            items=(
                Item("Cutlass"),
                Item("Flask of rum"),
                Item("Pouch", contents=(Item("Coins", 12),)),
            ),
        ),
    },
    npcs=(
        _npc(
            "Captain Mags",
            4,
            "Show a false light on the rocks. Bargain, then betray.",
            description="The wreckers' captain, all smiles and salt.",
            traits=(("Melee Combat", GREAT), ("Streetwise", GOOD), ("Persuasion", FAIR)),
            features=(Feature(GIFT, "Knows every reef on the coast"), Feature(FAULT, "Greedy")),
        ),
        _npc(
            "Drowned sailor",
            1,
            "Grab someone and drag them toward the water.",
            traits=(("Melee Combat", FAIR),),
        ),
        # Fudge Lite's example Giant Spider, nesting in the lamp room.
        _npc(
            "Giant Spider",
            2,
            "Spin sticky webs to catch prey, paralyse it with venom, then cocoon it.",
            traits=(("Body", GREAT),),
            features=(Feature(GIFT, "Paralyzing venom in fangs"), Feature(GIFT, "Webspinning")),
        ),
    ),
)

# --- EZFudge: 30 build points; Jason Free is the seed's own worked example ------------------

EAST_MARCH = Table(
    name="Demo: Jason Free in the East March",
    ruleset="ezfudge",
    pitch="Light-hearted low fantasy: hired staffs, border barons and bandits on the old road.",
    pcs={
        "alice": Sheet(
            "Jason Free",
            "A wandering do-gooder with a quarterstaff for hire.",
            traits=ranked(
                {
                    GREAT: "Body, Quarterstaff for Hire",
                    GOOD: "Agility, Mind, Will, Woodsman",
                    FAIR: "Historian, Rider",
                    MEDIOCRE: "Camp Cook",
                }
            ),
            specialties={"Historian": "the East March"},
            features=(
                Feature(GIFT, "Toughness", target="CPD", amount=1),
                Feature(FAULT, "Mercenary Code of Ethics"),
            ),
            gear=(
                {"kind": "armor", "name": "Leather armour", "armor_bonus": 1},
                {"kind": "weapon", "name": "Quarterstaff", "damage_factor": 2},
                {"kind": "weapon", "name": "Knife", "damage_factor": 1},
            ),
            items=(
                Item("Adventurer's pack", contents=(Item("Bedroll"), Item("Cooking supplies"))),
            ),
        ),
        "bob": Sheet(
            "Wren Ashdown",
            "A burglar who reads old maps for the treasure marked on them.",
            traits=ranked(
                {
                    FAIR: "Body, Scholar, Rider",
                    GREAT: "Agility, Burglar",
                    GOOD: "Mind, Will, Archer, Con Artist",
                }
            ),
            features=(
                Feature(GIFT, "Night Vision"),
                Feature(GIFT, "Lucky"),
                Feature(FAULT, "Greedy"),
                Feature(FAULT, "Curious"),
            ),
            gear=(
                {"kind": "armor", "name": "Hardened leather armour", "armor_bonus": 2},
                {"kind": "weapon", "name": "Short sword", "damage_factor": 2},
                # Her Archer role's bow: her own strength powers it, so a damage factor (the
                # seed's tables have no bow: a knife's +1), and it is shot.
                {"kind": "weapon", "name": "Short bow", "damage_factor": 1, "ranged": True},
            ),
            items=(Item("Lockpicks"), Item("Map case", contents=(Item("Old maps", 3),))),
        ),
    },
    npcs=(
        _npc(
            "Road bandit",
            2,
            "Demand a toll. Run when the first friend falls.",
            traits=(("Fighter", FAIR),),
        ),
        _npc(
            "Sergeant Brannoc",
            5,
            "Hold the bridge. Ask for papers nobody has.",
            description="The baron's sergeant at the river crossing.",
            traits=(("Fighter", GOOD), ("Rider", FAIR)),
            features=(Feature(FAULT, "Takes bribes"),),
        ),
    ),
)

# --- Fudge 1995: the same distribution, over traits from its chapter 3 examples -------------

DUKES_SECRET = Table(
    name="Demo: The Duke's Secret",
    ruleset="fudge-1995",
    pitch="Folk are reticent to talk about the duke to strangers. Find out why.",
    overrides={
        "trait_list": names(
            "Anthropology, Archery, Climbing, Dexterity, Perception, Persuasion, Research, "
            "Sleight of Hand, Strength, Will"
        )
    },
    pcs={
        "alice": Sheet(
            "Nathaniel",
            "An archer with a charming manner and a suspicion about the duke.",
            traits=ranked(
                {
                    SUPERB: "Persuasion",
                    GREAT: "Perception, Dexterity",
                    GOOD: "Archery, Sleight of Hand",
                    FAIR: "Climbing, Will",
                    MEDIOCRE: "Strength",
                }
            ),
            features=(Feature(GIFT, "Charismatic", target="Reaction", amount=1),),
            items=(Item("Longbow"), Item("Quiver", contents=(Item("Arrows", 20),))),
        ),
        "bob": Sheet(
            "Verne",
            "A scholar researching an obscure local ritual.",
            traits=ranked(
                {
                    SUPERB: "Perception",
                    GREAT: "Will, Persuasion",
                    GOOD: "Research, Anthropology",
                    FAIR: "Climbing, Strength",
                    MEDIOCRE: "Dexterity",
                }
            ),
            features=(Feature(FAULT, "Absent-minded"),),
            items=(Item("Satchel", contents=(Item("Notebooks", 3), Item("Pencil stubs", 5))),),
        ),
    },
    npcs=(
        _npc(
            "Parri",
            3,
            "Lead the way. Lower a rope for whoever falls behind.",
            description="A mountain guide.",
            traits=(("Climbing", GREAT), ("Perception", GOOD)),
        ),
        _npc(
            "Vegetable seller",
            1,
            "Chatter about the weather; let slip one thing too many.",
            traits=(("Persuasion", FAIR),),
        ),
        _npc(
            "The Duke",
            4,
            "Smile in public. Send men at night.",
            traits=(("Persuasion", GREAT), ("Will", GOOD)),
            features=(Feature(FAULT, "Corrupt"),),
        ),
    ),
)

# --- Fate: a pyramid of 1 Great, 2 Good, 3 Fair, 4 Average over ten skills --------------------

OLD_CITY = Table(
    name="Demo: Rumours of the Old City",
    ruleset="fate",
    pitch="Every rumour in the city has a price; some are worth it.",
    overrides={
        "trait_list": names(
            "Athletics, Burglary, Contacting, Deceit, Empathy, Fists, Investigation, Lore, "
            "Rapport, Streetwise"
        )
    },
    pcs={
        "alice": Sheet(
            "Dana Sharpe",
            "A private investigator with friends in low places.",
            traits=ranked(
                {
                    FATE_GREAT: "Investigation",
                    FATE_GOOD: "Contacting, Empathy",
                    FATE_FAIR: "Rapport, Lore, Streetwise",
                    AVERAGE: "Athletics, Deceit, Fists, Burglary",
                }
            ),
            items=(Item("Notebook"), Item("Coat", contents=(Item("Lock knife"), Item("Matches")))),
        ),
        "bob": Sheet(
            "Rook",
            "A cat burglar who hears things on rooftops.",
            traits=ranked(
                {
                    FATE_GREAT: "Burglary",
                    FATE_GOOD: "Deceit, Athletics",
                    FATE_FAIR: "Streetwise, Fists, Contacting",
                    AVERAGE: "Investigation, Empathy, Rapport, Lore",
                }
            ),
            items=(Item("Climbing rope"), Item("Tool roll", contents=(Item("Picks", 6),))),
        ),
    },
    npcs=(
        _npc(
            "Scully the informant",
            1,
            "Sell the same rumour twice.",
            traits=(("Contacting", FATE_GOOD),),
        ),
        _npc(
            "Inspector Gale",
            4,
            "Turn up one step behind the PCs, and ask why.",
            traits=(("Investigation", FATE_GREAT), ("Fists", FATE_FAIR)),
        ),
    ),
)

# --- Peupfudge: 50 starting XP; Kotorikh and Obazana are appendix C's example 2 --------------


def _energy() -> tuple[str, str, str, int]:
    return (STATUS, "Energy", "Tired", -1)  # both start Tired from the journey


BENEATH_THE_MOUNTAINS = Table(
    name="Demo: Beneath the Mountains",
    ruleset="peupfudge",
    pitch="Clues of an ancient civilisation underground, and a metal unknown to anyone alive.",
    overrides={"trait_list": ["Muscle", "Charisma", "Perception", "Knowledge"]},
    pcs={
        "alice": Sheet(
            "Kotorikh",
            "A keen and curious archaeologist from a distant village.",
            allocate=(("Perception", 19), ("Knowledge", 31)),
            details=(
                (CHARACTERISTIC, "Profession", "Archaeologist", 0),
                (PROPERTY, "Talented observer", "", 0),
                _energy(),
            ),
            items=(
                Item(
                    "Pack",
                    note="on back",
                    contents=(
                        Item("Magnifying glass"),
                        Item("Map"),
                        Item("Plant guidebook"),
                        Item("Book of olde myths"),
                        Item("Sheets of parchment", 8),
                        Item("Vial of ink", note="full"),
                        Item("Quill"),
                        Item("Old shovel", note="worn"),
                        Item("Sling"),
                        Item("Pouch", contents=(Item("Stones", 12),)),
                    ),
                ),
            ),
        ),
        "bob": Sheet(
            "Obazana",
            "A skilled blacksmith who hopes to arm the king's royal guard.",
            allocate=(("Muscle", 21), ("Charisma", 13), ("Perception", 7), ("Knowledge", 9)),
            details=(
                (CHARACTERISTIC, "Profession", "Blacksmith", 0),
                (PROPERTY, "Wealthy", "", 0),
                _energy(),
            ),
            items=(
                Item("Iron armour", note="worn"),
                Item(
                    "Pack",
                    contents=(
                        Item("Iron sword", note="quality"),
                        Item("Iron axe", note="quality"),
                        Item("Pocket knife"),
                        Item("Shard of flint"),
                        Item("Smithing hammer"),
                        Item("Whetstone"),
                        Item("Pouch", contents=(Item("Rare jewels", 10),)),
                    ),
                ),
            ),
        ),
    },
    npcs=(
        # Appendix C, example 4.
        _npc(
            "Nyrv",
            3,
            "Race anyone for anything shiny.",
            traits=(("Fitness", 5),),
            details=((PROPERTY, "Poor low-light vision", "", -1),),
        ),
        _npc(
            "Jewel thief",
            2,
            "Strike while the PCs sleep outside.",
            traits=(("Perception", 3), ("Muscle", 2)),
        ),
    ),
)

TABLES = (DROWNED_LIGHTHOUSE, EAST_MARCH, DUKES_SECRET, OLD_CITY, BENEATH_THE_MOUNTAINS)
