"""Fate challenge ladders at the table (Fate, Fudge edition, ch. 3): a check's margin marks a
box, a full rung overflows upward, a failure may cost successes; all by
``fudgetable.rules.challenges``. The span is enforced: a check past it is refused until the GM
advances time, which also unchecks boxes of a challenge nobody pursued in the period that
passed (its recovery).
"""

from collections.abc import Callable, Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership
from campaigns.selectors import table_language
from fudgetable import live
from fudgetable.rules import challenges as ladder_rules
from fudgetable.rules.errors import RulesError
from rolls.challenges.fragments import challenge_list
from rolls.challenges.models import Challenge
from rolls.challenges.selectors import PRESETS, rules_challenge
from rolls.entry_words import Said, line_words, said
from rolls.models import Roll
from rolls.services import roll_announce

NAME_LENGTH = 120
NOTES_LENGTH = 2000
MAX_RUNGS = 10
MAX_RUNG_BOXES = 20
MAX_MOS = 20
MAX_PERIODS = 100
MAX_PACE = 20  # checks allowed, or boxes lost, in one period
PERIOD_LENGTH = 40

RungShape = tuple[int, int, str]  # least margin of success, boxes, note
PaceShape = tuple[int, str]  # how many, each what period ("1 check each day")


def _pace(shape: PaceShape | None, what: str) -> ladder_rules.Pace | None:
    if shape is None:
        return None
    count, period = shape[0], " ".join(shape[1].split())
    if not 1 <= count <= MAX_PACE or not period or len(period) > PERIOD_LENGTH:
        words = (
            gettext(
                "The span is from 1 to %(most)s each period, the period named in "
                "%(length)s characters: 1 each day."
            )
            if what == "span"
            else gettext(
                "The recovery is from 1 to %(most)s each period, the period named in "
                "%(length)s characters: 1 each day."
            )
        )
        raise ValidationError(words % {"most": MAX_PACE, "length": PERIOD_LENGTH})
    return ladder_rules.Pace(count, period)


def _ladder(
    name: str,
    preset: str,
    rungs: Sequence[RungShape],
    fragility: str,
    span: PaceShape | None = None,
    recovery: PaceShape | None = None,
) -> ladder_rules.ChallengeLadder:
    if preset:
        if preset not in PRESETS:
            raise ValidationError(gettext("Pick one of the challenges offered, or shape your own."))
        return PRESETS[preset]
    if not rungs or len(rungs) > MAX_RUNGS:
        raise ValidationError(
            gettext("A challenge has from 1 to %(most)s rungs.") % {"most": MAX_RUNGS}
        )
    for mos, boxes, note in rungs:
        if not 0 <= mos <= MAX_MOS:
            raise ValidationError(
                gettext("A rung's margin of success is from 0 to %(most)s.") % {"most": MAX_MOS}
            )
        if not 1 <= boxes <= MAX_RUNG_BOXES:
            raise ValidationError(
                gettext("A rung has from 1 to %(most)s boxes.") % {"most": MAX_RUNG_BOXES}
            )
        if len(note) > NAME_LENGTH:
            raise ValidationError(
                gettext("A rung's note fits in %(length)s characters.") % {"length": NAME_LENGTH}
            )
    try:
        kind = ladder_rules.Fragility(fragility)
    except ValueError:
        raise ValidationError(gettext("Pick what a failure does.")) from None
    shape = tuple(ladder_rules.Rung(mos, boxes, note) for mos, boxes, note in rungs)
    return ladder_rules.ChallengeLadder(
        name,
        shape,
        fragility=kind,
        span=_pace(span, "span"),
        recovery=_pace(recovery, "recovery"),
    )


def _pace_notes(ladder: ladder_rules.ChallengeLadder) -> str:
    """The preset's span and recovery in words, for the GM to apply."""
    lines = []
    if ladder.span is not None:
        lines.append(
            gettext("Span: %(count)s check(s) each %(period)s.")
            % {"count": ladder.span.count, "period": ladder.span.period}
        )
    if ladder.recovery is not None:
        lines.append(
            gettext("Recovery: %(count)s box(es) lost each %(period)s.")
            % {"count": ladder.recovery.count, "period": ladder.recovery.period}
        )
    lines += [
        gettext("A margin of failure of %(margin)s or worse: %(event)s.")
        % {"margin": t.mof, "event": t.event}
        for t in ladder.triggers
    ]
    return "\n".join(lines)


def _publish(challenge: Challenge, event: str, *, players: bool, announce: Sequence[Said] = ()):
    """The challenge list to every socket; players get nothing about a GM-only challenge."""
    _publish_lists(challenge.campaign, event, players=players, announce=announce)


def _publish_lists(
    campaign: Campaign, event: str, *, players: bool, announce: Sequence[Said] = ()
) -> None:
    with table_language(campaign):
        lists = {
            audience: challenge_list(campaign, audience, oob=True)
            for audience in live.AUDIENCES
            if audience == "gm" or players
        }
    live.publish(campaign.pk, event, everyone=lists.get("everyone"), gm=lists["gm"])
    roll_announce(campaign=campaign, lines=list(announce), players=players)


def _players_see(challenge: Challenge) -> bool:
    return challenge.visibility != Challenge.Visibility.GM


@transaction.atomic
def challenge_create(
    *,
    campaign: Campaign,
    name: str = "",
    preset: str = "",
    rungs: Sequence[RungShape] = (),
    fragility: str = ladder_rules.Fragility.EQUIVALENT.value,
    notes: str = "",
    visibility: str = Challenge.Visibility.PUBLIC,
    span: PaceShape | None = None,
    recovery: PaceShape | None = None,
) -> Challenge:
    """A challenge from a preset ladder, or of the GM's own shape (rungs, fragility, span and
    recovery)."""
    name, notes = name.strip(), notes.strip()
    if visibility not in Challenge.Visibility.values:
        raise ValidationError(gettext("Pick who sees the challenge."))
    if len(name) > NAME_LENGTH:
        raise ValidationError(
            gettext("A challenge's name fits in %(length)s characters.") % {"length": NAME_LENGTH}
        )
    if not name and not preset:
        raise ValidationError(gettext("A challenge of your own shape needs a name."))
    ladder = _ladder(name, preset, rungs, fragility, span, recovery)
    notes = notes or _pace_notes(ladder)
    if len(notes) > NOTES_LENGTH:
        raise ValidationError(
            gettext("The notes fit in %(length)s characters.") % {"length": NOTES_LENGTH}
        )
    challenge = Challenge.objects.create(
        campaign=campaign,
        name=name or ladder.name,
        ladder=ladder.to_dict(),
        state=ladder.empty().to_dict(),
        notes=notes,
        visibility=visibility,
    )
    _publish(challenge, "challenge.created", players=_players_see(challenge))
    return challenge


def _locked(challenge: Challenge) -> Challenge:
    return Challenge.objects.select_for_update().select_related("campaign").get(pk=challenge.pk)


@transaction.atomic
def challenge_check(*, challenge: Challenge, margin: int) -> ladder_rules.Checked:
    """One check: a margin of 0 or more marks a box, a failure may cost successes. A check
    past the span is refused until the GM advances time."""
    row = _locked(challenge)
    ladder, state = rules_challenge(row)
    over = state.destroyed or ladder_rules.is_done(ladder, state)
    # A finished challenge is refused as finished (by ``check``), not as past its span.
    counted = state if over else ladder_rules.count_check(ladder, state)
    checked = ladder_rules.check(ladder, counted, margin)
    row.state = checked.state.to_dict()
    row.save(update_fields=["state"])
    announce = [said("event", name=row.name, event=event) for event in checked.events]
    if checked.state.destroyed:
        announce.append(said("challenge-ruined", name=row.name))
    elif ladder_rules.is_done(ladder, checked.state):
        top = ladder.rungs[-1].note
        announce.append(said("challenge-complete", name=row.name, outcome=top))
    _publish(row, "challenge.checked", players=_players_see(row), announce=announce)
    return checked


@transaction.atomic
def challenge_unmark(*, challenge: Challenge, rung: int) -> Challenge:
    """Takes one box off a rung (a GM correction)."""
    row = _locked(challenge)
    ladder, state = rules_challenge(row)
    row.state = ladder_rules.unmark(ladder, state, rung).to_dict()
    row.save(update_fields=["state"])
    _publish(row, "challenge.unmarked", players=_players_see(row))
    return row


@transaction.atomic
def challenge_recover(*, challenge: Challenge, periods: int) -> Challenge:
    """Boxes lost to the time that has passed, at the ladder's recovery pace."""
    if not 0 <= periods <= MAX_PERIODS:
        raise ValidationError(gettext("From 0 to %(most)s periods.") % {"most": MAX_PERIODS})
    row = _locked(challenge)
    ladder, state = rules_challenge(row)
    if ladder.recovery is None:
        raise RulesError(
            "recovery", gettext("%(name)s loses no boxes over time") % {"name": row.name}
        )
    row.state = ladder_rules.recover(ladder, state, periods).to_dict()
    row.save(update_fields=["state"])
    _publish(row, "challenge.recovered", players=_players_see(row))
    return row


def _time_words(period: str, periods: int) -> Said:
    if periods == 1:
        return said("time-passes-once", period=period)
    return said("time-passes", period=period, periods=periods)


@transaction.atomic
def challenge_time_passes(*, campaign: Campaign, period: str, periods: int = 1) -> list[str]:
    """``periods`` of ``period`` pass for every challenge at the table that counts that period
    (``fudgetable.rules.challenges.pass_time``): its span's count starts again, and one its
    players did not pursue loses boxes. What happened is logged, a GM-only challenge's among
    the GMs. Returns the lines the table read."""
    period = " ".join(period.split())
    if not 1 <= periods <= MAX_PERIODS:
        raise ValidationError(gettext("From 1 to %(most)s periods.") % {"most": MAX_PERIODS})
    rows = list(Challenge.objects.select_for_update().filter(campaign=campaign).order_by("pk"))
    counted = []
    for row in rows:
        ladder, state = rules_challenge(row)
        if any(ladder_rules.same_period(period, named) for named in ladder.periods):
            counted.append((row, ladder, state))
    if not counted:
        raise RulesError(
            "period",
            gettext("no challenge here counts the %(period)s") % {"period": period}
            if period
            else gettext("no challenge here counts the period named"),
        )
    public: list[Said] = []
    secret: list[Said] = []
    for row, ladder, state in counted:
        passed = ladder_rules.pass_time(ladder, state, period, periods)
        row.state = passed.state.to_dict()
        row.save(update_fields=["state"])
        if ladder.recovery is None or not ladder.recovery.counts(period):
            continue
        if passed.lost:
            line = said("boxes-lost", name=row.name, count=passed.lost)
        elif state.pursued:
            line = said("pursued", name=row.name)
        else:
            continue
        (public if _players_see(row) else secret).append(line)
    header = _time_words(period, periods)
    players = any(_players_see(row) for row, _, _ in counted)
    _publish_lists(
        campaign,
        "challenge.time",
        players=players,
        announce=[header, *public] if players else [header, *secret],
    )
    if players and secret:
        roll_announce(campaign=campaign, lines=[header, *secret], players=False)
    return [line_words(line) or "" for line in (header, *public, *secret)]


@transaction.atomic
def challenge_set_visibility(*, challenge: Challenge, visibility: str) -> Challenge:
    if visibility not in Challenge.Visibility.values:
        raise ValidationError(gettext("Pick who sees the challenge."))
    row = _locked(challenge)
    players = _players_see(row) or visibility != Challenge.Visibility.GM
    row.visibility = visibility
    row.save(update_fields=["visibility"])
    _publish(row, "challenge.visibility", players=players)
    return row


@transaction.atomic
def challenge_delete(*, challenge: Challenge) -> None:
    row = _locked(challenge)
    players = _players_see(row)
    row.delete()
    _publish(row, "challenge.deleted", players=players)


def _open_for(membership: Membership, challenge_id: int) -> Challenge:
    """The challenge, locked, if this person may roll against it; else a RulesError that
    says nothing of a GM-only challenge's existence."""
    row = (
        Challenge.objects.select_for_update()
        .select_related("campaign")
        .filter(pk=challenge_id, campaign_id=membership.campaign_id)
        .first()
    )
    if row is None or not (membership.is_gm or _players_see(row)):
        raise RulesError("challenge", gettext("no such challenge at this table"))
    return row


@transaction.atomic
def challenge_roll(
    *, membership: Membership, challenge_id: int, key: str, roll: Callable[[], Roll]
) -> Roll:
    """Makes a check with ``roll`` and marks the challenge with its margin, in one
    transaction. A resent form (same key) gets its roll back and marks nothing: the challenge
    is locked first, so a second copy sent at once waits and then finds the first's roll."""
    challenge = _open_for(membership, challenge_id)
    resent = Roll.objects.filter(
        campaign_id=membership.campaign_id, roller_id=membership.user_id, idempotency_key=key
    ).exists()
    if resent:
        return roll()
    ladder, state = rules_challenge(challenge)
    if state.destroyed or ladder_rules.is_done(ladder, state):
        raise RulesError(
            "challenge", gettext("%(name)s is already over") % {"name": challenge.name}
        )
    ladder_rules.count_check(ladder, state)  # past the span: refused before any dice roll
    made = roll()
    challenge_check(challenge=challenge, margin=made.snapshot["margin"])
    return made
