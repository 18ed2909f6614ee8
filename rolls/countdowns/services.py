"""Countdowns at the table (Fudge Lite "Countdowns"): the GM makes one, marks and unmarks its
boxes (one or several at a time), and the table hears when the last box is marked. Events at
boxes before the last (the seed's ticking clock: "Stairwell collapses" at box 2) are each told
in the log once, as their box is reached.

A countdown with a linked failure countdown is a skill challenge: whichever fills first decides
it (``fudgetable.rules.countdowns.SkillChallenge``). Every command locks the pair, so two GMs
marking at once never lose a mark or decide a challenge twice.
"""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Campaign
from campaigns.selectors import table_language
from fudgetable import live
from fudgetable.rules import countdowns as countdown_rules
from fudgetable.rules.countdowns import Decision
from fudgetable.rules.errors import RulesError
from rolls.countdowns.fragments import countdown_list
from rolls.countdowns.models import Countdown
from rolls.countdowns.selectors import rules_countdown, skill_challenge
from rolls.entry_words import Said, said
from rolls.services import roll_announce

MAX_BOXES = 100
NAME_LENGTH = 120
OUTCOME_LENGTH = 300
FAILURE_SUFFIX = ": failures"
MAX_STAGES = 20  # events at boxes before the last

StageShape = tuple[int, str]  # the box that sets it off, and what happens


def _staged(
    name: str, boxes: int, outcome: str, stages: Sequence[StageShape]
) -> tuple[str, list[dict[str, object]]]:
    """The outcome and the events to store. An event written at the last box is the outcome
    when none was given ("5: House collapses"): the seed writes its clock that way."""
    events = sorted(((at, event.strip()) for at, event in stages), key=lambda pair: pair[0])
    if len(events) > MAX_STAGES:
        raise ValidationError(
            gettext("A countdown has at most %(most)s events before its last box.")
            % {"most": MAX_STAGES}
        )
    if events and events[-1][0] == boxes and not outcome:
        outcome = events.pop()[1]
    for _, event in events:
        if not event or len(event) > OUTCOME_LENGTH:
            raise ValidationError(
                gettext("Each event says what happens in 1 to %(length)s characters.")
                % {"length": OUTCOME_LENGTH}
            )
    if len(outcome) > OUTCOME_LENGTH:
        raise ValidationError(
            gettext("What happens fits in %(length)s characters.") % {"length": OUTCOME_LENGTH}
        )
    # The rules refuse an event off the countdown or two at one box, in the GM's words.
    countdown_rules.Countdown.at_boxes(name, boxes, events, outcome)
    return outcome, [{"at": at, "event": event} for at, event in events]


def _checked(name: str, boxes: int, outcome: str) -> None:
    if not name:
        raise ValidationError(gettext("A countdown needs a name."))
    if len(name) > NAME_LENGTH:
        raise ValidationError(
            gettext("A countdown's name fits in %(length)s characters.") % {"length": NAME_LENGTH}
        )
    if not 1 <= boxes <= MAX_BOXES:
        raise ValidationError(
            gettext("A countdown has from 1 to %(most)s boxes.") % {"most": MAX_BOXES}
        )
    if len(outcome) > OUTCOME_LENGTH:
        raise ValidationError(
            gettext("What happens fits in %(length)s characters.") % {"length": OUTCOME_LENGTH}
        )


def _visibility(value: str) -> None:
    if value not in Countdown.Visibility.values:
        raise ValidationError(gettext("Pick who sees the countdown."))


def _publish(campaign: Campaign, event: str, *, players: bool) -> None:
    """The countdown list to every socket; players get no frame when nothing they see changed
    (a GM-only countdown, a mark on a hidden-progress one: counting identical frames would
    tell them how full it is)."""
    with table_language(campaign):
        lists = {
            audience: countdown_list(campaign, audience, oob=True)
            for audience in live.AUDIENCES
            if audience == "gm" or players
        }
    live.publish(campaign.pk, event, everyone=lists.get("everyone"), gm=lists["gm"])


def _players_see_boxes(countdown: Countdown) -> bool:
    return countdown.visibility == Countdown.Visibility.PUBLIC


def _players_see_name(countdown: Countdown) -> bool:
    return countdown.visibility != Countdown.Visibility.GM


@transaction.atomic
def countdown_create(
    *,
    campaign: Campaign,
    name: str,
    boxes: int,
    outcome: str = "",
    visibility: str = Countdown.Visibility.PUBLIC,
    failure_boxes: int | None = None,
    failure_outcome: str = "",
    stages: Sequence[StageShape] = (),
) -> Countdown:
    """A countdown; with ``failure_boxes`` also its failure countdown, making a skill challenge.
    ``stages`` are events at boxes before the last, each told in the log as it is reached."""
    name, outcome, failure_outcome = name.strip(), outcome.strip(), failure_outcome.strip()
    _checked(name, boxes, outcome)
    outcome, events = _staged(name, boxes, outcome, stages)
    _visibility(visibility)
    failure = None
    if failure_boxes is not None:
        failure_name = name[: NAME_LENGTH - len(FAILURE_SUFFIX)] + FAILURE_SUFFIX
        _checked(failure_name, failure_boxes, failure_outcome)
        failure = Countdown.objects.create(
            campaign=campaign,
            name=failure_name,
            boxes=failure_boxes,
            outcome=failure_outcome,
            visibility=visibility,
        )
    countdown = Countdown.objects.create(
        campaign=campaign,
        name=name,
        boxes=boxes,
        outcome=outcome,
        stages=events,
        visibility=visibility,
        failure=failure,
    )
    _publish(campaign, "countdown.created", players=_players_see_name(countdown))
    return countdown


def _locked_pair(countdown: Countdown) -> tuple[Countdown, Countdown | None]:
    """The countdown (for a failure countdown: the skill challenge it belongs to) and its
    failure countdown, locked together, in the same order by every command. A countdown only
    ever joins a pair when both are made, so ``countdown``'s own link can be trusted."""
    rows = {
        row.pk: row
        # The campaign comes along for the push; only the countdowns' rows are locked.
        for row in Countdown.objects.select_for_update(of=("self",))
        .select_related("campaign")
        .filter(Q(pk=countdown.pk) | Q(failure_id=countdown.pk) | Q(pk=countdown.failure_id))
        .order_by("pk")
    }
    if countdown.pk not in rows:
        raise RulesError("countdown", gettext("that countdown was removed in the meantime"))
    head = next(
        (row for row in rows.values() if row.failure_id == countdown.pk), rows[countdown.pk]
    )
    return head, rows.get(head.failure_id) if head.failure_id else None


def _save(*countdowns: Countdown | None) -> None:
    for countdown in countdowns:
        if countdown is not None:
            countdown.save(update_fields=["marked", "completed_at", "announced"])


def _completion(name: str, how: str, outcome: str) -> tuple[Said, ...]:
    """``how``: "complete", "succeeded" or "failed" (entry_words.LINES)."""
    return (said(f"countdown-{how}", name=name, outcome=outcome),)


def _one_of(countdown: Countdown, head: Countdown, failure: Countdown | None) -> Countdown:
    """The locked row of the countdown the GM acted on."""
    return failure if failure is not None and countdown.pk == failure.pk else head


def _reached(row: Countdown) -> tuple[Said, ...]:
    """The events before the last box that this mark reached and the log has not told yet:
    each is told once, even if the GM unmarks its box and marks it again."""
    events = rules_countdown(row).events_at[:-1]
    reached = [
        said("event", name=row.name, event=event) for at, event in events if at <= row.marked
    ]
    told, row.announced = row.announced, max(row.announced, len(reached))
    return tuple(reached[told:])


@transaction.atomic
def countdown_mark(*, countdown: Countdown, count: int = 1) -> Countdown:
    """Marks the next ``count`` boxes (each a check of a skill challenge); marks past the last
    box, or past the check that decides a skill challenge, are dropped. A full countdown, or a
    decided skill challenge, takes no more."""
    if not 1 <= count <= MAX_BOXES:
        raise ValidationError(gettext("Mark from 1 to %(most)s boxes.") % {"most": MAX_BOXES})
    head, failure = _locked_pair(countdown)
    now = timezone.now()
    announce: tuple[Said, ...] = ()
    if failure is None:
        before = rules_countdown(head)
        if before.complete:
            raise RulesError(
                "countdown",
                gettext("every box of %(name)s is already marked") % {"name": head.name},
            )
        head.marked = before.mark(count).marked
        announce = _reached(head)
        if rules_countdown(head).complete:
            head.completed_at = now
            announce += _completion(head.name, "complete", head.outcome)
    else:
        pair = skill_challenge(head, failure)
        if pair.decision is not None:
            raise RulesError(
                "countdown", gettext("%(name)s is already decided") % {"name": head.name}
            )
        succeeded = countdown.pk == head.pk
        for _ in range(count):
            pair = pair.record(succeeded=succeeded)
            if pair.decision is not None:
                break
        head.marked, failure.marked = pair.success.marked, pair.failure.marked
        announce = _reached(head) + _reached(failure)
        if pair.decision is Decision.SUCCESS:
            head.completed_at = now
            announce += _completion(head.name, "succeeded", head.outcome)
        elif pair.decision is Decision.FAILURE:
            failure.completed_at = now
            announce += _completion(head.name, "failed", failure.outcome)
    _save(head, failure)
    _publish(head.campaign, "countdown.marked", players=_players_see_boxes(head))
    # Completion goes to whoever may see the countdown, its name at least.
    roll_announce(campaign=head.campaign, lines=list(announce), players=_players_see_name(head))
    return _one_of(countdown, head, failure)


@transaction.atomic
def countdown_unmark(*, countdown: Countdown) -> Countdown:
    """Clears the last marked box (a GM correction); undoing the deciding box reopens a skill
    challenge."""
    head, failure = _locked_pair(countdown)
    if failure is None:
        if not head.marked:
            raise RulesError(
                "countdown", gettext("no box of %(name)s is marked") % {"name": head.name}
            )
        head.marked = rules_countdown(head).unmark().marked
    else:
        after = skill_challenge(head, failure).undo(succeeded=countdown.pk == head.pk)
        head.marked, failure.marked = after.success.marked, after.failure.marked
        failure.completed_at = failure.completed_at if after.failure.complete else None
    head.completed_at = head.completed_at if rules_countdown(head).complete else None
    _save(head, failure)
    _publish(head.campaign, "countdown.unmarked", players=_players_see_boxes(head))
    return _one_of(countdown, head, failure)


@transaction.atomic
def countdown_set_visibility(*, countdown: Countdown, visibility: str) -> Countdown:
    """Who sees the countdown (and its failure countdown): everyone, its name only, or GMs."""
    _visibility(visibility)
    head, failure = _locked_pair(countdown)
    # Players lose a countdown turned GM-only and gain one that stops being GM-only.
    gm_only = Countdown.Visibility.GM
    players = head.visibility != gm_only or visibility != gm_only
    for row in (head, failure):
        if row is not None:
            row.visibility = visibility
            row.save(update_fields=["visibility"])
    _publish(head.campaign, "countdown.visibility", players=players)
    return head


@transaction.atomic
def countdown_delete(*, countdown: Countdown) -> None:
    """Removes the countdown; a skill challenge goes with both its countdowns."""
    head, failure = _locked_pair(countdown)
    campaign, players = head.campaign, _players_see_name(head)
    head.delete()
    if failure is not None:
        failure.delete()
    _publish(campaign, "countdown.deleted", players=players)
