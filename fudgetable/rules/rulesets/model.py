"""What a ruleset is: the bundle of choices one game makes, as an immutable value."""

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from fudgetable.rules import data
from fudgetable.rules.advancement import KeyAward
from fudgetable.rules.building import Distribution
from fudgetable.rules.criticals import CriticalTable
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder
from fudgetable.rules.resolution import ActionRules, Criticals, ModifierPolicy, Outcome
from fudgetable.rules.tracks import INCAPACITATED, ConditionTrack
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import DEFAULT_ERA, WoundTrack


class TraitScheme(StrEnum):
    LADDER_TRAITS = "ladder-traits"  # Fudge Lite, Fudge 1995: a list of traits on the ladder
    SKILLS = "skills"  # Fate: skills on Fate's ladder
    ROLES_ATTRIBUTES = "roles-attributes"  # EZFudge: roles, four attributes, mass scale
    ABILITIES = "abilities"  # Peupfudge: abilities with XP progress


class BuildMethod(StrEnum):
    DISTRIBUTION = "distribution"  # Fudge Lite: so many traits at each level, with trading
    ON_THE_FLY = "on-the-fly"  # Fudge Lite: slots filled the first time a trait is checked
    OVER_THE_EDGE = "over-the-edge"  # Fudge Lite quick build
    WUSHU = "wushu"  # Fudge Lite quick build
    EZ_POINTS = "ez-points"  # EZFudge: the creation flow, checked as point-buy
    STARTING_XP = "starting-xp"  # Peupfudge: starting XP spread over abilities


class AdvancementTable(StrEnum):
    FUDGE_LITE = "fudge-lite"
    EZFUDGE = "ezfudge"
    PEUPFUDGE = "peupfudge"


# The uses Fudge Lite offers for Fudge points; a campaign picks the ones its table allows.
FUDGE_POINT_USES = {
    "reroll": gettext_noop("Reroll a trait check"),
    "auto-success": gettext_noop("Succeed at an unopposed roll of Superb or lower difficulty"),
    "alter-by-one": gettext_noop("Alter a roll by 1"),
    "reduce-condition": gettext_noop("Reduce a condition by one level"),
    "failure-to-success": gettext_noop("Turn a failure into a success"),
    "plus-four": gettext_noop("Take a +4 result without rolling"),
    "coincidence": gettext_noop("Ensure a favourable coincidence"),
}

# EZFudge's "Damage Roll Options", by the seed's numbers; all optional, so none is on unless a
# campaign turns it on (fudgetable/rules/fight.py applies them).
DAMAGE_OPTIONS = {
    1: gettext_noop("A successful attack with a Superb roll always does at least a Scratch"),
    2: gettext_noop("Roll one Fudge die and add it to any wound calculation"),
    3: gettext_noop("If the melee actions tie, each fighter takes a Scratch"),
    4: gettext_noop(
        "After the wound calculation, a Fudge die's minus or plus shifts the wound down or up one"
    ),
}

MAX_TRAITS = 60
MAX_NAME = 80


@dataclass(frozen=True)
class BuildRules:
    method: BuildMethod
    distribution: Distribution | None = None  # for DISTRIBUTION
    budget: int = 30  # EZFudge build points for a standard character
    starting_xp: int = 0  # Peupfudge

    def to_dict(self) -> dict[str, Any]:
        return {
            "method": self.method.value,
            "distribution": self.distribution.to_dict() if self.distribution else None,
            "budget": self.budget,
            "starting_xp": self.starting_xp,
        }

    @classmethod
    def from_dict(cls, raw: object) -> "BuildRules":
        d = data.obj(raw, "build")
        data.only(d, {"method", "distribution", "budget", "starting_xp"}, "build")
        method = data.choice(BuildMethod, d.get("method"), "build.method")
        distribution = None
        if d.get("distribution") is not None:
            distribution = Distribution.from_dict(d["distribution"])
        elif method is BuildMethod.DISTRIBUTION:
            raise RulesError(
                "build.distribution", gettext_noop("a distribution build needs its slots")
            )
        budget = data.integer(d, "budget", "build", 30)
        starting_xp = data.integer(d, "starting_xp", "build", 0)
        if not 0 <= budget <= 200:
            raise RulesError("build.budget", gettext_noop("must be between 0 and 200 build points"))
        if not 0 <= starting_xp <= 10_000:
            raise RulesError("build.starting_xp", gettext_noop("must be between 0 and 10000 XP"))
        return cls(method, distribution, budget, starting_xp)


@dataclass(frozen=True)
class Ruleset:
    key: str
    label: str
    ladder: Ladder
    dice: str
    opposed_dice: str
    default_difficulty: int
    trait_scheme: TraitScheme
    trait_list: tuple[str, ...]
    build: BuildRules
    advancement: AdvancementTable
    injury_track: ConditionTrack | None
    wound_track: WoundTrack | None
    modifier_policy: ModifierPolicy
    opposed_tie: Outcome
    criticals: Criticals = Criticals.OFF
    # Fudge 1995 3.6: 2d6 rolled on it when a check or contest comes up critical; None: no table.
    critical_table: CriticalTable | None = None
    npc_roll: str = "none"
    xp_per_session: int = 1
    xp_on_a_miss: bool = False
    # Fudge Lite's optional XP at a session's end: keys (how they pay) and the GM's questions.
    key_award: KeyAward | None = None
    session_questions: tuple[str, ...] = ()
    starting_fudge_points: int = 3
    # EZFudge: Fudge points turn into XP at this rate (the seed's rate did not survive).
    fudge_points_per_xp: int = 3
    fudge_point_uses: tuple[str, ...] = ("reroll", "alter-by-one")
    damage_options: tuple[int, ...] = ()
    # EZFudge "Medical Care": the era sets how often a wound may be treated.
    medical_era: str = DEFAULT_ERA
    overrides: dict[str, Any] = field(default_factory=dict, compare=False)

    @property
    def static_rules(self) -> ActionRules:
        """How an action against a difficulty resolves: a tie or better succeeds."""
        return ActionRules(
            tie=Outcome.SUCCESS,
            modifiers=self.modifier_policy,
            criticals=self.criticals,
            floor=self.ladder.floor,
            ceiling=self.ladder.ceiling,
        )

    @property
    def opposed_rules(self) -> ActionRules:
        return replace(self.static_rules, tie=self.opposed_tie)

    @property
    def last_box(self) -> str:
        return self.injury_track.last_box if self.injury_track else INCAPACITATED

    def to_dict(self) -> dict[str, Any]:
        """Every setting in force, as JSON (for export and for the settings page)."""
        return {
            "ruleset": self.key,
            "ladder": self.ladder.to_dict(),
            "dice": self.dice,
            "opposed_dice": self.opposed_dice,
            "default_difficulty": self.default_difficulty,
            "trait_scheme": self.trait_scheme.value,
            "trait_list": list(self.trait_list),
            "build": self.build.to_dict(),
            "advancement": self.advancement.value,
            "injury_track": self.injury_track.to_dict() if self.injury_track else None,
            "wound_track": self.wound_track.to_dict() if self.wound_track else None,
            "modifier_policy": self.modifier_policy.value,
            "opposed_tie": self.opposed_tie.value,
            "criticals": self.criticals.value,
            "critical_table": self.critical_table.to_dict() if self.critical_table else None,
            "npc_roll": self.npc_roll,
            "xp_per_session": self.xp_per_session,
            "xp_on_a_miss": self.xp_on_a_miss,
            "key_award": self.key_award.value if self.key_award else None,
            "session_questions": list(self.session_questions),
            "starting_fudge_points": self.starting_fudge_points,
            "fudge_points_per_xp": self.fudge_points_per_xp,
            "fudge_point_uses": list(self.fudge_point_uses),
            "damage_options": list(self.damage_options),
            "medical_era": self.medical_era,
        }
