"""Fudge points spent on a roll already made (Fudge Lite, "Fudge Points"): the character pays
one, and a new entry follows the old one in the log, which itself is never edited. A check
is rebuilt from its snapshot and changed by ``checks.fudge_point_result``; an opposed roll's
active side by ``checks.contest_fudge_point``, the other side standing as rolled."""

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.services import fudge_points_change
from fudgetable.rules import checks
from fudgetable.rules import dice as dice_rules
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import Side
from fudgetable.rules.rulesets import Ruleset
from rolls import dice_in_hand, fragments
from rolls.entry_words import SAID, said
from rolls.models import Roll
from rolls.services import (
    check_snapshot,
    existing_roll,
    faces_shown,
    ladder_words,
    record_entry,
    refuse_observers,
)


@transaction.atomic
def roll_fudge_point(
    *, membership: Membership, key: str, roll: Roll, use: str, faces: str | None = None
) -> Roll:
    """A Fudge point spent on a check: the character pays one, and a new roll follows the old
    one in the log (the log itself is never edited). ``faces``: a reroll's dice were rolled
    by hand (``dice_in_hand``), on a check."""
    refuse_observers(membership)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    if not fragments.is_spendable(roll) or roll.character is None:
        raise RulesError(
            "roll", gettext("Fudge points are spent on a character's check or opposed roll")
        )
    # Locked, so two spends at once cannot both follow the same roll.
    Roll.objects.select_for_update().filter(pk=roll.pk).first()
    if Roll.objects.filter(follows=roll).exists():
        raise RulesError(
            "roll", gettext("a Fudge point was already spent on this roll; use the newer one")
        )
    ruleset = campaign_ruleset(membership.campaign)
    if roll.kind == Roll.Kind.CONTEST:
        return _contest_fudge_point(membership, key, roll, use, ruleset)
    try:
        before = _stored_check(ruleset, roll)
    except (KeyError, TypeError, ValueError, AttributeError):
        # A restored backup's entry holds what a file said: it may show and yet not rebuild.
        raise RulesError(
            "roll", gettext("this roll's record is not one a Fudge point can change")
        ) from None
    hand = None
    if faces is not None and use == "reroll":
        hand = dice_in_hand.hand_roll(membership.campaign, before.roll.method, faces)
    after = checks.fudge_point_result(ruleset, use, before, reroll=hand)
    fudge_points_change(character=roll.character, by=-1)
    sheet_changed(roll.character, told=_spent_words(roll, use), by=membership.user_id)
    snapshot = check_snapshot(ruleset, after, roll.snapshot["trait"])
    snapshot["fudge_point_use"] = use
    if hand is not None or (use != "reroll" and roll.snapshot.get("by_hand")):
        snapshot["by_hand"] = True  # the dice on the table, or still the ones read before
    if roll.snapshot.get("sheet_lines"):  # the same lines count again: say which
        snapshot["sheet_lines"] = roll.snapshot["sheet_lines"]
    label = f"{roll.character.name}: {roll.snapshot['trait']}"
    snapshot[SAID] = said("fudge-point", label=label)
    spent, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.FUDGE_POINT,
        label=label,
        snapshot=snapshot,
        succeeded=after.outcome.succeeded,
        key=key,
        character=roll.character,
        secret=roll.secret,
        hidden_difficulty=roll.hidden_difficulty,
        follows=roll,
    )
    return spent


def _spent_words(roll: Roll, use: str) -> str:
    """A spend in words, for the PC's player when a GM made it."""
    what = {"name": getattr(roll.character, "name", ""), "use": fragments.ROLL_USES.get(use, use)}
    return gettext("The GM spent a Fudge point of %(name)s's: %(use)s.") % what


def _contest_fudge_point(
    membership: Membership, key: str, roll: Roll, use: str, ruleset: Ruleset
) -> Roll:
    """A Fudge point spent on an opposed roll by its active side: a new entry follows it with
    that side as it now stands; the other side is as it was rolled."""
    assert roll.character is not None
    try:
        mine, theirs = roll.snapshot["sides"]
        sides = [Side(s["level"], s["roll"], (s["modifier"],)) for s in (mine, theirs)]
    except (KeyError, TypeError, ValueError):
        raise RulesError(
            "roll", gettext("this roll's record is not one a Fudge point can change")
        ) from None
    dice, outcome = checks.contest_fudge_point(
        ruleset, use, active=sides[0], passive=sides[1], minimum=roll.snapshot.get("minimum")
    )
    fudge_points_change(character=roll.character, by=-1)
    sheet_changed(roll.character, told=_spent_words(roll, use), by=membership.user_id)
    active = {
        **mine,
        "roll": outcome.active.roll,
        "result": outcome.active.result,
        "result_name": ladder_words(ruleset, outcome.active.result),
    }
    if dice is not None:
        active["shown"] = faces_shown(dice)
    snapshot = {
        **roll.snapshot,
        "sides": [active, theirs],
        "relative_degree": outcome.relative_degree,
        "outcome": outcome.outcome.value,
        "critical": outcome.critical.value if outcome.critical else "",
        "degree": checks.contest_degree(ruleset, outcome.relative_degree),
        "fudge_point_use": use,
    }
    if not outcome.critical:  # the row rolled for a critical goes with it
        snapshot.pop("critical_row", None)
    spent, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=roll.label,
        # Headed as the roll it changes, with the words that say a Fudge point changed it.
        snapshot={
            **snapshot,
            SAID: said("fudge-point", on=roll.snapshot.get(SAID), label=roll.label),
        },
        succeeded=outcome.succeeded,
        key=key,
        character=roll.character,
        secret=roll.secret,
        follows=roll,
    )
    return spent


def _stored_check(ruleset: Ruleset, roll: Roll) -> checks.CheckResult:
    """The check as it was rolled, rebuilt from the log entry's snapshot."""
    snap = roll.snapshot
    faces = tuple(int(f) if f.lstrip("-").isdigit() else f for f in snap["faces"])
    dice = dice_rules.Roll(snap["method"], faces, snap["roll"])
    return checks.trait_check(
        ruleset,
        level=snap["level"],
        difficulty=snap["difficulty"],
        modifiers=snap["modifiers"],
        method=snap["method"],
        roll=dice,
    )
