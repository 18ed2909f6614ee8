"""Spotlight time (Fudge Lite "Spotlight"): how long each character held it, and each one's
share of the whole, so the GM can see whether every player gets a fair turn."""

from collections.abc import Hashable, Iterable, Mapping
from datetime import timedelta
from fractions import Fraction
from math import floor

from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import gettext_noop


def time_held[K: Hashable](stretches: Iterable[tuple[K, timedelta]]) -> dict[K, int]:
    """Whole seconds each holder had the spotlight, from ``(holder, how long)`` stretches (the
    caller counts a stretch still running up to now). Parts of a second are dropped, and time
    that ran backwards (a clock set back) counts as none."""
    held: dict[K, float] = {}
    for holder, length in stretches:
        held[holder] = held.get(holder, 0) + max(length.total_seconds(), 0)
    return {holder: int(seconds) for holder, seconds in held.items()}


def shares[K: Hashable](durations: Mapping[K, int]) -> dict[K, int]:
    """Whole percentages of the total, summing to exactly 100 (largest remainder: the parts
    closest to rounding up get the points rounding down lost; a tie goes to the earlier one).
    When nobody held the spotlight at all, everyone's share is 0."""
    if any(seconds < 0 for seconds in durations.values()):
        raise RulesError("durations", gettext_noop("a time in the spotlight cannot be negative"))
    total = sum(durations.values())
    if total == 0:
        return dict.fromkeys(durations, 0)
    exact = {holder: Fraction(seconds * 100, total) for holder, seconds in durations.items()}
    result = {holder: floor(part) for holder, part in exact.items()}
    left = 100 - sum(result.values())
    order = sorted(enumerate(exact), key=lambda pair: (result[pair[1]] - exact[pair[1]], pair[0]))
    for _, holder in order[:left]:
        result[holder] += 1
    return result
