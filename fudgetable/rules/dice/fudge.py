"""Fudge dice and the ways plain d6s stand in for them.

Seeds: Fudge 1995 3.21 (4dF; d6s read 1-2 minus, 3-4 blank, 5-6 plus), 3.22 (4d6 lowest die),
3.5 (the NPC d6); Fudge Lite "Trait Checks" (4d6 as Fudge dice), "Alternatives to Fudge Dice"
(1d6-1d6) and "Smaller Bonuses and Penalties" (advantage and disadvantage dice); Peupfudge 2
(NdF for any N, 3dF for opposed actions); EZFudge "Rolls for Foes" (0, 1dF or 4dF for foes).
"""

from collections.abc import Sequence
from fractions import Fraction

from fudgetable.rules import distribution as dist
from fudgetable.rules.dice.base import DiceMethod, Face, RandomSource, require_faces
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import Words, gettext_noop

# A server-side limit, not a rule: enough for any table, small enough that a stored method key
# can never ask the server for a huge convolution.
MAX_DICE = 100

_FUDGE_DIE = dist.uniform((-1, 0, 1))
# An advantage die ignores its minus (it reads 0); a disadvantage die ignores its plus.
_ADVANTAGE_DIE = dist.uniform((0, 0, 1))
_DISADVANTAGE_DIE = dist.uniform((-1, 0, 0))


def _check_count(count: int, setting: str = "dice_method") -> None:
    if not 1 <= count <= MAX_DICE:
        raise RulesError(
            setting,
            gettext_noop("roll from 1 to %(max_dice)s dice, not %(count)s"),
            max_dice=MAX_DICE,
            count=count,
        )


def _d6_as_fudge(face: int) -> int:
    return (face - 1) // 2 - 1  # 1-2 -> -1, 3-4 -> 0, 5-6 -> +1


class FudgeDice(DiceMethod):
    """NdF. With ``advantage`` (or ``disadvantage``) some of the N dice are advantage (or
    disadvantage) dice; they are the last faces of the roll. Never both kinds in one roll."""

    def __init__(self, count: int = 4, advantage: int = 0, disadvantage: int = 0) -> None:
        _check_count(count)
        if advantage and disadvantage:
            raise RulesError(
                "dice_method",
                gettext_noop("advantage and disadvantage dice cancel out; never roll both"),
            )
        special = advantage or disadvantage
        if not 0 <= special <= count:
            raise RulesError(
                "dice_method",
                gettext_noop("%(special)s special dice is more than %(count)s dice"),
                special=special,
                count=count,
            )
        self.count = count
        self.advantage = advantage
        self.disadvantage = disadvantage
        self.key = f"{count}dF"
        self.label = Words(gettext_noop("%(count)d Fudge dice"), count=count)
        if advantage:
            self.key += f"/{advantage}adv"
            self.label = Words(
                gettext_noop("%(count)d Fudge dice, %(special)d of them advantage dice"),
                count=count,
                special=advantage,
            )
        if disadvantage:
            self.key += f"/{disadvantage}dis"
            self.label = Words(
                gettext_noop("%(count)d Fudge dice, %(special)d of them disadvantage dice"),
                count=count,
                special=disadvantage,
            )

    @property
    def plain(self) -> int:
        return self.count - self.advantage - self.disadvantage

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return tuple(rng.randint(-1, 1) for _ in range(self.count))

    def read(self, faces: Sequence[object]) -> int:
        checked = require_faces(faces, self.count, -1, 1)
        plain, special = checked[: self.plain], checked[self.plain :]
        if self.advantage:
            return sum(plain) + sum(max(face, 0) for face in special)
        return sum(plain) + sum(min(face, 0) for face in special)

    def exact(self) -> dict[int, Fraction]:
        special = _ADVANTAGE_DIE if self.advantage else _DISADVANTAGE_DIE
        return dist.convolve(
            dist.repeat(_FUDGE_DIE, self.plain),
            dist.repeat(special, self.advantage or self.disadvantage),
        )


class FudgeD6(DiceMethod):
    """Plain d6s read as Fudge dice (Fudge Lite): same odds as NdF."""

    def __init__(self, count: int = 4) -> None:
        _check_count(count)
        self.count = count
        self.key = f"{count}d6-fudge"
        self.label = Words(gettext_noop("%(count)dd6 read as Fudge dice"), count=count)

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return tuple(rng.randint(1, 6) for _ in range(self.count))

    def read(self, faces: Sequence[object]) -> int:
        return sum(_d6_as_fudge(face) for face in require_faces(faces, self.count, 1, 6))

    def exact(self) -> dict[int, Fraction]:
        return dist.repeat(_FUDGE_DIE, self.count)


class LowestDie(DiceMethod):
    """Fudge 1995's 4d6: faces are two positive dice then two negative dice. Only the lowest
    number counts; if it shows on dice of one colour only it is the result with that colour's
    sign, if on both colours the result is 0. Range -5 to +5."""

    key = "4d6-lowest"
    label = gettext_noop("4d6, lowest die (two positive, two negative)")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return tuple(rng.randint(1, 6) for _ in range(4))

    def read(self, faces: Sequence[object]) -> int:
        checked = require_faces(faces, 4, 1, 6)
        positive, negative = min(checked[:2]), min(checked[2:])
        if positive == negative:
            return 0
        return positive if positive < negative else -negative

    def exact(self) -> dict[int, Fraction]:
        counts: dict[int, int] = {}
        for index in range(6**4):
            faces = tuple(index // 6**place % 6 + 1 for place in range(4))
            value = self.read(faces)
            counts[value] = counts.get(value, 0) + 1
        return dist.from_counts(counts)


class OneD6MinusOneD6(DiceMethod):
    """Fudge Lite's 1d6-1d6: faces are the positive die then the negative die. (The seed's
    "keep the lower die" reading maps faces differently but has exactly the same odds.)"""

    key = "1d6-1d6"
    label = gettext_noop("1d6 - 1d6")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return (rng.randint(1, 6), rng.randint(1, 6))

    def read(self, faces: Sequence[object]) -> int:
        positive, negative = require_faces(faces, 2, 1, 6)
        return positive - negative

    def exact(self) -> dict[int, Fraction]:
        return dist.convolve(dist.uniform(range(1, 7)), dist.uniform(range(-6, 0)))


_NPC_HOW_MUCH = {1: 1, 2: 1, 3: 1, 4: 2, 5: 2, 6: 3}


class NpcD6(DiceMethod):
    """Fudge 1995 3.5: one d6 for an NPC; 2-5 gives the trait level, 1 worse, 6 better. A second
    d6 says by how much; we always roll it, since the app needs an exact number."""

    key = "npc-d6"
    label = gettext_noop("NPC d6")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        first = rng.randint(1, 6)
        return (first, rng.randint(1, 6)) if first in (1, 6) else (first,)

    def read(self, faces: Sequence[object]) -> int:
        if len(faces) == 1:
            (first,) = require_faces(faces, 1, 1, 6)
            if first in (1, 6):
                raise RulesError("roll.faces", gettext_noop("a 1 or a 6 needs a second die"))
            return 0
        first, second = require_faces(faces, 2, 1, 6)
        if first not in (1, 6):
            raise RulesError(
                "roll.faces", gettext_noop("a second die is only rolled after a 1 or a 6")
            )
        return _NPC_HOW_MUCH[second] * (1 if first == 6 else -1)

    def exact(self) -> dict[int, Fraction]:
        how_much = dist.remap(dist.uniform(range(1, 7)), _NPC_HOW_MUCH.__getitem__)
        out = {0: Fraction(4, 6)}
        for steps, chance in how_much.items():
            out[steps] = out[-steps] = chance / 6
        return dict(sorted(out.items()))


class NoRoll(DiceMethod):
    """No dice: the roll is always 0 (an NPC that just uses its trait level, EZFudge's default
    for foes and Fudge 1995's "NPC always rolls 0")."""

    key = "none"
    label = gettext_noop("no roll (always 0)")

    def throw(self, rng: RandomSource) -> tuple[Face, ...]:
        return ()

    def read(self, faces: Sequence[object]) -> int:
        require_faces(faces, 0, 0, 0)
        return 0

    def exact(self) -> dict[int, Fraction]:
        return {0: Fraction(1)}
