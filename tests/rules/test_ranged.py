"""EZFudge's ranged phase (ezfudge-essentials.txt: 440 "Shooting is ranged action", 444-448
ranges and obstacles, 496-506 "The Combat Round" step 3 and "Ranged Optional Rules", 520-525
"Damage Roll Options"), with the seed's own numbers: Jason Free's CPD 4 (line 275) and the
"Self-Powered Weapon INJ" table (line 269, Large Handgun 4 or 5)."""

import itertools
import random
from fractions import Fraction

import pytest

from fudgetable.rules import blows, odds
from fudgetable.rules.blows import Aim, WoundDice
from fudgetable.rules.character import Gift, Modifier, Weapon
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ranged import (
    TARGET,
    Conditions,
    Shooter,
    Target,
    dice_for,
    fire,
    hit_chance,
    shot,
    shot_inj,
)
from fudgetable.rules.rulesets import PRESETS, resolve
from fudgetable.rules.sheet import ATTRIBUTE, ROLE, Sheet, SheetTrait
from fudgetable.rules.wounds import EZ_WOUND_TRACK

EZ = PRESETS["ezfudge"]
TRACK = EZ_WOUND_TRACK  # damage 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt, 7-8 Out of It, 9+ Near Death
POOR, MEDIOCRE, FAIR, GOOD, GREAT = -1, 0, 1, 2, 3
JASON_CPD = 4  # "His CPD is ... total of 4"
LARGE_HANDGUN = 5  # "Large Handgun 4 or 5"


def marksman(**choices) -> Shooter:
    """A Good Marksman with a Large Handgun."""
    return Shooter(GOOD, LARGE_HANDGUN, **choices)


def at_jason(**choices) -> Target:
    return Target(JASON_CPD, **choices)


def fire_at(shooter: Shooter, target: Target, difficulty: int, roll: int, evade: int = 0, **kw):
    return shot(
        TRACK,
        shooter,
        target,
        difficulty=difficulty,
        shooter_roll=roll,
        evade_roll=evade,
        rules=EZ.static_rules,
        **kw,
    )


# --- the difficulty ---------------------------------------------------------------------


def test_the_difficulty_helper_adds_range_light_and_cover():
    """ezfudge-essentials.txt:498 "The difficulty level for the shot is based on distance,
    lighting, cover"; :444 the list of four ranges did not survive, :456 names T and S; the
    helper's steps are this module's own."""
    assert Conditions().difficulty == FAIR  # short range, good light, no cover
    assert Conditions("T").difficulty == MEDIOCRE
    assert Conditions("L", "dark", "heavy").difficulty == 3 + 2 + 2
    assert Conditions("M", "dim", "partial").difficulty == 2 + 1 + 1
    assert Conditions("M", "dim").words == "Medium (M) +2, Dim light +1, No cover"
    assert Conditions("T").to_dict() == {"range": "T", "light": "good", "cover": "none"}
    for bad in ({"range": "X"}, {"light": "blinding"}, {"cover": "wall"}):
        with pytest.raises(RulesError) as error:
            Conditions(**bad)
        assert error.value.setting == next(iter(bad))


def test_the_conditions_set_the_difficulty_and_do_not_modify_the_action():
    """ezfudge-essentials.txt:498 "These factors don't modify the player action result.\""""
    far = fire_at(marksman(), at_jason(), Conditions("L", "dim").difficulty, 0)
    assert far.outcome.side.modifiers == ()
    assert (far.outcome.result, far.bar, far.hit) == (GOOD, 4, False)


# --- hitting and the wound --------------------------------------------------------------


def test_a_hit_wounds_by_margin_plus_inj_minus_cpd():
    """ezfudge-essentials.txt:440 a shot harms with the weapon's INJ; damage as in melee."""
    hit = fire_at(marksman(), at_jason(), FAIR, 1)  # Great 3 against Fair 1
    assert (hit.hit, hit.outcome.margin) == (True, 2)
    assert hit.wound is not None
    assert (hit.wound.to, hit.wound.damage, hit.wound.level_name) == (TARGET, 3, "Hurt")
    assert hit.to_dict()["wound"]["level_name"] == "Hurt"


def test_a_result_equal_to_the_difficulty_hits_with_margin_0():
    """ezfudge-essentials.txt:347 "equal to or higher than the difficulty, the action is a
    Success"."""
    level = fire_at(marksman(), at_jason(), GOOD, 0)
    assert (level.hit, level.outcome.margin) == (True, 0)
    assert level.wound is not None and level.wound.damage == 0 + 5 - 4


def test_a_miss_deals_nothing_and_a_weak_hit_no_wound():
    """ezfudge-essentials.txt:267 "Pocket Handgun (unhelpful at range) 0 or 1"."""
    miss = fire_at(marksman(), at_jason(), GREAT, 0)
    assert (miss.hit, miss.wound) == (False, None)
    pocket = fire_at(Shooter(GOOD, 0), at_jason(), FAIR, 0)  # "Pocket Handgun 0 or 1"
    assert pocket.hit and pocket.wound is not None and pocket.wound.level is None


def test_an_evading_target_raises_the_bar_to_its_evade_if_that_is_higher():
    """ezfudge-essentials.txt:498 "only one die roll per phase ... shooting or evading"; :506
    the Target Evade. The harder of it and the difficulty is the bar (FudgeTable's reading)."""
    dodged = fire_at(marksman(), at_jason(evade=GOOD), FAIR, 1, evade=1)  # 3 against max(1, 3)
    assert dodged.evade is not None and dodged.evade.result == GREAT
    assert (dodged.bar, dodged.outcome.margin, dodged.hit) == (GREAT, 0, True)
    fumbled = fire_at(marksman(), at_jason(evade=GOOD), FAIR, 1, evade=-3)  # evade -1: bar 1
    assert (fumbled.bar, fumbled.outcome.margin) == (FAIR, 2)
    beaten = fire_at(marksman(), at_jason(evade=GOOD), FAIR, 1, evade=2)
    assert (beaten.bar, beaten.hit, beaten.wound) == (4, False, None)
    still = fire_at(marksman(), at_jason(), FAIR, 1, evade=4)  # not evading: no roll counts
    assert (still.evade, still.bar) == (None, FAIR)


def test_an_aimed_shot_works_as_in_melee():
    """ezfudge-essentials.txt:504 "Aimed Strikes: as above"; :474 "with ranged weapons they
    are bound to be significant"."""
    at_the_eye = Aim(modifier=-2, needs=1)
    short = fire_at(marksman(aim=at_the_eye), at_jason(), FAIR, 1)  # 3 - 2 = 1: margin 0
    assert short.outcome.side.modifiers == (-2,)
    assert short.wound is not None and short.wound.aimed == blows.FOE_DECIDES
    true = fire_at(marksman(aim=at_the_eye), at_jason(), FAIR, 2)
    assert true.wound is not None and true.wound.aimed == blows.AIM_LANDED


def test_an_outmanoeuvred_shooter_or_evader_takes_minus_1():
    """ezfudge-essentials.txt:490 "the opponent would have a -1 mod to their action"."""
    slowed = fire_at(marksman(outmanoeuvred=True), at_jason(), FAIR, 1)
    assert (slowed.outcome.side.modifiers, slowed.outcome.margin) == ((-1,), 1)
    pinned = fire_at(marksman(), at_jason(evade=GOOD, outmanoeuvred=True), FAIR, 0, evade=1)
    assert pinned.evade is not None and pinned.evade.result == GOOD


def test_damage_options_1_2_and_4_apply_to_a_shot_and_3_does_not():
    """ezfudge-essentials.txt:520 "I think 4 might be best for ranged phase only"; :524 option
    3 is about melee ties."""
    shifted = fire_at(marksman(), at_jason(), FAIR, 1, options=[3, 4], dice=WoundDice(0, 1))
    assert shifted.options == (4,)
    assert shifted.wound is not None and shifted.wound.level_name == "Very Hurt"
    plus = fire_at(marksman(), at_jason(), FAIR, 1, options=[2], dice=WoundDice(1, 0))
    assert plus.wound is not None and (plus.wound.die, plus.wound.damage) == (1, 4)
    armoured = Target(12)
    superb = fire_at(marksman(), armoured, FAIR, 4, options=[1])
    assert superb.wound is not None and (superb.wound.level_name, superb.wound.superb) == (
        "Scratch",
        True,
    )
    with pytest.raises(RulesError):
        fire_at(marksman(), at_jason(), FAIR, 0, options=[7])


# --- rolling it -------------------------------------------------------------------------


def test_a_pc_rolls_the_campaigns_dice_and_an_ezfudge_foe_rolls_nothing():
    """ezfudge-essentials.txt:494 "EZFudge assumes that all foe or NPC rolls ... would be
    zero"."""
    assert dice_for(EZ, npc=False) == "4dF"
    rolled = fire(EZ, marksman(), at_jason(evade=GOOD), difficulty=FAIR, target_is_npc=True)
    assert rolled.evade_dice is not None and rolled.evade_dice.total == 0
    foe = fire(EZ, marksman(), at_jason(), difficulty=FAIR, shooter_is_npc=True)
    assert foe.shooter_dice.total == 0 and foe.evade_dice is None
    assert (foe.shot.outcome.result, foe.shot.hit) == (GOOD, True)


def test_a_foes_extra_roll_attaches_to_the_shooter_action_or_the_target_evade():
    """ezfudge-essentials.txt:506 "If the foe is the shooter, the extra roll would attach to
    the Shooter Action. If the foe is the target, the extra roll would attach to the Target
    Evade.\""""
    ruleset = resolve("ezfudge", {"npc_roll": "1dF"})
    assert dice_for(ruleset, npc=True) == "1dF"
    seen = set()
    for seed in range(30):
        rolled = fire(
            ruleset,
            marksman(),
            at_jason(evade=GOOD),
            difficulty=FAIR,
            target_is_npc=True,
            rng=random.Random(seed),
        )
        assert rolled.evade_dice is not None and rolled.evade_dice.method == "1dF"
        seen.add(rolled.evade_dice.total)
    assert seen == {-1, 0, 1}


def test_the_chance_to_hit_is_exact_against_the_difficulty_or_the_better_of_it_and_the_evade():
    """ezfudge-essentials.txt:498, 506: counted over every 4dF face of both rolls."""
    plain = hit_chance("4dF", None, marksman(), at_jason(), difficulty=FAIR, rules=EZ.static_rules)
    assert plain == odds.success_chance("4dF", level=GOOD, difficulty=FAIR, rules=EZ.static_rules)
    evading = hit_chance(
        "4dF", "4dF", marksman(), at_jason(evade=FAIR), difficulty=FAIR, rules=EZ.static_rules
    )
    faces = list(itertools.product((-1, 0, 1), repeat=4))
    totals = [sum(face) for face in faces]
    wins = sum(GOOD + s >= max(FAIR, FAIR + e) for s in totals for e in totals)
    assert evading == Fraction(wins, len(totals) ** 2)
    assert evading < plain


def test_the_campaign_options_apply_unless_the_gm_gives_the_shots_own():
    """ezfudge-essentials.txt:520-525, and 520's "4 might be best for ranged phase only"."""
    ruleset = resolve("ezfudge", {"damage_options": [1, 3]})
    assert fire(ruleset, marksman(), at_jason(), difficulty=FAIR).shot.options == (1,)
    own = fire(ruleset, marksman(), at_jason(), difficulty=FAIR, options=[1, 4])
    assert own.shot.options == (1, 4)


def test_a_campaign_without_a_wound_track_has_no_ranged_phase():
    with pytest.raises(RulesError) as error:
        fire(PRESETS["fudge-lite"], marksman(), at_jason(), difficulty=FAIR)
    assert error.value.setting == "wound_track"


# --- the weapon -------------------------------------------------------------------------


def test_a_shot_needs_a_self_powered_weapon_and_counts_inj_gifts():
    """ezfudge-essentials.txt:440 "uses a self-powered weapon"; :262 "Verify the appropriate
    value with the gamemaster"."""
    sheet = Sheet(
        traits=(SheetTrait(ROLE, "Marksman", GOOD), SheetTrait(ATTRIBUTE, "Body", GREAT)),
        gifts=(Gift("Hollow points", (Modifier("INJ", 1),)),),
    )
    assert shot_inj(sheet, Weapon("Large Handgun", inj=LARGE_HANDGUN)) == 6
    with pytest.raises(RulesError) as error:
        shot_inj(sheet, Weapon("Quarterstaff", damage_factor=2))
    assert error.value.setting == "weapon"


# --- a bow: powered by the shooter's own strength, used at range -------------------------

# Jason's Body, Great (3): "he's quite strong (Body 3)" (ezfudge-essentials.txt:277).
JASON_BODY = GREAT
BOW = Weapon("Short bow", damage_factor=1, ranged=True)


def jason_with(*gifts: Gift) -> Sheet:
    return Sheet(
        traits=(SheetTrait(ROLE, "Woodsman", GOOD), SheetTrait(ATTRIBUTE, "Body", JASON_BODY)),
        gifts=gifts,
    )


def test_a_bow_shoots_with_body_plus_mass_scale_plus_its_damage_factor():
    """ezfudge-essentials.txt:245 and again under "Self-Powered Weapon INJ" (:264): "For
    weapons you power with your own strength, INJ = Body + Mass Scale + the damage factor";
    "Quality or unique weapons might be one higher"."""
    assert shot_inj(jason_with(), BOW) == JASON_BODY + 0 + 1 == 4
    fine = Weapon("Fine longbow", damage_factor=2, quality=True, ranged=True)
    assert shot_inj(jason_with(), fine) == 3 + 0 + 2 + 1
    big = Sheet(traits=(SheetTrait(ATTRIBUTE, "Body", JASON_BODY),), mass_scale=1)
    assert shot_inj(big, BOW) == 3 + 1 + 1
    sharp = Gift("Broadhead arrows", (Modifier("INJ", 1),))
    assert shot_inj(jason_with(sharp), BOW) == 5


def test_a_bow_hit_wounds_by_margin_plus_inj_minus_cpd():
    """ezfudge-essentials.txt:245 INJ 3 + 0 + 1 = 4 against Jason's own CPD 4 (:275): a Good
    shooter rolling +1 against Fair beats it by 2, damage 2 + 4 - 4 = 2, a Scratch (1-2)."""
    inj = shot_inj(jason_with(), BOW)
    hit = fire_at(Shooter(GOOD, inj), at_jason(), FAIR, 1)
    assert hit.wound is not None
    assert (hit.outcome.margin, hit.wound.inj, hit.wound.damage) == (2, 4, 2)
    assert hit.to_dict()["wound"]["level_name"] == "Scratch"


def test_a_weapon_is_used_at_range_by_what_the_sheet_says_not_by_its_name():
    """The kind decides: a bow entered as a melee weapon is not shot, a club marked as thrown
    is; a self-powered weapon always shoots (ezfudge-essentials.txt:440 "Shooting is ranged
    action, where the character uses a self-powered weapon")."""
    with pytest.raises(RulesError) as error:
        shot_inj(jason_with(), Weapon("Bow", damage_factor=1))
    assert "is a melee weapon" in error.value.message
    assert shot_inj(jason_with(), Weapon("Club", damage_factor=2, ranged=True)) == 5
    assert Weapon("Rifle", inj=5).ranged and Weapon("Rifle", inj=5, ranged=False).ranged
    assert Weapon.from_dict(BOW.to_dict()) == BOW
    assert Weapon.from_dict({"name": "Old export", "damage_factor": 1}).ranged is False
