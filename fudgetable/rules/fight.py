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

"Melee Optional Rules" (the ranged phase reuses the wound and the aimed strike, ``ranged.py``):
- Pulling your punch sets "a highest possible wound effect": ``Fighter.pull`` is the worst
  level the fighter's blow may deal, any wound above it "counted as" that level, after every
  damage option has had its say.
- An aimed strike takes the GM's modifier and may need "a really good action outcome":
  ``Aim.needs`` is the least margin that puts the blow where it was aimed. A blow that wounds
  with less lands where "the foe decides". What the strike does is the GM's, so it is words at
  the table, not a number here.
- "A successful All-Out Defense followed by a Fair (+1) or better test" (of a role granting
  Perception or Tactics, the GM's call) gives the opponent -1 in the following round:
  ``defended`` says which sides may test; the defender was successful when the foe neither won
  nor wounded them. ``Fighter.outmanoeuvred`` carries the -1.
"""

from collections.abc import Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from fractions import Fraction
from typing import Any

from fudgetable.rules import odds, tracks, wounds
from fudgetable.rules.blows import (
    TIE_SCRATCHES,
    Aim,
    Wound,
    WoundDice,
    check_options,
    check_pull,
    roll_wound_dice,
    wound,
)
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
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.sheet import Sheet, _ez_character
from fudgetable.rules.sheet_tracks import CONDITION, WOUNDS, State, Template
from fudgetable.rules.tracks import ConditionTrack, TrackState
from fudgetable.rules.words import Words, gettext_noop
from fudgetable.rules.wounds import WoundState, WoundTrack

POOR = -1
POSITIONS = (0, -1, -2)  # "only apply a -1 or -2 to the fighter at disadvantage"
ATTACKER, DEFENDER = gettext_noop("attacker"), gettext_noop("defender")
# "No helpful fighting role and unarmed -1"; "Helpful fighting role but unarmed 0".
UNARMED_FACTOR = {False: -1, True: 0}


class Tactic(StrEnum):
    NONE = "none"
    ALL_OUT_ATTACK = "all-out-attack"
    ALL_OUT_DEFEND = "all-out-defend"


TACTICS = {
    Tactic.NONE: gettext_noop("No tactic"),
    Tactic.ALL_OUT_ATTACK: gettext_noop("All-Out Attack"),
    Tactic.ALL_OUT_DEFEND: gettext_noop("All-Out Defend"),
}
TACTIC_BONUS = {Tactic.NONE: 0, Tactic.ALL_OUT_ATTACK: 1, Tactic.ALL_OUT_DEFEND: 2}
WINNING_ATTACK = 1  # an All-Out Attack that succeeds: +1 to the foe's wound
EXPOSED = 2  # one that does not: the foe gets +2 to the attacker's wound
MANOEUVRE_DIFFICULTY = 1  # "a Fair (+1) or better test"
OUTMANOEUVRED = -1  # "the opponent would have a -1 mod to their action"


@dataclass(frozen=True)
class Fighter:
    """One side of the exchange: the rank fought with, the INJ in hand, CPD, and choices."""

    level: int
    inj: int
    cpd: int
    tactic: Tactic = Tactic.NONE
    position: int = 0  # the GM's -1 or -2 for a worse position
    pull: int | None = None  # the worst wound level this fighter's blow may deal
    aim: Aim | None = None
    outmanoeuvred: bool = False  # the foe's All-Out Defense manoeuvre: -1 this round

    def __post_init__(self) -> None:
        object.__setattr__(self, "tactic", choice(Tactic, self.tactic, "tactic"))
        for name in ("level", "inj", "cpd"):
            if not is_int(getattr(self, name)):
                raise RulesError(name, gettext_noop("must be a whole number"))
        if self.position not in POSITIONS:
            raise RulesError(
                "position", gettext_noop("a worse position gives -1 or -2, nothing else")
            )
        check_pull(self.pull)

    @property
    def modifiers(self) -> tuple[int, ...]:
        aim = 0 if self.aim is None else self.aim.modifier
        moved = OUTMANOEUVRED if self.outmanoeuvred else 0
        return tuple(m for m in (self.position, TACTIC_BONUS[self.tactic], aim, moved) if m)

    def to_dict(self) -> dict[str, Any]:
        return {
            "level": self.level,
            "inj": self.inj,
            "cpd": self.cpd,
            "tactic": self.tactic.value,
            "position": self.position,
            "pull": self.pull,
            "aim": None if self.aim is None else self.aim.to_dict(),
            "outmanoeuvred": self.outmanoeuvred,
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
                gettext_noop(
                    "the %(where)s fights at a rank below Poor: in melee both sides must be at "
                    "Poor or better (you can't do damage with a Terrible rank)"
                ),
                where=Words(where),
            )


def melee_rules(rules: ActionRules) -> ActionRules:
    """The campaign's contest rules, with the melee wrinkle: an outcome of 0 is a draw."""
    return replace(rules, tie=Outcome.DRAW)


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
    return wound(
        track,
        to=to,
        margin=margin,
        inj=hitter.inj,
        cpd=target.cpd,
        roll=hitter_roll,
        dice=dice,
        options=options,
        bonus=bonus,
        pull=hitter.pull,
        aim=hitter.aim,
    )


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
    for fighter in (attacker, defender):
        check_pull(fighter.pull, track)
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
    dealt = tuple(blow for blow in found if blow is not None)
    return Exchange(attacker, defender, outcome, result, dealt, chosen)


def defended(done: Exchange) -> tuple[str, ...]:
    """The sides whose All-Out Defense succeeded: the foe neither won nor wounded them. Each
    may test a Perception or Tactics role against Fair to outmanoeuvre the foe."""
    fighters = {ATTACKER: done.attacker, DEFENDER: done.defender}
    return tuple(
        side
        for side, fighter in fighters.items()
        if fighter.tactic is Tactic.ALL_OUT_DEFEND
        and done.result in (side, "draw")
        and not any(blow.to == side and blow.level is not None for blow in done.wounds)
    )


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
        raise RulesError(
            "wound_track",
            gettext_noop("%(label)s here has no wound track to fight on"),
            label=ruleset.label,
        )
    check_fighters(attacker, defender)
    methods = dice_for(ruleset, npc=attacker_is_npc), dice_for(ruleset, npc=defender_is_npc)
    attacker_dice, defender_dice = (get_method(method).roll(rng) for method in methods)
    options = ruleset.damage_options
    rules = ruleset.opposed_rules
    result = exchange(
        track,
        attacker,
        defender,
        attacker_roll=attacker_dice.total,
        defender_roll=defender_dice.total,
        rules=rules,
        options=options,
        to_attacker=roll_wound_dice(options, rng),
        to_defender=roll_wound_dice(options, rng),
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
    helpful fighting role, else -1). Melee is fists and muscle-powered weapons only, and not
    those shot or thrown (a bow): "hitting", not "shooting"."""
    if weapon is not None and weapon.ranged:
        kind = "self-powered" if weapon.self_powered else "shot or thrown"
        raise RulesError(
            "weapon",
            gettext_noop("%(name)s is %(kind)s: it shoots in the ranged phase"),
            name=weapon.name,
            kind=kind,
        )
    if weapon is None:
        weapon = Weapon(gettext_noop("Unarmed"), damage_factor=UNARMED_FACTOR[fighting_role])
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
    raise RulesError("track", gettext_noop("this sheet has no wound or condition track"))


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
