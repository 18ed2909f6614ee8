"""A check as it is rolled at the table, under a campaign's ruleset: the dice to use, the roll,
its resolution, Fate's degree, the exact odds beforehand, and what a Fudge point does to it.

Seeds: Fudge Lite "Trait Checks", "Advantage and Disadvantage Dice" and "Fudge Points";
Fudge 1995 3.1, 3.3-3.7; EZFudge "Action Rules"; Fate (Fudge edition) 3.1-3.2; Peupfudge 2.
"""

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any

from fudgetable.rules import odds
from fudgetable.rules.dice import DiceMethod, RandomSource, Roll, get_method
from fudgetable.rules.dice.deck import DeckState, draw
from fudgetable.rules.dice.registry import advantage_key
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import (
    OpposedOutcome,
    Outcome,
    Side,
    StaticOutcome,
    fate_degree,
    npc_roll_method,
    reaction,
    resolve_opposed,
    resolve_static,
    secondary_trait_bonus,
    situational_result,
    untrained_ezfudge,
    untrained_fudge_1995,
    untrained_fudge_lite,
)
from fudgetable.rules.rulesets import Ruleset, TraitScheme
from fudgetable.rules.words import gettext_noop

FAIR_ON_THE_STANDARD_LADDER = 1
MAX_MODIFIER = 10  # a single bonus or penalty past this is a typo, not a situation


def dice_for(
    ruleset: Ruleset, *, advantage: int = 0, disadvantage: int = 0, opposed: bool = False
) -> str:
    """The method key a check rolls: the campaign's dice, with advantage or disadvantage dice
    replacing some of its Fudge dice (never both in one roll)."""
    key = ruleset.opposed_dice if opposed else ruleset.dice
    if not advantage and not disadvantage:
        return key
    count = _fudge_dice_count(key)
    if count is None:
        raise RulesError(
            "advantage",
            gettext_noop("advantage dice replace Fudge dice; this table rolls other dice"),
        )
    return advantage_key(count, advantage, disadvantage)


def _fudge_dice_count(key: str) -> int | None:
    head = key.split("/")[0]
    return int(head[:-2]) if head.endswith("dF") and head[:-2].isdigit() else None


def check_modifiers(modifiers: Sequence[int]) -> tuple[int, ...]:
    for value in modifiers:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_MODIFIER:
            raise RulesError(
                "modifiers",
                gettext_noop(
                    "each modifier is a whole number from -%(max_modifier)s to +%(max_modifier)s"
                ),
                max_modifier=MAX_MODIFIER,
            )
    return tuple(modifiers)


def roll_dice(
    method: DiceMethod, *, deck: DeckState | None = None, rng: RandomSource | None = None
) -> tuple[Roll, DeckState | None]:
    """One roll of ``method``. The poker deck keeps state between draws; it goes in and out."""
    if method.key == "deck":
        return draw(deck, rng)
    return method.roll(rng), deck


@dataclass(frozen=True)
class CheckResult:
    roll: Roll
    outcome: StaticOutcome
    chance: Fraction  # the chance of success before the dice were rolled
    degree: str  # Fate's degree of success or failure, "" elsewhere

    def to_dict(self) -> dict[str, Any]:
        return {
            "roll": self.roll.to_dict(),
            "outcome": self.outcome.to_dict(),
            "chance": str(self.chance),
            "degree": self.degree,
        }


def _degree(ruleset: Ruleset, margin: int, *, dynamic: bool = False) -> str:
    if ruleset.trait_scheme is not TraitScheme.SKILLS:
        return ""
    return fate_degree(margin, dynamic=dynamic).degree.name


def chance(
    ruleset: Ruleset,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    method: str | None = None,
) -> Fraction:
    return odds.success_chance(
        method or ruleset.dice,
        level=level,
        difficulty=difficulty,
        modifiers=check_modifiers(modifiers),
        rules=ruleset.static_rules,
    )


def margins(
    ruleset: Ruleset,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    method: str | None = None,
) -> dict[int, Fraction]:
    """The exact chance of every margin, for the odds chart."""
    return odds.margin_distribution(
        method or ruleset.dice,
        level=level,
        difficulty=difficulty,
        modifiers=check_modifiers(modifiers),
        rules=ruleset.static_rules,
    )


def deck_margins(
    ruleset: Ruleset,
    deck: DeckState | None,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
) -> dict[int, Fraction]:
    """The chance of each margin when the table's kept poker deck is drawn from: what is left
    of its pile, not a fresh deck (a shuffle comes first when it is empty)."""
    draw = deck.next_draw() if deck is not None else get_method("deck").distribution()
    return odds.margins_of_draw(
        draw,
        level=level,
        difficulty=difficulty,
        modifiers=check_modifiers(modifiers),
        rules=ruleset.static_rules,
    )


def chance_of_margins(ruleset: Ruleset, margins: dict[int, Fraction]) -> Fraction:
    """The chance of success that a distribution of margins (``margins``, ``deck_margins``)
    gives under the campaign's rules, a tie counting as they say."""
    return odds.success_chance_of(margins, ruleset.static_rules)


def deck_chance(
    ruleset: Ruleset,
    deck: DeckState | None,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
) -> Fraction:
    margins = deck_margins(ruleset, deck, level=level, difficulty=difficulty, modifiers=modifiers)
    return chance_of_margins(ruleset, margins)


def trait_check(
    ruleset: Ruleset,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    method: str | None = None,
    roll: Roll | None = None,
    rng: RandomSource | None = None,
    deck: DeckState | None = None,
) -> CheckResult:
    """Result = level + modifiers + roll against a difficulty. ``roll`` lets the caller supply
    dice it has already drawn (the poker deck), else they are rolled here. ``deck`` is the
    table's kept pile before that draw: the chance beforehand is then that of what was left."""
    key = method or ruleset.dice
    mods = check_modifiers(modifiers)
    if roll is None:
        roll = get_method(key).roll(rng)
    outcome = resolve_static(
        level=level,
        roll=roll.total,
        difficulty=difficulty,
        modifiers=mods,
        rules=ruleset.static_rules,
    )
    if key == "deck" and deck is not None:
        before = deck_chance(ruleset, deck, level=level, difficulty=difficulty, modifiers=mods)
    else:
        before = chance(ruleset, level=level, difficulty=difficulty, modifiers=mods, method=key)
    return CheckResult(roll, outcome, before, _degree(ruleset, outcome.margin))


@dataclass(frozen=True)
class ContestResult:
    active_roll: Roll
    passive_roll: Roll
    outcome: OpposedOutcome
    chance: Fraction
    degree: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "active_roll": self.active_roll.to_dict(),
            "passive_roll": self.passive_roll.to_dict(),
            "outcome": self.outcome.to_dict(),
            "chance": str(self.chance),
            "degree": self.degree,
        }


def contest(
    ruleset: Ruleset,
    *,
    active_level: int,
    passive_level: int,
    active_modifiers: Sequence[int] = (),
    passive_modifiers: Sequence[int] = (),
    passive_is_npc: bool = False,
    minimum: int | None = None,
    rng: RandomSource | None = None,
) -> ContestResult:
    """An opposed action. A PC's side rolls the campaign's opposed dice; an NPC's side rolls
    by the campaign's NPC roll mode (none: the NPC's level stands as it is). ``minimum`` is
    the least result the active side needs at all (F95 3.5: mind control needs Fair)."""
    active_method, passive_method = _contest_methods(ruleset, passive_is_npc=passive_is_npc)
    mine, theirs = check_modifiers(active_modifiers), check_modifiers(passive_modifiers)
    active_roll = get_method(active_method).roll(rng)
    passive_roll = get_method(passive_method).roll(rng)
    outcome = resolve_opposed(
        active=Side(active_level, active_roll.total, mine),
        passive=Side(passive_level, passive_roll.total, theirs),
        minimum=minimum,
        rules=ruleset.opposed_rules,
    )
    won = contest_odds(
        ruleset,
        active_level=active_level,
        passive_level=passive_level,
        active_modifiers=mine,
        passive_modifiers=theirs,
        passive_is_npc=passive_is_npc,
        minimum=minimum,
    ).chance
    degree = _degree(ruleset, outcome.relative_degree, dynamic=True)
    return ContestResult(active_roll, passive_roll, outcome, won, degree)


def _contest_methods(ruleset: Ruleset, *, passive_is_npc: bool) -> tuple[str, str]:
    active = ruleset.opposed_dice
    return active, npc_roll_method(ruleset.npc_roll).key if passive_is_npc else active


@dataclass(frozen=True)
class ContestOdds:
    """An opposed action's odds before anyone rolls, from the active side's point of view."""

    chance: Fraction  # of winning
    degrees: dict[int, Fraction]  # of each relative degree (active result - passive result)
    reaches_minimum: Fraction | None = None  # of the active result reaching the minimum, if any


def contest_odds(
    ruleset: Ruleset,
    *,
    active_level: int,
    passive_level: int,
    active_modifiers: Sequence[int] = (),
    passive_modifiers: Sequence[int] = (),
    passive_is_npc: bool = False,
    minimum: int | None = None,
) -> ContestOdds:
    """The exact odds of ``contest`` with the same sides, under each NPC roll mode. The
    relative degrees take no account of a minimum; the chance of winning does."""
    active_method, passive_method = _contest_methods(ruleset, passive_is_npc=passive_is_npc)
    mine, theirs = check_modifiers(active_modifiers), check_modifiers(passive_modifiers)
    degrees = odds.opposed_degree_distribution(
        active_method,
        passive_method,
        active_level=active_level,
        passive_level=passive_level,
        active_modifiers=mine,
        passive_modifiers=theirs,
        rules=ruleset.opposed_rules,
    )
    won = odds.opposed_success_chance(
        active_method,
        passive_method,
        active_level=active_level,
        passive_level=passive_level,
        active_modifiers=mine,
        passive_modifiers=theirs,
        minimum=minimum,
        rules=ruleset.opposed_rules,
    )
    if minimum is None:
        return ContestOdds(won, degrees)
    results = odds.result_distribution(
        active_method, level=active_level, modifiers=mine, rules=ruleset.opposed_rules
    )
    reaches = sum((p for result, p in results.items() if result >= minimum), Fraction(0))
    return ContestOdds(won, degrees, reaches)


def reading_odds(ruleset: Ruleset, *, modifiers: Sequence[int] = ()) -> dict[int, Fraction]:
    """The chance of each result of a situational or reaction roll (4dF read from Fair, as
    ``situational`` rolls it); a reaction's band follows from its result."""
    return odds.result_distribution(
        "4dF",
        level=FAIR_ON_THE_STANDARD_LADDER,
        modifiers=check_modifiers(modifiers),
        rules=ruleset.static_rules,
    )


def reaction_odds(ruleset: Ruleset, *, modifiers: Sequence[int] = ()) -> dict[str, Fraction]:
    """The chance of each reaction band of an NPC's reaction roll (F95 3.7), best first."""
    bands: dict[str, Fraction] = {}
    for result, p in sorted(reading_odds(ruleset, modifiers=modifiers).items(), reverse=True):
        # A result already settled, read into its band with nothing more added.
        band = reaction(result - FAIR_ON_THE_STANDARD_LADDER, (), ruleset.static_rules).reaction
        bands[band.value] = bands.get(band.value, Fraction(0)) + p
    return bands


@dataclass(frozen=True)
class Reading:
    """A roll read from Fair with no trait behind it: a situational or reaction roll."""

    roll: Roll
    result: int
    reaction: str  # "" for a situational roll

    def to_dict(self) -> dict[str, Any]:
        return {"roll": self.roll.to_dict(), "result": self.result, "reaction": self.reaction}


def situational(
    ruleset: Ruleset,
    *,
    modifiers: Sequence[int] = (),
    npc_reaction: bool = False,
    rng: RandomSource | None = None,
    method: str = "4dF",
    roll: Roll | None = None,
) -> Reading:
    """``method``: other dice read from Fair the same way (a roll typed as "/r 3d6");
    ``roll``: dice already thrown (by hand), else they are rolled here."""
    if roll is None:
        roll = get_method(method).roll(rng)
    mods = check_modifiers(modifiers)
    if npc_reaction:
        read = reaction(roll.total, mods, ruleset.static_rules)
        return Reading(roll, read.result, read.reaction.value)
    return Reading(roll, situational_result(roll.total, mods, ruleset.static_rules), "")


# What a Fudge point does to a check already rolled, by the use's key in rulesets.
def fudge_point_result(
    ruleset: Ruleset,
    use: str,
    before: CheckResult,
    *,
    rng: RandomSource | None = None,
    reroll: Roll | None = None,
) -> CheckResult:
    """The check after a Fudge point is spent on it. Refuses a use the campaign does not allow.
    ``reroll``: a reroll's dice, thrown already (by hand at the table); else they are rolled."""
    if use not in ruleset.fudge_point_uses:
        raise RulesError(
            "use",
            gettext_noop("this campaign does not allow that Fudge point use (%(use)s)"),
            use=use,
        )
    side, difficulty = before.outcome.side, before.outcome.difficulty
    if use in ("reroll", "alter-by-one"):
        # A reroll throws the dice again. Alter-by-one moves the roll itself one step, so no
        # modifier policy can swallow the point.
        moved = (
            replace(before.roll, total=before.roll.total + 1) if use == "alter-by-one" else reroll
        )
        return trait_check(
            ruleset,
            level=side.level,
            difficulty=difficulty,
            modifiers=side.modifiers,
            method=before.roll.method,
            roll=moved,
            rng=rng,
        )
    if use == "failure-to-success":
        if before.outcome.outcome is Outcome.SUCCESS:
            raise RulesError("use", gettext_noop("the check already succeeded"))
        # The margin is what it is; the outcome is turned, and says so.
        turned = StaticOutcome(
            side,
            difficulty,
            before.outcome.margin,
            Outcome.SUCCESS,
            before.outcome.critical,
            before.outcome.rules,
        )
        return CheckResult(before.roll, turned, before.chance, before.degree)
    if use == "auto-success":
        # "Automatically succeed at any unopposed roll of Superb or lower difficulty."
        if difficulty > ruleset.ladder.value("Superb"):
            raise RulesError(
                "use", gettext_noop("only a difficulty of Superb or lower is passed by a point")
            )
        if before.outcome.outcome is Outcome.SUCCESS:
            raise RulesError("use", gettext_noop("the check already succeeded"))
        passed = replace(before.outcome, outcome=Outcome.SUCCESS)
        return CheckResult(before.roll, passed, before.chance, before.degree)
    if use == "plus-four":
        # "Get a +4 result without rolling": the dice are set aside, so no face is shown and
        # nothing natural about it can be a critical.
        unrolled = Roll(before.roll.method, (), 4)
        after = trait_check(
            ruleset,
            level=side.level,
            difficulty=difficulty,
            modifiers=side.modifiers,
            method=before.roll.method,
            roll=unrolled,
        )
        # A margin of four may still be a critical where the campaign reads margins.
        critical = ruleset.static_rules.critical(0, after.outcome.margin)
        after = replace(after, outcome=replace(after.outcome, critical=critical))
        return after
    raise RulesError(
        "use", gettext_noop("%(use)s is spent outside a roll; note it on the sheet"), use=use
    )


def contest_degree(ruleset: Ruleset, relative_degree: int) -> str:
    """Fate's dynamic degree of an opposed roll's relative degree; "" elsewhere."""
    return _degree(ruleset, relative_degree, dynamic=True)


OPPOSED_USES = ("reroll", "alter-by-one", "failure-to-success", "plus-four")  # not auto-success


def contest_fudge_point(
    ruleset: Ruleset,
    use: str,
    *,
    active: Side,
    passive: Side,
    minimum: int | None = None,
    rng: RandomSource | None = None,
) -> tuple[Roll | None, OpposedOutcome]:
    """An opposed roll after the active side (the PC who rolled) spends a Fudge point on it:
    its dice thrown again, its roll moved up one, +4 without rolling, or its loss turned into
    a win. The other side stands as it was rolled. Returns the active side's new dice (None
    when the dice stay as they were) and the outcome."""
    if use not in ruleset.fudge_point_uses:
        raise RulesError(
            "use",
            gettext_noop("this campaign does not allow that Fudge point use (%(use)s)"),
            use=use,
        )
    if use not in OPPOSED_USES:
        raise RulesError(
            "use", gettext_noop("that Fudge point use is not spent on an opposed roll")
        )
    rules = ruleset.opposed_rules
    dice: Roll | None = None
    if use == "failure-to-success":
        before = resolve_opposed(active=active, passive=passive, minimum=minimum, rules=rules)
        if before.outcome is Outcome.SUCCESS:
            raise RulesError("use", gettext_noop("the opposed roll was already won"))
        return None, replace(before, outcome=Outcome.SUCCESS)
    if use == "reroll":
        dice = get_method(ruleset.opposed_dice).roll(rng)
        active = replace(active, roll=dice.total)
    elif use == "alter-by-one":
        active = replace(active, roll=active.roll + 1)
    else:  # plus-four: the dice are set aside, so nothing natural about it is a critical
        dice = Roll(ruleset.opposed_dice, (), 4)
        active = replace(active, roll=4)
    outcome = resolve_opposed(active=active, passive=passive, minimum=minimum, rules=rules)
    if use == "plus-four":
        outcome = replace(outcome, critical=rules.critical(0, outcome.relative_degree))
    return dice, outcome


def untrained_level(ruleset: Ruleset, *, commonness: str = "some", helped: bool = False) -> int:
    """The level to roll for a trait the sheet does not have, by the campaign's rules: Fudge
    Lite asks how common the trait is; Fudge 1995 gives Poor, Mediocre if a high attribute
    helps; EZFudge and the rest default to Poor; Peupfudge's untrained ability is 0."""
    if ruleset.trait_scheme is TraitScheme.ABILITIES:
        return 0
    if ruleset.key == "fudge-lite":
        return untrained_fudge_lite(commonness)
    if ruleset.key == "fudge-1995":
        return untrained_fudge_1995(high_attribute_helps=helped)
    return untrained_ezfudge()


def secondary_bonus(ruleset: Ruleset, level: int) -> int:
    """The +1 a second trait of the same character lends a roll (F95 3.3), read against Good
    on the campaign's ladder. Refuses one below Good, and a ladder with no Good at all."""
    if ruleset.ladder.numeric:
        raise RulesError(
            "helper", gettext_noop("this ladder has no Good: add the GM's bonus as a modifier")
        )
    good = ruleset.ladder.value("Good")
    if not secondary_trait_bonus(level, good=good):
        words = ruleset.ladder.describe(level)
        raise RulesError(
            "helper",
            gettext_noop("a second trait helps only at Good or better, not %(words)s"),
            words=words,
        )
    return 1
