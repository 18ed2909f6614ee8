"""The defender's answer to an attack from the board: who answers it, the defences each kind of
attack allows (EZFudge's tactics in melee; a shot's Target Evade, one roll each phase), and the
trait proposed to evade with."""

import pytest

from fudgetable.rules.attack import Kind, TraitOption
from fudgetable.rules.building import FAIR, GOOD, GREAT, MEDIOCRE
from fudgetable.rules.defence import (
    DEFENCES,
    FOR_THEM,
    Answer,
    Defence,
    answer,
    defender_answers,
    evading_trait,
    may_evade,
)
from fudgetable.rules.errors import RulesError
from fudgetable.rules.fight import Tactic

ALICE, BOB = 1, 2


@pytest.mark.parametrize(
    ("npc", "player", "attacking", "kept", "waits"),
    [
        (False, ALICE, BOB, False, True),  # another player's PC: its player answers
        (False, ALICE, 99, False, True),  # a GM's NPC attacks a player's PC: the player answers
        (False, ALICE, ALICE, False, False),  # her own PCs: she taps both sides anyway
        (False, None, BOB, False, False),  # a PC a GM plays (or nobody): rolled at once
        (True, None, ALICE, False, False),  # an NPC: the campaign's NPC roll mode says
        (False, ALICE, 99, True, False),  # an NPC the players have not met: no declaration
    ],
)
def test_who_answers_an_attack(npc, player, attacking, kept, waits) -> None:
    assert (
        defender_answers(
            defender_is_npc=npc,
            defender_player=player,
            attacking_person=attacking,
            kept_from_players=kept,
        )
        is waits
    )


def test_melee_allows_the_tactics_and_a_shot_the_evade() -> None:
    assert answer(Kind.MELEE, "defend") == Answer(Tactic.NONE, evades=False)
    assert answer(Kind.MELEE, "all-out-defend").tactic is Tactic.ALL_OUT_DEFEND
    assert answer(Kind.MELEE, "all-out-attack").tactic is Tactic.ALL_OUT_ATTACK
    assert answer(Kind.RANGED, "evade") == Answer(Tactic.NONE, evades=True)
    assert answer(Kind.RANGED, "take-the-shot") == Answer(Tactic.NONE, evades=False)
    assert set(DEFENCES[Kind.MELEE]) | set(DEFENCES[Kind.RANGED]) == set(Defence)


@pytest.mark.parametrize(
    ("kind", "defence"),
    [(Kind.MELEE, "evade"), (Kind.RANGED, "all-out-defend"), (Kind.MELEE, "dodge-roll")],
)
def test_a_defence_the_attack_does_not_allow_is_refused(kind, defence) -> None:
    with pytest.raises(RulesError) as refused:
        answer(kind, defence)
    assert refused.value.setting == "defence"


def test_a_gm_rolling_for_a_player_away_fights_back_plainly_or_takes_the_shot() -> None:
    assert answer(Kind.MELEE, FOR_THEM[Kind.MELEE]) == Answer()
    assert not answer(Kind.RANGED, FOR_THEM[Kind.RANGED]).evades


def test_one_roll_each_phase_a_target_who_rolled_takes_the_shot() -> None:
    assert may_evade(rolled_this_phase=False, gm=False)
    assert not may_evade(rolled_this_phase=True, gm=False)
    assert may_evade(rolled_this_phase=True, gm=True)  # a GM may rule otherwise


# Wren Ashdown, the demo's archer: her Great Agility reads as dodging, not her Archer role.
WREN = [
    TraitOption("Body", FAIR, attribute=True),
    TraitOption("Agility", GREAT, attribute=True),
    TraitOption("Archer", GOOD),
    TraitOption("Burglar", GREAT),
]


def test_the_evade_proposed_is_the_best_trait_that_reads_as_dodging() -> None:
    assert evading_trait(WREN) == 1
    both = [TraitOption("Dodge", GOOD), TraitOption("Acrobatics", GREAT), *WREN]
    assert evading_trait(both) == 1  # Great Acrobatics before Good Dodge
    tie = [TraitOption("Agility", GREAT, attribute=True), TraitOption("Dodge", GREAT)]
    assert evading_trait(tie) == 1  # at one level, the role or skill before the attribute


def test_no_trait_that_reads_as_dodging_evades_untrained() -> None:
    assert evading_trait([TraitOption("Camp Cook", MEDIOCRE), TraitOption("Archer", GOOD)]) is None
    assert evading_trait([]) is None
