"""Exact odds before rolling: the chance of success and the spread of margins, as fractions.

Seeds: Fudge 1995 3.23 (success rates for 4dF, d%, 3d6, 4d6), EZFudge "Percentages", Peupfudge
appendix D (P(NdF >= D) for 1-9 dice) and the Fate (Fudge edition) 3.2.1 note on opposed rolls
spanning twice the range. Every figure comes from a dice method's exact distribution, so any
method, level, modifiers, difficulty and tie policy works, static or opposed. Answers are cached
on their (hashable) inputs; each call returns a fresh dict.
"""

from collections.abc import Mapping, Sequence
from fractions import Fraction
from functools import lru_cache

from fudgetable.rules import distribution as dist
from fudgetable.rules.data import require_int
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution.action import (
    PLAIN_OPPOSED_RULES,
    PLAIN_RULES,
    ActionRules,
    Outcome,
)
from fudgetable.rules.words import gettext_noop

Pairs = tuple[tuple[int, Fraction], ...]


def _pairs(values: dict[int, Fraction]) -> Pairs:
    return tuple(sorted(values.items()))


@lru_cache(maxsize=4096)
def _results(method: str, level: int, modifier: int, rules: ActionRules) -> Pairs:
    rolls = dist.shift(get_method(method).distribution(), level + modifier)
    return _pairs(dist.clamp(rolls, rules.floor, rules.ceiling))


def _settle(method: str, level: int, modifiers: Sequence[int], rules: ActionRules) -> Pairs:
    return _results(method, require_int(level, "level"), rules.combine(modifiers), rules)


def chance_at_least(method: str, threshold: int) -> Fraction:
    """The chance of a natural roll of ``threshold`` or better (the "+1 or better" tables)."""
    return dist.at_least(get_method(method).distribution(), require_int(threshold, "threshold"))


def result_distribution(
    method: str,
    *,
    level: int = 0,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> dict[int, Fraction]:
    """The chance of each (clamped) result of level + modifiers + roll."""
    return dict(_settle(method, level, modifiers, rules))


def margin_distribution(
    method: str,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> dict[int, Fraction]:
    """The chance of each margin (result - difficulty): the data for an odds chart."""
    results = dict(_settle(method, level, modifiers, rules))
    return dist.shift(results, -require_int(difficulty, "difficulty"))


def margins_of_draw(
    draw: Mapping[int, Fraction],
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> dict[int, Fraction]:
    """``margin_distribution`` for a roll whose chances are given rather than a method's: the
    next card of a table's kept deck (``DeckState.next_draw``)."""
    shifted = dist.shift(draw, require_int(level, "level") + rules.combine(modifiers))
    results = dist.clamp(shifted, rules.floor, rules.ceiling)
    return dist.shift(results, -require_int(difficulty, "difficulty"))


def success_chance_of(margins: dict[int, Fraction], rules: ActionRules) -> Fraction:
    """The chance of success read from a distribution of margins."""
    return _tally(margins, rules)[Outcome.SUCCESS]


def _tally(margins: dict[int, Fraction], rules: ActionRules) -> dict[Outcome, Fraction]:
    chances = {Outcome.SUCCESS: Fraction(0), Outcome.FAILURE: Fraction(0), rules.tie: Fraction(0)}
    for margin, chance in margins.items():
        chances[rules.outcome(margin)] += chance
    return chances


def outcome_chances(
    method: str,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> dict[Outcome, Fraction]:
    """The chance of success, of failure, and of whatever a tie counts as under ``rules``."""
    margins = margin_distribution(
        method, level=level, difficulty=difficulty, modifiers=modifiers, rules=rules
    )
    return _tally(margins, rules)


def success_chance(
    method: str,
    *,
    level: int,
    difficulty: int,
    modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_RULES,
) -> Fraction:
    """The exact chance that an unopposed action succeeds (a tie counts only if ``rules.tie``
    is success)."""
    chances = outcome_chances(
        method, level=level, difficulty=difficulty, modifiers=modifiers, rules=rules
    )
    return chances[Outcome.SUCCESS]


@lru_cache(maxsize=4096)
def _opposed(
    active_method: str,
    passive_method: str,
    active_level: int,
    passive_level: int,
    active_modifier: int,
    passive_modifier: int,
    rules: ActionRules,
    minimum: int | None,
) -> tuple[Pairs, tuple[tuple[Outcome, Fraction], ...]]:
    active = _results(active_method, active_level, active_modifier, rules)
    passive = _results(passive_method, passive_level, passive_modifier, rules)
    degrees: dict[int, Fraction] = {}
    chances = {Outcome.SUCCESS: Fraction(0), Outcome.FAILURE: Fraction(0), rules.tie: Fraction(0)}
    for mine, p_mine in active:
        for theirs, p_theirs in passive:
            degree, chance = mine - theirs, p_mine * p_theirs
            degrees[degree] = degrees.get(degree, Fraction(0)) + chance
            outcome = rules.outcome(degree)
            if minimum is not None and mine < minimum:
                outcome = Outcome.FAILURE
            chances[outcome] += chance
    return _pairs(degrees), tuple(chances.items())


# A side as the caller gave it (method, level, modifiers), still unchecked: _contest checks
# both methods before either level, so a bad question names the same setting it always did.
_Side = tuple[str, int, Sequence[int]]


def _contest(
    active: _Side, passive: _Side, rules: ActionRules, minimum: int | None
) -> tuple[Pairs, tuple[tuple[Outcome, Fraction], ...]]:
    (active_method, active_level, active_modifiers) = active
    (passive_method, passive_level, passive_modifiers) = passive
    for key in (active_method, passive_method):
        get_method(key)  # refuse a bad key with the usual error
    return _opposed(
        active_method,
        passive_method,
        require_int(active_level, "active_level"),
        require_int(passive_level, "passive_level"),
        rules.combine(active_modifiers),
        rules.combine(passive_modifiers),
        rules,
        None if minimum is None else require_int(minimum, "minimum"),
    )


def opposed_degree_distribution(
    active_method: str,
    passive_method: str,
    *,
    active_level: int,
    passive_level: int,
    active_modifiers: Sequence[int] = (),
    passive_modifiers: Sequence[int] = (),
    rules: ActionRules = PLAIN_OPPOSED_RULES,
) -> dict[int, Fraction]:
    """The chance of each relative degree (active result - passive result). For an NPC that
    does not roll, pass ``"none"`` as its method."""
    degrees, _ = _contest(
        (active_method, active_level, active_modifiers),
        (passive_method, passive_level, passive_modifiers),
        rules,
        None,
    )
    return dict(degrees)


def opposed_outcome_chances(
    active_method: str,
    passive_method: str,
    *,
    active_level: int,
    passive_level: int,
    active_modifiers: Sequence[int] = (),
    passive_modifiers: Sequence[int] = (),
    minimum: int | None = None,
    rules: ActionRules = PLAIN_OPPOSED_RULES,
) -> dict[Outcome, Fraction]:
    """The chance of each outcome of a contest, from the active side's point of view."""
    _, chances = _contest(
        (active_method, active_level, active_modifiers),
        (passive_method, passive_level, passive_modifiers),
        rules,
        minimum,
    )
    return dict(chances)


def opposed_success_chance(
    active_method: str,
    passive_method: str,
    *,
    active_level: int,
    passive_level: int,
    active_modifiers: Sequence[int] = (),
    passive_modifiers: Sequence[int] = (),
    minimum: int | None = None,
    rules: ActionRules = PLAIN_OPPOSED_RULES,
) -> Fraction:
    """The exact chance that the active side wins a contest."""
    return opposed_outcome_chances(
        active_method,
        passive_method,
        active_level=active_level,
        passive_level=passive_level,
        active_modifiers=active_modifiers,
        passive_modifiers=passive_modifiers,
        minimum=minimum,
        rules=rules,
    )[Outcome.SUCCESS]


# A side of a contest of many, as the caller gives it: its dice method, level and modifiers.
ManySide = tuple[str, int, Sequence[int]]


def many_win_chances(sides: Sequence[ManySide], rules: ActionRules) -> tuple[Fraction, ...]:
    """Each side's exact chance of winning a contest of many (``resolution.many``): of a
    result above every other side's, or, where ``rules.tie`` makes tied leaders winners, of
    none above its own. The sides roll independently, so each is one sum over its results:
    P(side rolls r) times, for every other side, P(it rolls below r) (or at most r)."""
    if len(sides) < 2:
        raise RulesError("sides", gettext_noop("a contest needs at least two sides"))
    for method, _, _ in sides:
        get_method(method)  # a bad key is refused with the usual error
    spreads = [
        _results(method, require_int(level, "level"), rules.combine(modifiers), rules)
        for method, level, modifiers in sides
    ]
    shared = rules.tie is Outcome.SUCCESS

    def at_most(spread: Pairs, value: int) -> Fraction:
        return sum((p for result, p in spread if result <= value), Fraction(0))

    chances = []
    for index, spread in enumerate(spreads):
        others = [other for place, other in enumerate(spreads) if place != index]
        total = Fraction(0)
        for result, p in spread:
            beaten = p
            for other in others:
                beaten *= at_most(other, result if shared else result - 1)
            total += beaten
        chances.append(total)
    return tuple(chances)
