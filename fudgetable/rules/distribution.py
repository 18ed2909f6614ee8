"""Exact probability distributions over integers, as ``dict[int, Fraction]``.

Every dice method and every odds figure is built from these few operations, so the chances the
app shows are exact fractions (Fudge 1995 3.23, EZFudge "Percentages", Peupfudge appendix D are
the checks). A distribution maps each possible value to its chance; the chances sum to 1 and
values with no chance are left out.
"""

from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

Distribution = dict[int, Fraction]


def from_counts(counts: Mapping[int, int]) -> Distribution:
    """Turn "how many equally likely ways give each value" into chances."""
    total = sum(counts.values())
    return {value: Fraction(count, total) for value, count in sorted(counts.items()) if count}


def uniform(values: Iterable[int]) -> Distribution:
    """Each listed value equally likely (a value listed twice counts twice)."""
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return from_counts(counts)


def convolve(first: Mapping[int, Fraction], second: Mapping[int, Fraction]) -> Distribution:
    """The distribution of the sum of two independent values."""
    out: dict[int, Fraction] = {}
    for a, pa in first.items():
        for b, pb in second.items():
            out[a + b] = out.get(a + b, Fraction(0)) + pa * pb
    return dict(sorted(out.items()))


def repeat(single: Mapping[int, Fraction], times: int) -> Distribution:
    """The sum of ``times`` independent copies (``times`` >= 0; zero copies always give 0)."""
    out: Distribution = {0: Fraction(1)}
    for _ in range(times):
        out = convolve(out, single)
    return out


def remap(dist: Mapping[int, Fraction], read: Callable[[int], int]) -> Distribution:
    """Read every value through ``read`` (values that read alike pool their chances)."""
    out: dict[int, Fraction] = {}
    for value, chance in dist.items():
        key = read(value)
        out[key] = out.get(key, Fraction(0)) + chance
    return dict(sorted(out.items()))


def shift(dist: Mapping[int, Fraction], by: int) -> Distribution:
    return {value + by: chance for value, chance in sorted(dist.items())}


def negate(dist: Mapping[int, Fraction]) -> Distribution:
    return {-value: chance for value, chance in sorted(dist.items(), reverse=True)}


def clamp(dist: Mapping[int, Fraction], floor: int | None, ceiling: int | None) -> Distribution:
    """Pile every value past a bound onto that bound."""

    def bounded(value: int) -> int:
        if floor is not None and value < floor:
            return floor
        if ceiling is not None and value > ceiling:
            return ceiling
        return value

    return remap(dist, bounded)


def at_least(dist: Mapping[int, Fraction], threshold: int) -> Fraction:
    """The chance of ``threshold`` or better."""
    return sum((chance for value, chance in dist.items() if value >= threshold), Fraction(0))


def mean(dist: Mapping[int, Fraction]) -> Fraction:
    return sum((value * chance for value, chance in dist.items()), Fraction(0))
