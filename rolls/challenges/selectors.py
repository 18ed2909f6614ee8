"""Reads for the table's challenge ladders, shaped for one audience: ``everyone`` (players and
observers) never gets a GM-only challenge; ``gm`` gets everything."""

from dataclasses import dataclass

from django.utils.translation import gettext_lazy

from campaigns.models import Campaign, Membership
from fudgetable.live import Audience, audience_of
from fudgetable.rules import challenges as ladder_rules
from rolls.challenges.models import Challenge

# The challenge ladders a GM starts from (Fate 3.1.2, 3.1.3 and 3.2.2), by form value.
PRESETS = {
    "static": ladder_rules.STATIC_LADDER,
    "word-on-the-street": ladder_rules.WORD_ON_THE_STREET,
    "chess-match": ladder_rules.CHESS_MATCH,
}
PRESET_CHOICES = [(key, ladder.name) for key, ladder in PRESETS.items()]
FRAGILITY_CHOICES = [
    (
        ladder_rules.Fragility.EQUIVALENT.value,
        gettext_lazy("A failure removes a success at its rung or higher"),
    ),
    (ladder_rules.Fragility.NONE.value, gettext_lazy("Failures remove nothing")),
    (ladder_rules.Fragility.HIGHEST.value, gettext_lazy("A failure removes the highest success")),
    (ladder_rules.Fragility.ALL.value, gettext_lazy("A failure removes every success")),
    (ladder_rules.Fragility.DESTROY.value, gettext_lazy("A failure ruins the project")),
]


def rules_challenge(
    challenge: Challenge,
) -> tuple[ladder_rules.ChallengeLadder, ladder_rules.ChallengeState]:
    ladder = ladder_rules.ChallengeLadder.from_dict(challenge.ladder)
    return ladder, ladder_rules.ChallengeState.from_dict(challenge.state)


@dataclass(frozen=True)
class RungRow:
    index: int
    margins: str  # the margins of success that land here: "0", "2-4", "7+"
    boxes: tuple[bool, ...]
    marked: int
    note: str


@dataclass(frozen=True)
class ChallengeRow:
    challenge: Challenge
    rungs: tuple[RungRow, ...]
    done: bool
    destroyed: bool
    span: ladder_rules.Pace | None
    recovery: ladder_rules.Pace | None
    checks: int  # checks made in the span's current period
    pursued: bool  # whether a check was made in the recovery's current period
    periods: tuple[str, ...]  # the periods whose passing changes it

    @property
    def span_used(self) -> bool:
        return self.span is not None and self.checks >= self.span.count


def _rungs(ladder: ladder_rules.ChallengeLadder, state: ladder_rules.ChallengeState) -> tuple:
    floors = [rung.mos for rung in ladder.rungs]
    rows = []
    for index, (rung, marked) in enumerate(zip(ladder.rungs, state.marks, strict=True)):
        if index + 1 == len(floors):
            margins = f"{rung.mos}+"
        elif floors[index + 1] - 1 > rung.mos:
            margins = f"{rung.mos}-{floors[index + 1] - 1}"
        else:
            margins = str(rung.mos)
        boxes = tuple(number < marked for number in range(rung.boxes))
        rows.append(RungRow(index, margins, boxes, marked, rung.note))
    return tuple(rows)


def challenge_row(challenge: Challenge) -> ChallengeRow:
    ladder, state = rules_challenge(challenge)
    return ChallengeRow(
        challenge=challenge,
        rungs=_rungs(ladder, state),
        done=ladder_rules.is_done(ladder, state),
        destroyed=state.destroyed,
        span=ladder.span,
        recovery=ladder.recovery,
        checks=state.checks,
        pursued=state.pursued,
        periods=ladder.periods,
    )


def challenge_rows(campaign: Campaign, audience: Audience) -> list[ChallengeRow]:
    challenges = Challenge.objects.filter(campaign=campaign)
    if audience != "gm":
        challenges = challenges.exclude(visibility=Challenge.Visibility.GM)
    return [challenge_row(challenge) for challenge in challenges]


def periods_in_play(rows: list[ChallengeRow]) -> list[str]:
    """The periods the GM may advance: each one some challenge here counts, named once."""
    named: list[str] = []
    for row in rows:
        for period in row.periods:
            if not any(ladder_rules.same_period(period, other) for other in named):
                named.append(period)
    return named


def challenges_to_roll(membership: Membership) -> list[Challenge]:
    """The challenges this person may roll against now: visible to them and still open."""
    audience = audience_of(membership)
    rows = challenge_rows(membership.campaign, audience)
    return [row.challenge for row in rows if not row.done and not row.destroyed]
