"""The EZFudge wound track: wound levels, stun results, healing and medical care.

Seed: EZFudge Essentials "Wounds and Healing" (Wound Track, Stun Results, First Aid and
Natural Healing, Medical Care) and "Fight Scenes" step 4. The seed's wound table is a picture
that did not survive, so the levels, their boxes and the damage that reaches each are a
setting; ``EZ_WOUND_TRACK`` holds the defaults (damage 1-2 Scratch, 3-4 Hurt, 5-6 Very Hurt,
7-8 Out of It, 9+ Near Death; boxes 3/2/1/1/1, this module's choice).

The first level is the Scratch level: its marks, and Scratches promoted past it, clear after
the fight. Template and state are separate, as in ``tracks.py``.
"""

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

from fudgetable.rules.data import by_name, integer, items, obj, text
from fudgetable.rules.errors import RulesError
from fudgetable.rules.tracks import check_box_group
from fudgetable.rules.words import gettext_noop

FAIR = 1


class Effect(IntEnum):
    """A wound level's special consequence; only the worst one in effect counts."""

    NONE = 0
    BARELY_MOVES = 1  # Very Hurt or worse: at most one area a round
    NO_ACTIONS = 2  # Out of It or worse: no actions, cannot move on one's own


class Box(StrEnum):
    CLEAR = "clear"
    WOUND = "wound"
    SCRATCH = "scratch"  # a Scratch, perhaps promoted to a higher level: heals after the fight
    STUN = "stun"  # lightly circled, not marked: heals like a Scratch


@dataclass(frozen=True)
class WoundLevel:
    name: str
    boxes: int
    min_damage: int  # the least damage that causes a wound of this level
    effect: Effect = Effect.NONE
    penalty: int = 0  # EZ itself gives none; a campaign may add roll penalties

    def __post_init__(self) -> None:
        check_box_group("level", gettext_noop("wound level"), self.name, self.boxes, self.penalty)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "boxes": self.boxes,
            "min_damage": self.min_damage,
            "effect": self.effect.name.lower(),
            "penalty": self.penalty,
        }

    @classmethod
    def from_dict(cls, data: object) -> "WoundLevel":
        d = obj(data, "level")
        effect = by_name(Effect, d, "effect", "level", Effect.NONE)
        return cls(
            text(d, "name", "level"),
            integer(d, "boxes", "level"),
            integer(d, "min_damage", "level"),
            effect,
            integer(d, "penalty", "level", 0),
        )


@dataclass(frozen=True)
class WoundTrack:
    name: str
    levels: tuple[WoundLevel, ...]

    def __post_init__(self) -> None:
        if len(self.levels) < 2:
            raise RulesError(
                "track.levels", gettext_noop("a wound track needs a Scratch level and more")
            )
        if self.levels[0].min_damage < 1:
            raise RulesError("track.levels", gettext_noop("no damage should still cause no wound"))
        thresholds = [lv.min_damage for lv in self.levels]
        if thresholds != sorted(set(thresholds)):
            raise RulesError(
                "track.levels", gettext_noop("each level needs more damage than the one below")
            )
        effects = [lv.effect for lv in self.levels]
        if effects != sorted(effects):
            raise RulesError(
                "track.levels", gettext_noop("a worse wound cannot have a milder effect")
            )

    def empty(self) -> "WoundState":
        return WoundState(tuple((Box.CLEAR,) * lv.boxes for lv in self.levels))

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "levels": [lv.to_dict() for lv in self.levels]}

    @classmethod
    def from_dict(cls, data: object) -> "WoundTrack":
        d = obj(data, "track")
        levels = items(d, "levels", "track", required=True)
        return cls(text(d, "name", "track"), tuple(WoundLevel.from_dict(lv) for lv in levels))


@dataclass(frozen=True)
class WoundState:
    levels: tuple[tuple[Box, ...], ...]

    def to_dict(self) -> dict[str, Any]:
        return {"levels": [[b.value for b in boxes] for boxes in self.levels]}

    @classmethod
    def from_dict(cls, data: object) -> "WoundState":
        d = obj(data, "state")
        levels = d.get("levels")
        if not isinstance(levels, list) or not all(isinstance(row, list) for row in levels):
            raise RulesError("state.levels", gettext_noop("must be a list of box lists"))
        try:
            return cls(tuple(tuple(Box(b) for b in row) for row in levels))
        except ValueError:
            raise RulesError(
                "state.levels", gettext_noop("boxes are clear, wound, scratch or stun")
            ) from None


@dataclass(frozen=True)
class Wounded:
    """What taking a wound did: the new state, the level marked, and any overflow."""

    state: WoundState
    level: int | None
    overflow: bool = False  # no free box at or above the level: the GM rules (Fudge: dead)


def _rows(track: WoundTrack, state: WoundState) -> list[list[Box]]:
    shape = [lv.boxes for lv in track.levels]
    if [len(row) for row in state.levels] != shape:
        raise RulesError(
            "state.levels",
            gettext_noop("%(name)s has boxes %(shape)s"),
            name=track.name,
            shape=shape,
        )
    return [list(row) for row in state.levels]


def _level(track: WoundTrack, level: int) -> None:
    if not 0 <= level < len(track.levels):
        raise RulesError(
            "level", gettext_noop("levels run from 0 to %(value)s"), value=len(track.levels) - 1
        )


def damage(margin: int, inj: int, cpd: int) -> int:
    """Damage from a successful attack: margin + INJ - CPD."""
    return margin + inj - cpd


def level_for_damage(track: WoundTrack, amount: int) -> int | None:
    """Index of the wound level ``amount`` of damage causes, or None for no wound."""
    reached = [i for i, lv in enumerate(track.levels) if amount >= lv.min_damage]
    return reached[-1] if reached else None


def take_wound(track: WoundTrack, state: WoundState, level: int, *, stun: bool = False) -> Wounded:
    """Mark a wound of ``level``; a full level promotes it to the next level with room.

    A stun result that would be a Scratch does nothing; others are circled, not marked.
    """
    rows = _rows(track, state)
    _level(track, level)
    if stun and level == 0:
        return Wounded(state, None)
    kind = Box.STUN if stun else Box.SCRATCH if level == 0 else Box.WOUND
    for at in range(level, len(rows)):
        if Box.CLEAR in rows[at]:
            rows[at][rows[at].index(Box.CLEAR)] = kind
            return Wounded(WoundState(tuple(map(tuple, rows))), at)
    return Wounded(state, None, overflow=True)


def hit(
    track: WoundTrack, state: WoundState, *, margin: int, inj: int, cpd: int, stun: bool = False
) -> Wounded:
    """A successful attack: work out the damage and take the wound it causes, if any."""
    level = level_for_damage(track, damage(margin, inj, cpd))
    if level is None:
        return Wounded(state, None)
    return take_wound(track, state, level, stun=stun)


def heal_box(track: WoundTrack, state: WoundState, level: int) -> WoundState:
    """Clear one mark at ``level`` (a GM's correction or special healing)."""
    rows = _rows(track, state)
    _level(track, level)
    marked = [i for i, b in enumerate(rows[level]) if b is not Box.CLEAR]
    if not marked:
        raise RulesError(
            "level", gettext_noop("no %(name)s box is marked"), name=track.levels[level].name
        )
    rows[level][marked[-1]] = Box.CLEAR
    return WoundState(tuple(map(tuple, rows)))


def after_fight(track: WoundTrack, state: WoundState) -> WoundState:
    """Scratches (promoted ones too) and stun results are erased after the battle."""
    rows = _rows(track, state)
    return WoundState(
        tuple(tuple(Box.CLEAR if b in (Box.SCRATCH, Box.STUN) else b for b in r) for r in rows)
    )


def _improve(rows: list[list[Box]], level: int) -> bool:
    """Move one wound at ``level`` (the caller knows there is one) down a level; the lowest
    real wounds just disappear. False when there is no room below."""
    if level > 1:
        if Box.CLEAR not in rows[level - 1]:
            return False
        rows[level - 1][rows[level - 1].index(Box.CLEAR)] = Box.WOUND
    rows[level][rows[level].index(Box.WOUND)] = Box.CLEAR
    return True


def rest_week(track: WoundTrack, state: WoundState) -> WoundState:
    """A week of rest improves every wound one level; Hurts heal, never becoming Scratches.

    Levels are worked from the mildest up so a healed Hurt frees room for a Very Hurt; a
    wound with no free box one level down waits for next week.
    """
    rows = after_fight(track, state).levels
    work = [list(r) for r in rows]
    for level in range(1, len(work)):
        for _ in range(rows[level].count(Box.WOUND)):
            _improve(work, level)
    return WoundState(tuple(map(tuple, work)))


MEDICAL_CARE_PER_WEEK = {
    gettext_noop("Fantasy/Medieval"): 1,
    gettext_noop("Industrial Era"): 2,
    gettext_noop("Modern"): 3,
}
DEFAULT_ERA = gettext_noop("Fantasy/Medieval")  # the table's first row, and its slowest care
HOSPITAL_BONUS = 1  # treatment in a hospital counts as high quality equipment


def may_treat(era: str, treatments_this_week: int) -> bool:
    if era not in MEDICAL_CARE_PER_WEEK:
        raise RulesError("era", gettext_noop("unknown era %(era)r"), era=era)
    if treatments_this_week < 0:
        raise RulesError("treatments_this_week", gettext_noop("cannot be negative"))
    return treatments_this_week < MEDICAL_CARE_PER_WEEK[era]


def tries_left(era: str, wounds: int, tried: int) -> int:
    """Treatment rolls still to be made this week on the ``wounds`` wounds of one level.

    The healer "cannot make rolls on those wounds again until that time period is up", the
    era's period: so the era's frequency is each wound's, and a level holding two wounds
    takes twice the rolls. ``tried`` counts this week's rolls on wounds now at that level.
    """
    if wounds < 0 or tried < 0:
        raise RulesError("tried", gettext_noop("cannot be negative"))
    if era not in MEDICAL_CARE_PER_WEEK:
        raise RulesError("era", gettext_noop("unknown era %(era)r"), era=era)
    return max(0, MEDICAL_CARE_PER_WEEK[era] * wounds - tried)


def treat(
    track: WoundTrack, state: WoundState, level: int, result: int, *, fair: int = FAIR
) -> WoundState:
    """Medical care: a Fair or better healer's result improves one wound at ``level``.

    ``fair`` is Fair's value on the campaign's ladder (+1 on Fudge's own)."""
    rows = _rows(track, state)
    _level(track, level)
    if level == 0 or Box.WOUND not in rows[level]:
        raise RulesError(
            "level", gettext_noop("no %(name)s wound to treat"), name=track.levels[level].name
        )
    if result < fair or not _improve(rows, level):
        return state
    return WoundState(tuple(map(tuple, rows)))


def treated_to(level: int, improved: bool) -> int | None:
    """Where a treated wound is now: still at ``level``, one level down, or healed (None), a
    Hurt not becoming a Scratch."""
    if not improved:
        return level
    return level - 1 if level > 1 else None


def worst_level(track: WoundTrack, state: WoundState) -> int | None:
    """The highest level with any mark or circle."""
    rows = _rows(track, state)
    occupied = [i for i, row in enumerate(rows) if any(b is not Box.CLEAR for b in row)]
    return occupied[-1] if occupied else None


def effect(track: WoundTrack, state: WoundState) -> Effect:
    worst = worst_level(track, state)
    return Effect.NONE if worst is None else track.levels[worst].effect


def penalty(track: WoundTrack, state: WoundState) -> int:
    """The penalty of the worst level reached; only the highest consequence applies."""
    worst = worst_level(track, state)
    return 0 if worst is None else track.levels[worst].penalty


EZ_WOUND_TRACK = WoundTrack(
    gettext_noop("Wounds"),
    (
        WoundLevel(gettext_noop("Scratch"), 3, 1),
        WoundLevel(gettext_noop("Hurt"), 2, 3),
        WoundLevel(gettext_noop("Very Hurt"), 1, 5, Effect.BARELY_MOVES),
        WoundLevel(gettext_noop("Out of It"), 1, 7, Effect.NO_ACTIONS),
        WoundLevel(gettext_noop("Near Death"), 1, 9, Effect.NO_ACTIONS),
    ),
)
