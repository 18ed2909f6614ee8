"""The five preset rulesets, each default taken from its seed (docs/rules.md names them)."""

from collections.abc import Mapping

from fudgetable.rules.building import DISTRIBUTIONS, Distribution
from fudgetable.rules.criticals import FUDGE_1995_CRITICALS
from fudgetable.rules.ladder import get_ladder
from fudgetable.rules.resolution import ModifierPolicy, Outcome
from fudgetable.rules.rulesets.model import (
    AdvancementTable,
    BuildMethod,
    BuildRules,
    Ruleset,
    TraitScheme,
)
from fudgetable.rules.tracks import LITE_INJURY_TRACK
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import EZ_WOUND_TRACK

# Starting trait lists, from the seeds' own suggestions; a GM edits them per campaign.
TRAIT_LISTS: Mapping[str, tuple[str, ...]] = {
    gettext_noop("Fudge Lite base traits"): (
        "Athletics",
        "Melee Combat",
        "Persuasion",
        "Physical Awareness",
        "Ranged Combat",
        "Social Awareness",
        "Stealth",
        "Streetwise",
    ),
    gettext_noop("Fudge Lite fantasy additions"): (
        "Cultural Knowledge",
        "Dungeoneering",
        "Languages",
        "Magic",
        "Magic Lore",
        "Magic Resistance",
        "Nature",
        "Thievery",
    ),
    gettext_noop("Fudge Lite sci-fi additions"): (
        "Galactic Knowledge",
        "Hacking",
        "Languages",
        "Psionics",
        "Psionic Lore",
        "Psionic Resistance",
        "Repair",
        "Starship Use",
    ),
    gettext_noop("Body, Mind, Soul"): ("Body", "Mind", "Soul"),
    gettext_noop("Physical, Mental, Social"): ("Physical", "Mental", "Social"),
    gettext_noop("Approaches"): ("Careful", "Clever", "Flashy", "Forceful", "Quick", "Sneaky"),
    gettext_noop("Might, Speed, Intellect"): ("Might", "Speed", "Intellect"),
    gettext_noop("EZFudge fantasy roles"): (
        "Archer",
        "Burglar",
        "Cleric",
        "Fighter",
        "Scholar",
        "Wizard",
    ),
    gettext_noop("EZFudge modern roles"): (
        "Beat Cop",
        "Computer Hacker",
        "Con Artist",
        "Doctor",
        "Pilot",
    ),
    gettext_noop("Fate skills (the seed's examples)"): ("Contacting", "Streetwise"),
}

_LITE_DISTRIBUTION = DISTRIBUTIONS["1 Superb, 2 Great, 3 Good, 4 Fair, 5 Mediocre"]
# Fate's ladder puts Average at +1, so its levels sit one higher: 1 Great (+4) … 4 Average (+1).
_FATE_DISTRIBUTION = Distribution.of({4: 1, 3: 2, 2: 3, 1: 4})

_PRESET_LIST = (
    Ruleset(
        key="fudge-lite",
        label="Fudge Lite",
        ladder=get_ladder("fudge-lite"),
        dice="4dF",
        opposed_dice="4dF",
        default_difficulty=1,  # Fair
        trait_scheme=TraitScheme.LADDER_TRAITS,
        trait_list=TRAIT_LISTS["Fudge Lite base traits"],
        build=BuildRules(BuildMethod.DISTRIBUTION, _LITE_DISTRIBUTION),
        advancement=AdvancementTable.FUDGE_LITE,
        injury_track=LITE_INJURY_TRACK,
        wound_track=None,
        modifier_policy=ModifierPolicy.LARGEST,
        opposed_tie=Outcome.SUCCESS,  # "A tie or better means the roller succeeds", opposed too
    ),
    Ruleset(
        key="ezfudge",
        label="EZFudge",
        ladder=get_ladder("ezfudge"),
        dice="4dF",
        opposed_dice="4dF",
        default_difficulty=1,
        trait_scheme=TraitScheme.ROLES_ATTRIBUTES,
        trait_list=TRAIT_LISTS["EZFudge fantasy roles"],
        build=BuildRules(BuildMethod.EZ_POINTS, budget=30),
        advancement=AdvancementTable.EZFUDGE,
        injury_track=None,
        wound_track=EZ_WOUND_TRACK,
        modifier_policy=ModifierPolicy.SUM,
        opposed_tie=Outcome.DRAW,
        xp_per_session=0,
    ),
    Ruleset(
        key="fudge-1995",
        label="Fudge 1995",
        ladder=get_ladder("fudge-1995"),
        dice="4dF",
        opposed_dice="4dF",
        default_difficulty=1,
        trait_scheme=TraitScheme.LADDER_TRAITS,
        trait_list=TRAIT_LISTS["Fudge Lite base traits"],
        build=BuildRules(BuildMethod.DISTRIBUTION, _LITE_DISTRIBUTION),
        advancement=AdvancementTable.FUDGE_LITE,
        injury_track=LITE_INJURY_TRACK,
        wound_track=None,
        modifier_policy=ModifierPolicy.CAPPED,
        opposed_tie=Outcome.STATUS_QUO,
        critical_table=FUDGE_1995_CRITICALS,  # 3.6's sample, rows 2-8; criticals stay off
        npc_roll="4dF",
        xp_per_session=0,
    ),
    Ruleset(
        key="fate",
        label=gettext_noop("Fate (Fudge edition)"),
        ladder=get_ladder("fate"),
        dice="4dF",
        opposed_dice="4dF",
        default_difficulty=2,  # Fair sits at +2 on Fate's ladder
        trait_scheme=TraitScheme.SKILLS,
        trait_list=TRAIT_LISTS["Fate skills (the seed's examples)"],
        build=BuildRules(BuildMethod.DISTRIBUTION, _FATE_DISTRIBUTION),
        advancement=AdvancementTable.FUDGE_LITE,
        injury_track=LITE_INJURY_TRACK,
        wound_track=None,
        modifier_policy=ModifierPolicy.SUM,
        opposed_tie=Outcome.TIE,
        npc_roll="4dF",
        xp_per_session=0,
    ),
    Ruleset(
        key="peupfudge",
        label="Peupfudge",
        ladder=get_ladder("peupfudge"),
        dice="4dF",
        opposed_dice="3dF",  # Peupfudge 2: opposed actions default to 3dF
        default_difficulty=0,  # D is set per task; 0 is what an untrained character manages
        trait_scheme=TraitScheme.ABILITIES,
        trait_list=("Strength", "Climbing", "Cartography", "Legal Knowledge"),
        build=BuildRules(BuildMethod.STARTING_XP, starting_xp=50),  # the seed's example campaign
        advancement=AdvancementTable.PEUPFUDGE,
        injury_track=None,  # Peupfudge tracks harm through statuses, not boxes
        wound_track=None,
        modifier_policy=ModifierPolicy.SUM,
        opposed_tie=Outcome.TIE,
        npc_roll="3dF",
        xp_per_session=0,
        starting_fudge_points=0,
        fudge_point_uses=(),
    ),
)
PRESETS: Mapping[str, Ruleset] = {ruleset.key: ruleset for ruleset in _PRESET_LIST}
DEFAULT_KEY = "fudge-lite"

# Fudge Lite's "GM Moves": what the GM can do when the table needs something to happen. Every
# campaign starts with them at hand and edits them to fit its game.
GM_MOVES: tuple[str, ...] = (
    gettext_noop("Use an NPC's default behaviour"),
    gettext_noop("Reveal an unwelcome truth"),
    gettext_noop("Announce future badness"),
    gettext_noop("Inflict an injury"),
    gettext_noop("Offer an opportunity, with or without a cost"),
    gettext_noop("Put a character in a spot"),
    gettext_noop("Tell them the requirements or consequences and ask"),
    gettext_noop("Make a countdown and mark a box"),
    gettext_noop("Advance a countdown"),
)
