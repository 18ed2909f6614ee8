"""EZFudge fight scenes: one melee exchange between two fighters, and the wound it deals.

Seed: EZFudge Essentials "Fight Scenes". The Combat Round, step 2: the Melee Phase "is just a
contest action, with two wrinkles": both sides must be at Poor (-1) or better ("You can't do
damage with a Terrible (-2) rank!"), and an outcome of 0 is a draw; the GM gives -1 or -2 to
the fighter in a worse position. "Optional Rule: Tactics": All-Out Attack and All-Out Defend.
Step 4: a wound taken is marked now. "Damage Roll Options" 1-4, a campaign setting
(``Ruleset.damage_options``; the seed offers all four as optional, so none is on by default).
"Weapons and Armor": INJ and CPD, and the unarmed damage factors. Damage is margin + INJ - CPD
(``wounds.damage``), read on the campaign's wound track.

The Melee Phase flowchart is a picture that did not survive; where the text is terse:
- "Poor or better" is the rank of the trait each side fights with, before modifiers: the seed
  gives a rank as its reason, and a contest's difficulty is "the rank of the trait being used".
- The contest is symmetrical: whoever wins wounds the other, with the winner's INJ against the
  loser's CPD (the tactics speak of a "character wound" when the foe succeeds).
- All-Out Attack: +1 to the fighter; winning adds +1 to the foe's wound; not winning, a tie
  counts as the foe's success and the foe gets +2 to this fighter's wound. Two all-out
  attackers who tie both land a blow, each with the +2.
- All-Out Defend: +2 to the fighter, who cannot injure the foe at all this round (not even
  with option 3's Scratch).
- "+1 to foe wound" and "+2 to character wound" are points of damage, as option 2's die is
  "added to any wound calculation".
- Option 1's "Superb roll" is the dice showing +4 or better: the seed keeps the roll apart from
  the result. Option 4 counts "no wound" as the rung below the track's first level.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from fudgetable.rules import odds, tracks, wounds
from fudgetable.rules.character import Weapon
from fudgetable.rules.data import choice, is_int
from fudgetable.rules.dice import RandomSource, Roll, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import (
    PLAIN_OPPOSED_RULES,
    ActionRules,
    OpposedOutcome,
    Outcome,
    Side,
    npc_roll_method,
    resolve_opposed,
)
from fudgetable.rules.rulesets import DAMAGE_OPTIONS, Ruleset
from fudgetable.rules.sheet import Sheet, _ez_character
from fudgetable.rules.sheet_tracks import CONDITION, WOUNDS, State, Template
from fudgetable.rules.tracks import ConditionTrack, TrackState
from fudgetable.rules.wounds import WoundState, WoundTrack

POOR, SUPERB = -1, 4
POSITIONS = (0, -1, -2)  # "only apply a -1 or -2 to the fighter at disadvantage"
SUPERB_ROLL, EXTRA_DIE, TIE_SCRATCHES, SHIFT_DIE = 1, 2, 3, 4  # the seed's option numbers
ATTACKER, DEFENDER = "attacker", "defender"
# "No helpful fighting role and unarmed -1"; "Helpful fighting role but unarmed 0".
UNARMED_FACTOR = {False: -1, True: 0}


class Tactic(StrEnum):
    NONE = "none"
    ALL_OUT_ATTACK = "all-out-attack"
    ALL_OUT_DEFEND = "all-out-defend"


TACTICS = {
    Tactic.NONE: "No tactic",
    Tactic.ALL_OUT_ATTACK: "All-Out Attack",
    Tactic.ALL_OUT_DEFEND: "All-Out Defend",
}
TACTIC_BONUS = {Tactic.NONE: 0, Tactic.ALL_OUT_ATTACK: 1, Tactic.ALL_OUT_DEFEND: 2}
WINNING_ATTACK = 1  # an All-Out Attack that succeeds: +1 to the foe's wound
EXPOSED = 2  # one that does not: the foe gets +2 to the attacker's wound


@dataclass(frozen=True)
class Fighter:
    """One side of the exchange: the rank fought with, the INJ in hand, CPD, and choices."""

    level: int
    inj: int
    cpd: int
    tactic: Tactic = Tactic.NONE
    position: int = 0  # the GM's -1 or -2 for a worse position

    def __post_init__(self) -> None:
        object.__setattr__(self, "tactic", choice(Tactic, self.tactic, "tactic"))
        for name in ("level", "inj", "cpd"):
            if not is_int(getattr(self, name)):
                raise RulesError(name, "must be a whole number")
        if self.position not in POSITIONS:
            raise RulesError("position", "a worse position gives -1 or -2, nothing else")

    @property
    def modifiers(self) -> tuple[int, ...]:
        return tuple(m for m in (self.position, TACTIC_BONUS[self.tactic]) if m)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "inj": self.inj,
            "cpd": self.cpd,
            "tactic": self.tactic.value,
            "position": self.position,
        }


@dataclass(frozen=True)
class WoundDice:
    """The Fudge dice the damage options roll for the wound one fighter may take."""

    damage: int = 0  # option 2: added to the wound calculation
    shift: int = 0  # option 4: shifts the wound level

    def __post_init__(self) -> None:
        if self.damage not in (-1, 0, 1) or self.shift not in (-1, 0, 1):
            raise RulesError("dice", "a Fudge die shows -1, 0 or +1")


@dataclass(frozen=True)
class Wound:
    """A blow that landed on ``to`` and what it comes to; ``level`` None: no wound."""

    to: str
    margin: int
    inj: int
    cpd: int
    bonus: int  # All-Out Attack's +1 or +2
    die: int  # option 2
    damage: int | None  # None for option 3's Scratch, which is not calculated
    level: int | None
    level_name: str
    shift: int = 0  # option 4, as it moved the level
    superb: bool = False  # option 1 made it a Scratch
    tie_scratch: bool = False  # option 3

    def to_dict(self) -> dict[str, Any]:
        return {
            "to": self.to,
            "margin": self.margin,
            "inj": self.inj,
            "cpd": self.cpd,
            "bonus": self.bonus,
            "die": self.die,
            "damage": self.damage,
            "level": self.level,
            "level_name": self.level_name,
            "shift": self.shift,
            "superb": self.superb,
            "tie_scratch": self.tie_scratch,
        }


@dataclass(frozen=True)
class Exchange:
    """A melee exchange. ``outcome`` is the attacker's; ``result`` says who landed a blow:
    attacker, defender, both (two all-out attackers tied) or draw."""

    attacker: Fighter
    defender: Fighter
    outcome: OpposedOutcome
    result: str
    wounds: tuple[Wound, ...]
    options: tuple[int, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "attacker": self.attacker.to_dict(),
            "defender": self.defender.to_dict(),
            "outcome": self.outcome.to_dict(),
            "result": self.result,
            "wounds": [wound.to_dict() for wound in self.wounds],
            "options": list(self.options),
        }


def check_fighters(attacker: Fighter, defender: Fighter) -> None:
    for where, fighter in ((ATTACKER, attacker), (DEFENDER, defender)):
        if fighter.level < POOR:
            raise RulesError(
                f"{where}.level",
                f"the {where} fights at a rank below Poor: in melee both sides must be at "
                "Poor or better (you can't do damage with a Terrible rank)",
            )


def check_options(options: Iterable[int]) -> tuple[int, ...]:
    chosen = tuple(sorted(set(options)))
    for option in chosen:
        if option not in DAMAGE_OPTIONS:
            raise RulesError("damage_options", f"{option!r} is not one of 1, 2, 3, 4")
    return chosen


def melee_rules(rules: ActionRules) -> ActionRules:
    """The campaign's contest rules, with the melee wrinkle: an outcome of 0 is a draw."""
    return replace(rules, tie=Outcome.DRAW)


def _shift(track: WoundTrack, level: int | None, by: int) -> int | None:
    rung = (-1 if level is None else level) + by
    rung = min(rung, len(track.levels) - 1)
    return None if rung < 0 else rung


def _wound(
    track: WoundTrack,
    hitter: Fighter,
    hitter_roll: int,
    target: Fighter,
    to: str,
    margin: int,
    dice: WoundDice,
    options: tuple[int, ...],
) -> Wound | None:
    if hitter.tactic is Tactic.ALL_OUT_DEFEND:
        return None  # "cannot injure the foe at all in the round"
    bonus = WINNING_ATTACK if hitter.tactic is Tactic.ALL_OUT_ATTACK and margin > 0 else 0
    if target.tactic is Tactic.ALL_OUT_ATTACK:
        bonus += EXPOSED
    die = dice.damage if EXTRA_DIE in options else 0
    amount = wounds.damage(margin, hitter.inj, target.cpd) + bonus + die
    level = wounds.level_for_damage(track, amount)
    shift = dice.shift if SHIFT_DIE in options else 0
    level = _shift(track, level, shift)
    superb = SUPERB_ROLL in options and hitter_roll >= SUPERB and level is None
    if superb:
        level = 0
    name = "" if level is None else track.levels[level].name
    return Wound(to, margin, hitter.inj, target.cpd, bonus, die, amount, level, name, shift, superb)


def exchange(
    track: WoundTrack,
    attacker: Fighter,
    defender: Fighter,
    *,
    attacker_roll: int,
    defender_roll: int,
    rules: ActionRules = PLAIN_OPPOSED_RULES,
    options: Iterable[int] = (),
    to_attacker: WoundDice | None = None,
    to_defender: WoundDice | None = None,
) -> Exchange:
    """Resolve one melee exchange from the rolls already made (the dice are the caller's)."""
    check_fighters(attacker, defender)
    chosen = check_options(options)
    outcome = resolve_opposed(
        active=Side(attacker.level, attacker_roll, attacker.modifiers),
        passive=Side(defender.level, defender_roll, defender.modifiers),
        rules=melee_rules(rules),
    )
    fighters = {ATTACKER: (attacker, attacker_roll), DEFENDER: (defender, defender_roll)}
    foe = {ATTACKER: DEFENDER, DEFENDER: ATTACKER}
    margin = outcome.relative_degree
    if margin > 0:
        hits = [(ATTACKER, margin)]
    elif margin < 0:
        hits = [(DEFENDER, -margin)]
    else:
        # An all-out attacker's tie counts as the foe's success.
        hits = [
            (foe[side], 0)
            for side, (fighter, _) in fighters.items()
            if fighter.tactic is Tactic.ALL_OUT_ATTACK
        ]
    dice = {ATTACKER: to_attacker or WoundDice(), DEFENDER: to_defender or WoundDice()}
    found: list[Wound | None] = []
    for hitter, by in hits:
        target = foe[hitter]
        (striker, roll), (struck, _) = fighters[hitter], fighters[target]
        found.append(_wound(track, striker, roll, struck, target, by, dice[target], chosen))
    if not hits and TIE_SCRATCHES in chosen:
        scratch = track.levels[0].name
        for target, (struck, _) in fighters.items():
            striker = fighters[foe[target]][0]
            if striker.tactic is not Tactic.ALL_OUT_DEFEND:
                tied = Wound(target, 0, striker.inj, struck.cpd, 0, 0, None, 0, scratch)
                found.append(replace(tied, tie_scratch=True))
    result = "draw" if not hits else hits[0][0] if len(hits) == 1 else "both"
    dealt = tuple(wound for wound in found if wound is not None)
    return Exchange(attacker, defender, outcome, result, dealt, chosen)


@dataclass(frozen=True)
class RolledExchange:
    """An exchange with the dice that made it and the attacker's chance to win beforehand."""

    exchange: Exchange
    attacker_dice: Roll
    defender_dice: Roll
    chance: Fraction

    def to_dict(self) -> dict[str, Any]:
        return {
            "exchange": self.exchange.to_dict(),
            "attacker_dice": self.attacker_dice.to_dict(),
            "defender_dice": self.defender_dice.to_dict(),
            "chance": str(self.chance),
        }


def dice_for(ruleset: Ruleset, *, npc: bool) -> str:
    """A PC rolls the campaign's opposed dice; an NPC by its NPC roll mode (EZFudge: none,
    "all foe or NPC rolls ... would be zero")."""
    return npc_roll_method(ruleset.npc_roll).key if npc else ruleset.opposed_dice


def fight(
    ruleset: Ruleset,
    attacker: Fighter,
    defender: Fighter,
    *,
    attacker_is_npc: bool = False,
    defender_is_npc: bool = False,
    rng: RandomSource | None = None,
) -> RolledExchange:
    """Roll one melee exchange under the campaign's rules, wound track and damage options."""
    track = ruleset.wound_track
    if track is None:
        raise RulesError("wound_track", f"{ruleset.label} here has no wound track to fight on")
    check_fighters(attacker, defender)
    methods = dice_for(ruleset, npc=attacker_is_npc), dice_for(ruleset, npc=defender_is_npc)
    attacker_dice, defender_dice = (get_method(method).roll(rng) for method in methods)
    options = ruleset.damage_options

    def wound_dice() -> WoundDice:
        die = get_method("1dF")
        damage = die.roll(rng).total if EXTRA_DIE in options else 0
        shift = die.roll(rng).total if SHIFT_DIE in options else 0
        return WoundDice(damage, shift)

    rules = ruleset.opposed_rules
    result = exchange(
        track,
        attacker,
        defender,
        attacker_roll=attacker_dice.total,
        defender_roll=defender_dice.total,
        rules=rules,
        options=options,
        to_attacker=wound_dice(),
        to_defender=wound_dice(),
    )
    chance = odds.opposed_success_chance(
        *methods,
        active_level=attacker.level,
        passive_level=defender.level,
        active_modifiers=attacker.modifiers,
        passive_modifiers=defender.modifiers,
        rules=melee_rules(rules),
    )
    return RolledExchange(result, attacker_dice, defender_dice, chance)


# --- a fighter's numbers from the sheet -------------------------------------------------


def cpd_of(sheet: Sheet) -> int:
    return _ez_character(sheet).cpd


def inj_of(sheet: Sheet, weapon: Weapon | None, *, fighting_role: bool) -> int:
    """The INJ a fighter strikes with: the weapon's, or bare hands' (damage factor 0 with a
    helpful fighting role, else -1). Melee is fists and muscle-powered weapons only."""
    if weapon is not None and weapon.self_powered:
        raise RulesError("weapon", f"{weapon.name} is self-powered: it shoots in the ranged phase")
    if weapon is None:
        weapon = Weapon("Unarmed", damage_factor=UNARMED_FACTOR[fighting_role])
    return _ez_character(sheet).inj(weapon)


# --- marking the wound ----------------------------------------------------------------------


@dataclass(frozen=True)
class Marked:
    """What marking a wound did to a sheet's track."""

    track: str  # the sheet's track key: "wounds" or, for an NPC, "condition"
    state: State
    level_name: str  # the level marked (a full level promotes the wound), "" if none
    boxes: int  # boxes marked
    overflow: bool  # no room left: the GM rules what happens


def npc_boxes_for(level: int) -> int:
    """An NPC keeps one condition track (Fudge Lite "NPCs"): a wound marks one box per rung,
    Scratch 1 up to Near Death 5, as Fudge Lite's option marks boxes by effect."""
    return level + 1


def wound_track_key(templates: dict[str, Template]) -> str:
    """The track a wound goes on: the wound track, or an NPC's condition track."""
    for key in (WOUNDS, CONDITION):
        if key in templates:
            return key
    raise RulesError("track", "this sheet has no wound or condition track")


def mark_wound(key: str, template: Template, state: State, level: int, name: str) -> Marked:
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        taken = wounds.take_wound(template, state, level)
        marked = "" if taken.level is None else template.levels[taken.level].name
        return Marked(key, taken.state, marked, int(taken.level is not None), taken.overflow)
    assert isinstance(template, ConditionTrack) and isinstance(state, TrackState)
    wanted, free = npc_boxes_for(level), state.boxes.count(None)
    after = tracks.mark(template, state, count=wanted, name=name) if free else state
    return Marked(key, after, name if free else "", min(wanted, free), wanted > free)
