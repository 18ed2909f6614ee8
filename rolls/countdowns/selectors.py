"""Reads for the table's countdowns, shaped for one audience: ``everyone`` (players and
observers) never gets a GM-only countdown, and gets a hidden-progress countdown's name without
its boxes; ``gm`` gets everything."""

from dataclasses import dataclass

from campaigns.models import Campaign
from fudgetable.live import Audience
from fudgetable.rules import countdowns as countdown_rules
from rolls.countdowns.models import Countdown


def rules_countdown(countdown: Countdown) -> countdown_rules.Countdown:
    events = [(stage["at"], stage["event"]) for stage in countdown.stages]
    return countdown_rules.Countdown.at_boxes(
        countdown.name, countdown.boxes, events, countdown.outcome, marked=countdown.marked
    )


def skill_challenge(success: Countdown, failure: Countdown) -> countdown_rules.SkillChallenge:
    return countdown_rules.SkillChallenge(rules_countdown(success), rules_countdown(failure))


@dataclass(frozen=True)
class CountdownRow:
    countdown: Countdown
    failure: Countdown | None  # the linked failure countdown of a skill challenge
    boxes: tuple[bool, ...] | None  # None: this audience may not see how full it is
    failure_boxes: tuple[bool, ...] | None
    decision: str  # "complete", "succeeded", "failed" or ""
    # The events at boxes before the last: (box, what happens, whether its box is marked).
    events: tuple[tuple[int, str, bool], ...] = ()


def _boxes(countdown: Countdown) -> tuple[bool, ...]:
    return tuple(number < countdown.marked for number in range(countdown.boxes))


def _events(countdown: Countdown) -> tuple[tuple[int, str, bool], ...]:
    return tuple(
        (at, event, at <= countdown.marked)
        for at, event in rules_countdown(countdown).events_at[:-1]
    )


def _decision(countdown: Countdown, failure: Countdown | None) -> str:
    if failure is None:
        return "complete" if rules_countdown(countdown).complete else ""
    decision = skill_challenge(countdown, failure).decision
    if decision is None:
        return ""
    return "succeeded" if decision is countdown_rules.Decision.SUCCESS else "failed"


def countdown_rows(campaign: Campaign, audience: Audience) -> list[CountdownRow]:
    """The countdowns this audience sees; a failure countdown shows with its skill challenge."""
    countdowns = Countdown.objects.filter(campaign=campaign, success__isnull=True)
    if audience != "gm":
        countdowns = countdowns.exclude(visibility=Countdown.Visibility.GM)
    rows = []
    for countdown in countdowns.select_related("failure"):
        failure = countdown.failure
        shown = audience == "gm" or countdown.visibility == Countdown.Visibility.PUBLIC
        rows.append(
            CountdownRow(
                countdown=countdown,
                failure=failure,
                boxes=_boxes(countdown) if shown else None,
                failure_boxes=_boxes(failure) if shown and failure else None,
                decision=_decision(countdown, failure) if shown else "",
                events=_events(countdown) if shown else (),
            )
        )
    return rows
