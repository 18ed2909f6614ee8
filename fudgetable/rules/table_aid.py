"""A campaign's table aid: what a table keeps at hand, on one printed page, from its rules.

The ladder with its numbers, the dice method's exact odds (each result and "this or better"),
the injury or wound track with what each row means, and the Fudge point uses the table allows.
Every number comes from the ``Ruleset``, so a campaign's own settings (a custom ladder, 3dF, a
penalty track, fewer Fudge point uses) print as they are.
"""

import math
from dataclasses import dataclass
from fractions import Fraction

from fudgetable.rules import distribution as dist
from fudgetable.rules.dice import get_method
from fudgetable.rules.rulesets import FUDGE_POINT_USES, Ruleset
from fudgetable.rules.tracks import ConditionTrack, Recovery
from fudgetable.rules.words import gettext_noop
from fudgetable.rules.wounds import Effect


@dataclass(frozen=True)
class Rung:
    name: str
    value: int
    extended: bool  # reached by results, not normally by traits


@dataclass(frozen=True)
class Odds:
    roll: int
    chance: Fraction
    or_better: Fraction
    out_of: int  # the table's common denominator: "19 of 81"

    @property
    def ways(self) -> int:
        return int(self.chance * self.out_of)

    @property
    def ways_or_better(self) -> int:
        return int(self.or_better * self.out_of)

    @property
    def percent(self) -> float:
        return float(self.chance * 100)

    @property
    def or_better_percent(self) -> float:
        return float(self.or_better * 100)


@dataclass(frozen=True)
class DiceOdds:
    key: str
    label: str
    odds: tuple[Odds, ...]
    opposed_only: bool = False  # the method opposed rolls use, when it is another


@dataclass(frozen=True)
class TrackRow:
    name: str
    boxes: int
    penalty: int
    recovery: str = ""  # "tending" or "long rest", on a condition track
    least_damage: int | None = None  # on a wound track
    effect: str = ""  # "barely moves", "no actions", on a wound track

    @property
    def each_box(self) -> range:
        return range(self.boxes)


@dataclass(frozen=True)
class TableAid:
    label: str
    ladder: tuple[Rung, ...]  # high to low; empty for plain numbers (Peupfudge)
    default_difficulty: str
    dice: tuple[DiceOdds, ...]
    track_name: str
    track: tuple[TrackRow, ...]
    last_box: str  # "dies" or "incapacitated"
    starting_fudge_points: int
    fudge_point_uses: tuple[str, ...]


def _odds(key: str, *, opposed_only: bool = False) -> DiceOdds:
    method = get_method(key)
    chances = method.distribution()
    out_of = math.lcm(*(chance.denominator for chance in chances.values()))
    odds = tuple(
        Odds(roll, chance, dist.at_least(chances, roll), out_of)
        for roll, chance in sorted(chances.items())
    )
    return DiceOdds(method.key, method.label, odds, opposed_only)


def _track(ruleset: Ruleset) -> tuple[str, tuple[TrackRow, ...]]:
    track = ruleset.injury_track
    if isinstance(track, ConditionTrack):
        recovery = {Recovery.TENDING: "tending", Recovery.LONG_REST: gettext_noop("long rest")}
        rows = tuple(
            TrackRow(g.name, g.boxes, g.penalty, recovery=recovery[g.recovery])
            for g in track.groups
        )
        return track.name, rows
    wounds = ruleset.wound_track
    if wounds is None:
        return "", ()
    effect = {
        Effect.BARELY_MOVES: gettext_noop("barely moves"),
        Effect.NO_ACTIONS: gettext_noop("no actions"),
    }
    return wounds.name, tuple(
        TrackRow(
            w.name, w.boxes, w.penalty, least_damage=w.min_damage, effect=effect.get(w.effect, "")
        )
        for w in wounds.levels
    )


def table_aid(ruleset: Ruleset) -> TableAid:
    ladder = ruleset.ladder
    dice = [_odds(ruleset.dice)]
    if ruleset.opposed_dice != ruleset.dice:
        dice.append(_odds(ruleset.opposed_dice, opposed_only=True))
    track_name, track = _track(ruleset)
    return TableAid(
        label=ruleset.label,
        ladder=tuple(Rung(r.name, r.value, r.extended) for r in reversed(ladder.rungs)),
        default_difficulty=ladder.describe(ruleset.default_difficulty),
        dice=tuple(dice),
        track_name=track_name,
        track=track,
        last_box=ruleset.last_box,
        starting_fudge_points=ruleset.starting_fudge_points,
        fudge_point_uses=tuple(FUDGE_POINT_USES[use] for use in ruleset.fudge_point_uses),
    )
