"""What a character's sheet brings to a roll: each modifier as a named line the roller sees
before rolling and may untick, and whether the character may act at all.

- Condition and wound tracks (Fudge Lite "Condition Penalties": "Hurt (-1)", "Very Hurt (-2)";
  a campaign's own track may give any group a penalty). Only the worst penalty in force on a
  track counts, as ``tracks.penalty`` and ``wounds.penalty`` read it. A character taken out
  (Fudge Lite's last box) or Out of It or worse (EZFudge: "you can take no actions") may not
  act.
- Gifts and faults whose modifier names the trait: one with no situation always applies; one
  with a situation ("near gold") applies when the roller says it does, so it starts unticked.
- Peupfudge statuses in their current state (appendix C's Energy: Exhausted -2 ... Rested
  +1) apply; the sheet does not keep which abilities a status touches (Energy: Muscle and
  Perception), so the roller unticks it for others. A property's bonus is situational.

Which lines count, and how they add up, is still the ruleset's modifier policy (Fudge Lite:
the largest bonus and the largest penalty); this module only says what the sheet offers.
"""

from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass

from fudgetable.rules import sheet_tracks, tracks, wounds
from fudgetable.rules.character import Fault, Gift
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.tracks import ConditionTrack, TrackState
from fudgetable.rules.words import Words, gettext_noop
from fudgetable.rules.wounds import WoundState, WoundTrack


@dataclass(frozen=True)
class SheetLine:
    """One modifier from the sheet, as the roller sees it."""

    key: str  # names the line in a form and in the log: "track:injury", "fault:Greedy"
    name: str  # in words: "Injury: Hurt", "Greedy (fault), near gold"
    amount: int
    situational: bool = False  # applies only when its situation fits: the roller ticks it

    def to_dict(self) -> dict[str, object]:
        return {"key": self.key, "name": self.name, "amount": self.amount}


@dataclass(frozen=True)
class Ticks:
    """What a roller chose on a form: the lines left ``ticked`` of those it ``shown`` (None:
    every line the sheet offers)."""

    ticked: Collection[str]
    shown: Collection[str] | None = None


@dataclass(frozen=True)
class SheetModifiers:
    lines: tuple[SheetLine, ...] = ()
    no_action: str = ""  # why the character may take no action now, in words; "" if it may

    def chosen(self, ticks: Ticks | None = None) -> tuple[SheetLine, ...]:
        """The lines that apply: of those the roller was shown, the ones left ticked; any
        other line (nobody was asked, or the sheet changed after the form was drawn, say a
        wound marked meanwhile) applies unless it is situational."""
        return tuple(
            line
            for line in self.lines
            if (
                line.key in ticks.ticked
                if ticks is not None and (ticks.shown is None or line.key in ticks.shown)
                else not line.situational
            )
        )


@dataclass(frozen=True)
class SheetDetail:
    """A Peupfudge status or property as the sheet keeps it: a name, a value, a modifier."""

    name: str
    value: str
    modifier: int
    situational: bool = False  # a property's bonus; a status applies while it is so


def sheet_modifiers(
    ruleset: Ruleset,
    *,
    trait: str,
    tracks_state: Mapping[str, object],
    npc_boxes: int | None = None,
    gifts: Iterable[Gift] = (),
    faults: Iterable[Fault] = (),
    details: Iterable[SheetDetail] = (),
) -> SheetModifiers:
    """Every line the sheet offers for a roll of ``trait`` ("untrained" names none)."""
    lines: list[SheetLine] = []
    no_action = ""
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=npc_boxes, fit=True)
    for key, template in templates.items():
        state = sheet_tracks.state_of(template, tracks_state.get(key))
        line, why = _track_line(key, template, state)
        if line is not None:
            lines.append(line)
        no_action = no_action or why
    lines += _feature_lines(trait, gifts, "gift") + _feature_lines(trait, faults, "fault")
    for status in details:
        if status.modifier:
            kind = "property" if status.situational else "status"
            lines.append(
                SheetLine(
                    f"{kind}:{status.name}",
                    f"{status.name}: {status.value}" if status.value else status.name,
                    status.modifier,
                    situational=status.situational,
                )
            )
    return SheetModifiers(tuple(lines), no_action)


def _track_line(
    key: str, template: ConditionTrack | WoundTrack, state: object
) -> tuple[SheetLine | None, str]:
    """The track's penalty in force as a line, and why it stops the character acting."""
    if isinstance(template, WoundTrack):
        assert isinstance(state, WoundState)
        reached = wounds.worst_level(template, state)
        if reached is None:
            return None, ""
        level = template.levels[reached]
        why = level.name if level.effect is wounds.Effect.NO_ACTIONS else ""
        line = SheetLine(f"track:{key}", _track_words(template.name, level.name), level.penalty)
        return (line if level.penalty else None), why
    assert isinstance(state, TrackState)
    outcome = tracks.outcome(template, state)
    why = {"dies": gettext_noop("dead"), "incapacitated": gettext_noop("incapacitated")}.get(
        outcome or "", ""
    )
    penalty = tracks.penalty(template, state)
    if not penalty:
        return None, why
    worst = next(
        template.group_of(index).name
        for index, box in enumerate(state.boxes)
        if box is not None and template.group_of(index).penalty == penalty
    )
    return SheetLine(f"track:{key}", _track_words(template.name, worst), penalty), why


def _track_words(track: str, level: str) -> Words:
    """ "Wounds: Hurt", each name in the reader's language where the rules gave it."""
    return Words(gettext_noop("%(track)s: %(level)s"), track=Words(track), level=Words(level))


_FEATURE = {"gift": gettext_noop("%(name)s (gift)"), "fault": gettext_noop("%(name)s (fault)")}
_SITUATIONAL = {
    "gift": gettext_noop("%(name)s (gift), %(situation)s"),
    "fault": gettext_noop("%(name)s (fault), %(situation)s"),
}


def _feature_lines(trait: str, features: Iterable[Gift | Fault], kind: str) -> list[SheetLine]:
    wanted = trait.strip().casefold()
    lines = []
    for feature in features:
        for index, modifier in enumerate(feature.modifiers):
            if modifier.target.strip().casefold() != wanted or not modifier.amount:
                continue
            name = Words(_FEATURE[kind], name=feature.name)
            if not modifier.always:
                situation = modifier.situation.strip()
                name = Words(_SITUATIONAL[kind], name=feature.name, situation=situation)
            lines.append(
                SheetLine(
                    f"{kind}:{feature.name}:{index}",
                    name,
                    modifier.amount,
                    situational=not modifier.always,
                )
            )
    return lines
