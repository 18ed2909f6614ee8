"""Starter NPCs for the GM's roster, a few per preset ruleset, written for FudgeTable.

Each template fits its ruleset's trait scheme: ladder traits for Fudge Lite and Fudge 1995,
skills for Fate (whose ladder puts Average at +1, so Fair is +2), EZFudge's four attributes
plus roles, and Peupfudge abilities at plain whole-number levels. Levels are ladder values.
Minor foes get 1 or 2 condition boxes; the ones who matter get up to a PC's track.

EZFudge's templates carry their armour and weapons as a sheet does (``gear_add``'s data), so
an NPC made from one fights with them: the seed's tables give the numbers ("Weapons and
Armor"); a bow, which they lack, takes a knife's damage factor and is marked shot or thrown.
The other presets' rules do not read armour bonuses or damage factors, so theirs carry none.
"""

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class NpcFeature:
    """A gift (amount 0 or more) or fault (amount 0 or less), perhaps only in a situation."""

    name: str
    amount: int = 0
    target: str = ""
    situation: str = ""


@dataclass(frozen=True)
class NpcGear:
    """Armour (a bonus to CPD) or a weapon (a damage factor, or its own INJ), as a sheet's
    gear row holds it: ``gear_add``'s keywords."""

    kind: str  # "armor" or "weapon"
    name: str
    armor_bonus: int | None = None
    damage_factor: int | None = None
    inj: int | None = None
    quality: bool = False
    ranged: bool = False  # shot or thrown: a bow


def armour(name: str, bonus: int) -> NpcGear:
    return NpcGear("armor", name, armor_bonus=bonus)


def weapon(name: str, factor: int, *, ranged: bool = False) -> NpcGear:
    """A weapon powered by its wielder's strength: INJ = Body + Mass Scale + ``factor``."""
    return NpcGear("weapon", name, damage_factor=factor, ranged=ranged)


@dataclass(frozen=True)
class NpcTemplate:
    key: str
    name: str
    description: str  # public: what players read once the GM reveals the NPC
    traits: tuple[tuple[str, int], ...]  # (name, level)
    gifts: tuple[NpcFeature, ...]
    faults: tuple[NpcFeature, ...]
    behaviours: tuple[str, ...]  # GM moves the NPC suggests
    npc_boxes: int
    gear: tuple[NpcGear, ...] = ()  # armour and weapons, as on a sheet


_FUDGE_LITE = (
    NpcTemplate(
        key="bandit",
        name="Road bandit",
        description="A hungry robber in a patched hood who would rather threaten than fight.",
        traits=(("Melee Combat", 1), ("Stealth", 1), ("Ranged Combat", 0), ("Streetwise", 0)),
        gifts=(),
        faults=(NpcFeature("Loses heart when outnumbered", -1, "Melee Combat", "outnumbered"),),
        behaviours=(
            "Demand a toll for using the road.",
            "Shoot from the bushes, then vanish between the trees.",
            "Bolt the moment a companion goes down.",
        ),
        npc_boxes=1,
    ),
    NpcTemplate(
        key="town-guard",
        name="Town guard",
        description="A bored sentry in a dented helmet, leaning on a spear at the gate.",
        traits=(("Melee Combat", 2), ("Physical Awareness", 1), ("Athletics", 1)),
        gifts=(NpcFeature("Backed by the watch"),),
        faults=(NpcFeature("Overworked and underpaid"),),
        behaviours=(
            "Ask for names and business in town.",
            "Blow a whistle and hold the line until help comes.",
            "Look the other way for a coin, once.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="wolf",
        name="Grey wolf",
        description="A lean grey wolf with a torn ear, watching from just past the firelight.",
        traits=(("Athletics", 3), ("Physical Awareness", 2), ("Melee Combat", 1), ("Stealth", 1)),
        gifts=(NpcFeature("Keen nose", 1, "Physical Awareness", "following a scent"),),
        faults=(NpcFeature("An animal: no speech, no tools"),),
        behaviours=(
            "Circle the one who looks weakest.",
            "Howl, and let the pack answer.",
            "Slink off into the dark once badly hurt.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="scheming-noble",
        name="Scheming noble",
        description="A smiling courtier in velvet who always seems to know your name already.",
        traits=(("Persuasion", 3), ("Social Awareness", 2), ("Streetwise", 1)),
        gifts=(NpcFeature("Rich and well connected"),),
        faults=(NpcFeature("Cannot bear to be laughed at"),),
        behaviours=(
            "Offer a favour with a hook in it.",
            "Speak only through servants and go-betweens.",
            "Set two rivals at each other's throats.",
            "Step behind the guards when steel comes out.",
        ),
        npc_boxes=4,
    ),
)

_EZFUDGE = (
    NpcTemplate(
        key="bandit",
        name="Hill bandit",
        description="A wiry outlaw with a short bow and a knife in each boot.",
        traits=(
            ("Body", 1),
            ("Agility", 2),
            ("Mind", 0),
            ("Will", 0),
            ("Archer", 1),
            ("Burglar", 1),
        ),
        gifts=(),
        faults=(NpcFeature("Greedy"),),
        behaviours=(
            "Rain arrows from the ridge before anyone gets close.",
            "Grab the nearest purse and run.",
            "Beg for mercy, then try the knife.",
        ),
        npc_boxes=2,
        gear=(
            armour("Leather jacket", 1),  # the seed's armour table: +1
            weapon("Short bow", 1, ranged=True),  # no bow in the seed's tables: a knife's +1
            weapon("Knife", 1),  # "Small, sharp (knife) +1"
        ),
    ),
    NpcTemplate(
        key="town-guard",
        name="Gate sergeant",
        description="A broad veteran in a mail shirt who has heard every excuse twice.",
        traits=(("Body", 2), ("Agility", 1), ("Mind", 1), ("Will", 1), ("Fighter", 2)),
        gifts=(NpcFeature("Sturdy", 1, "CPD"),),
        faults=(NpcFeature("Follows orders to the letter"),),
        behaviours=(
            "Bar the gate and call out the watch.",
            "Make an example of the loudest troublemaker.",
            "Keep a written list of faces to watch.",
        ),
        npc_boxes=3,
        gear=(
            armour("Chain mail", 3),  # the mail shirt: "Chain mail +3"
            weapon("Short sword", 2),  # "Medium 1-handed, sharp (short sword ...) +2"
        ),
    ),
    NpcTemplate(
        key="wolf",
        name="Forest wolf",
        description="A rangy wolf, ribs showing, that has lost its fear of people.",
        traits=(("Body", 1), ("Agility", 3), ("Mind", -1), ("Will", 1), ("Hunter", 2)),
        gifts=(NpcFeature("Keen nose", 1, "Hunter", "tracking"),),
        faults=(NpcFeature("An animal: no speech, no tools"),),
        behaviours=(
            "Drag down whoever strays from the group.",
            "Keep pace in the dark, just out of sight.",
            "Flee when fire is waved at it.",
        ),
        npc_boxes=2,
        gear=(weapon("Teeth", 1),),  # small and sharp, as the table's knife: +1
    ),
    NpcTemplate(
        key="hedge-wizard",
        name="Hedge wizard",
        description="A stooped figure in a moth-eaten robe, fingers stained with ink and ash.",
        traits=(
            ("Body", 0),
            ("Agility", 1),
            ("Mind", 3),
            ("Will", 2),
            ("Wizard", 3),
            ("Scholar", 2),
        ),
        gifts=(NpcFeature("Knows a spell for every small trouble"),),
        faults=(NpcFeature("Proud beyond all sense"),),
        behaviours=(
            "Trade a secret for a worse one.",
            "Curse whoever laughs at the tower.",
            "Hide behind an illusion and slip away.",
        ),
        npc_boxes=6,
        gear=(weapon("Quarterstaff", 2),),  # "Medium 2-handed, blunt (quarterstaff) +2"
    ),
)

_FUDGE_1995 = (
    NpcTemplate(
        key="cutpurse",
        name="Cutpurse",
        description="A quick-eyed youth who is always somewhere near the busiest stall.",
        traits=(("Stealth", 2), ("Streetwise", 2), ("Athletics", 1), ("Melee Combat", -1)),
        gifts=(NpcFeature("Light fingers", 1, "Stealth", "in a crowd"),),
        faults=(),
        behaviours=(
            "Bump into someone and walk off richer.",
            "Vanish into the crowd at the first shout.",
            "Sell what they overheard to whoever pays.",
        ),
        npc_boxes=1,
    ),
    NpcTemplate(
        key="town-guard",
        name="Watch sergeant",
        description="A grizzled officer with a lantern, a club and very little patience.",
        traits=(
            ("Melee Combat", 2),
            ("Physical Awareness", 2),
            ("Social Awareness", 1),
            ("Persuasion", 0),
        ),
        gifts=(NpcFeature("Authority of the city watch"),),
        faults=(NpcFeature("Holds a grudge"),),
        behaviours=(
            "Demand to see papers, and find something wrong with them.",
            "Send a runner for more watchmen.",
            "Drag the slowest suspect off to the cells.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="wild-boar",
        name="Wild boar",
        description="A bristling boar with yellow tusks, furious at being disturbed.",
        traits=(("Melee Combat", 2), ("Athletics", 1), ("Physical Awareness", 1)),
        gifts=(NpcFeature("Thick hide"),),
        faults=(NpcFeature("An animal: charges without thinking"),),
        behaviours=(
            "Charge straight at whoever moves first.",
            "Crash off through the undergrowth, then come back.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="court-wizard",
        name="Court wizard",
        description="A thin advisor in grey silk who speaks softly and never blinks first.",
        traits=(("Persuasion", 3), ("Social Awareness", 3), ("Streetwise", 1)),
        gifts=(NpcFeature("Spellcasting"), NpcFeature("The ruler's ear")),
        faults=(NpcFeature("Secretly afraid of the dark"),),
        behaviours=(
            "Whisper a rumour into the right ear.",
            "Answer a question with a question.",
            "Let others take the blame in public.",
            "Seal a door with a word and walk away.",
        ),
        npc_boxes=4,
    ),
)

# Fate's Fudge edition: Average +1, Fair +2, Good +3, Great +4.
_FATE = (
    NpcTemplate(
        key="thug",
        name="Hired thug",
        description="A heavy-set bruiser in a cheap coat, cracking his knuckles on cue.",
        traits=(("Fists", 2), ("Intimidation", 1), ("Athletics", 1)),
        gifts=(),
        faults=(NpcFeature("Not paid enough to die"),),
        behaviours=(
            "Loom over someone and say nothing.",
            "Grab an arm and steer them to the door.",
            "Leave once the fight turns.",
        ),
        npc_boxes=1,
    ),
    NpcTemplate(
        key="informant",
        name="Informant",
        description="A nervous clerk who hears everything at the harbour office.",
        traits=(("Contacting", 3), ("Streetwise", 2), ("Stealth", 1), ("Deceit", 1)),
        gifts=(NpcFeature("Friends in every tavern", 1, "Contacting", "near the docks"),),
        faults=(NpcFeature("Talks too much when scared"),),
        behaviours=(
            "Trade a name for protection.",
            "Tell the other side too.",
            "Go missing at the worst moment.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="guard-dog",
        name="Guard dog",
        description="A scarred mastiff on a long chain, ears up at every footstep.",
        traits=(("Alertness", 3), ("Fists", 2), ("Athletics", 2)),
        gifts=(NpcFeature("Sharp nose", 1, "Alertness", "smelling intruders"),),
        faults=(NpcFeature("An animal: can be bribed with meat"),),
        behaviours=("Bark until the whole house wakes.", "Hold on and do not let go."),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="crime-boss",
        name="Crime boss",
        description="A courteous merchant who owns half the warehouses and most of the judges.",
        traits=(
            ("Resources", 4),
            ("Intimidation", 3),
            ("Contacting", 3),
            ("Deceit", 2),
            ("Leadership", 2),
        ),
        gifts=(NpcFeature("A small army on the payroll"),),
        faults=(NpcFeature("Sentimental about family"),),
        behaviours=(
            "Invite the heroes to dinner, and lock the door.",
            "Buy the witness before the trial.",
            "Make an offer that is hard to refuse.",
            "Punish failure in front of everyone.",
        ),
        npc_boxes=4,
    ),
)

# Peupfudge levels are plain numbers: 3 is a trained hand, 5 an expert, 7 a master.
_PEUPFUDGE = (
    NpcTemplate(
        key="bandit",
        name="Bandit",
        description="A scarred outlaw with a notched sword and a gap-toothed grin.",
        traits=(("Strength", 3), ("Climbing", 2), ("Swordplay", 3), ("Sneaking", 3)),
        gifts=(),
        faults=(NpcFeature("Drinks before every raid"),),
        behaviours=(
            "Block the path from both sides.",
            "Cut the purse strings, not the throat, if possible.",
            "Scatter when the leader falls.",
        ),
        npc_boxes=1,
    ),
    NpcTemplate(
        key="town-guard",
        name="Town guard",
        description="A guard in a faded tabard, a spear in one hand and an apple in the other.",
        traits=(("Strength", 3), ("Spear Fighting", 4), ("Alertness", 3)),
        gifts=(NpcFeature("Sworn to the council"),),
        faults=(NpcFeature("Easily distracted"),),
        behaviours=(
            "Ring the alarm bell.",
            "Ask awkward questions about the cart's cargo.",
        ),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="wolf",
        name="Wolf",
        description="A silent wolf that has followed the party since the river crossing.",
        traits=(("Strength", 2), ("Running", 5), ("Tracking", 5), ("Biting", 4)),
        gifts=(NpcFeature("Keen nose", 1, "Tracking"),),
        faults=(NpcFeature("An animal: no speech, no tools"),),
        behaviours=("Wait for the camp to fall asleep.", "Snap and fall back, again and again."),
        npc_boxes=2,
    ),
    NpcTemplate(
        key="magistrate",
        name="Corrupt magistrate",
        description="A plump judge with ink on his cuffs and a ledger nobody else may read.",
        traits=(("Legal Knowledge", 6), ("Persuasion", 5), ("Bribery", 4), ("Cartography", 2)),
        gifts=(NpcFeature("Can sign an arrest warrant"),),
        faults=(NpcFeature("Terrified of the duke's auditors"),),
        behaviours=(
            "Find an old law that makes the heroes' deed a crime.",
            "Delay everything until a fee is paid.",
            "Blame a clerk.",
        ),
        npc_boxes=4,
    ),
)

TEMPLATES: Mapping[str, tuple[NpcTemplate, ...]] = {
    "fudge-lite": _FUDGE_LITE,
    "ezfudge": _EZFUDGE,
    "fudge-1995": _FUDGE_1995,
    "fate": _FATE,
    "peupfudge": _PEUPFUDGE,
}


def templates_for(ruleset_key: str) -> tuple[NpcTemplate, ...]:
    return TEMPLATES.get(ruleset_key, ())


def find_template(ruleset_key: str, key: str) -> NpcTemplate | None:
    return next((t for t in templates_for(ruleset_key) if t.key == key), None)
