"""The defender's answer to an attack from the board (issue #39): who answers it, and what a
defender may answer with.

- Who answers. A PC a player plays answers for themselves when someone else attacks it: the
  attack is declared and waits for that player's tap (or a GM's, for a player away from the
  table). An NPC answers as the campaign's NPC roll mode says, at once, as it always did; so
  does a PC its attacker's own player or a GM plays (they would tap for both sides anyway). An
  attack the players may not read (an NPC they have not met takes part: its line is the GMs')
  is not declared either: the declaration would tell a player what the exchange's audience
  keeps from them, that an unseen foe acts, when and against whom.
- In melee the defender fights back (the Melee Phase "is just a contest action"): with a
  trait (the one proposed, ``attack.fighting_trait``, or another), and the "Optional Rule:
  Tactics": All-Out Defend (+2, but "cannot injure the foe at all in the round") or All-Out
  Attack.
- Shot at, the target evades or not: the Target Evade is a roll, and "a character cannot both
  shoot and evade within the same phase ... only one die roll per phase", so a target who has
  rolled this phase takes the shot (a GM may rule otherwise); one who does not evade rolls
  nothing and keeps their roll for the phase.
- The evade's trait: the seeds name none, so the one proposed reads as dodging ("Agility",
  "Dodge", "Acrobatics"), the higher level first; none fits: untrained, as any check.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from fudgetable.rules.attack import Kind, TraitOption
from fudgetable.rules.errors import RulesError
from fudgetable.rules.fight import Tactic
from fudgetable.rules.words import gettext_noop


class Defence(StrEnum):
    DEFEND = "defend"  # melee, no tactic
    ALL_OUT_DEFEND = "all-out-defend"
    ALL_OUT_ATTACK = "all-out-attack"
    EVADE = "evade"  # shot at: the Target Evade
    TAKE_THE_SHOT = "take-the-shot"  # shot at: no roll


DEFENCES = {
    Kind.MELEE: (Defence.DEFEND, Defence.ALL_OUT_DEFEND, Defence.ALL_OUT_ATTACK),
    Kind.RANGED: (Defence.EVADE, Defence.TAKE_THE_SHOT),
}
TACTIC = {
    Defence.DEFEND: Tactic.NONE,
    Defence.ALL_OUT_DEFEND: Tactic.ALL_OUT_DEFEND,
    Defence.ALL_OUT_ATTACK: Tactic.ALL_OUT_ATTACK,
}
# What a defender does when a GM rolls for them (a player away): fight back plainly in melee;
# shot at, take the shot, as the GM's fight panel does unless told otherwise.
FOR_THEM = {Kind.MELEE: Defence.DEFEND, Kind.RANGED: Defence.TAKE_THE_SHOT}


@dataclass(frozen=True)
class Answer:
    """A defence as the exchange rolls it: the defender's tactic in melee; shot at, whether
    the target evades."""

    tactic: Tactic = Tactic.NONE
    evades: bool = False


def answer(kind: Kind, defence: str) -> Answer:
    """The defence ``defence`` for an attack of ``kind``, or a RulesError naming the ones there
    are (an evade in melee, a tactic against a shot)."""
    allowed = DEFENCES[kind]
    if defence not in allowed:
        raise RulesError(
            "defence",
            gettext_noop("against this attack, choose one of %(choices)s"),
            choices=", ".join(allowed),
        )
    chosen = Defence(defence)
    if kind == Kind.RANGED:
        return Answer(evades=chosen == Defence.EVADE)
    return Answer(tactic=TACTIC[chosen])


def defender_answers(
    *,
    defender_is_npc: bool,
    defender_player: int | None,
    attacking_person: int,
    kept_from_players: bool,
) -> bool:
    """Whether an attack waits for its defender's player. ``defender_player``: the person who
    plays the defending PC, when a player (not a GM) does; ``attacking_person``: who taps the
    attack; ``kept_from_players``: the exchange's line is the GMs' alone."""
    if defender_is_npc or defender_player is None or kept_from_players:
        return False
    return defender_player != attacking_person


def may_evade(*, rolled_this_phase: bool, gm: bool) -> bool:
    """One roll each phase: a target who has rolled in this phase takes the shot, unless a GM
    rules otherwise."""
    return gm or not rolled_this_phase


EVADE_WORDS = frozenset(
    [
        "acrobat",
        "acrobatics",
        "agility",
        "athlete",
        "athletics",
        "dexterity",
        "dodge",
        "dodging",
        "evade",
        "evasion",
        "nimble",
        "reflexes",
    ]
)


def evading_trait(traits: Sequence[TraitOption]) -> int | None:
    """The index in ``traits`` of the trait proposed to evade a shot with; None: untrained."""
    best: tuple[int, bool] | None = None
    found = None
    for at, trait in enumerate(traits):
        if not set(re.findall(r"[a-z]+", trait.name.lower())) & EVADE_WORDS:
            continue
        rank = (trait.level, not trait.attribute)
        if best is None or rank > best:
            best, found = rank, at
    return found
