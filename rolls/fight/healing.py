"""Healing at the table: a sheet's healing actions, written in the log, and EZFudge's medical
care, a healer's roll against Fair that heals a wound one level.

Seed: EZFudge Essentials "Medical Care" ("A Fair (+1) or better result on an appropriate role
... heals a wound by one level"; the Era / Frequency table; a hospital's +1) and "First Aid
and Natural Healing". The sheet belongs to characters; the roll and the log are the table's,
so these live here and change the sheet through its services.

A week of care runs from the patient's last week of rest (or a new week the GM starts): the
log is the record, so no table of its own is kept. Each roll's entry says where the wound it
treated is now, so this week's rolls on the wounds of a level are counted from the log.
"""

from collections import Counter
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import translation
from django.utils.translation import gettext, ngettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.models import Character, Trait
from characters.services import track_heal
from characters.services.sheet_parts import track_treat
from fudgetable.rules import sheet_tracks, wounds
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import Ruleset
from rolls.entry_words import Said, line_words, said
from rolls.models import Roll
from rolls.services import existing_roll, record_entry, refuse_observers, roll_check

# The snapshot keys of the log entries that start a new week of care.
NEW_WEEK = ("rest-week", "new-week")
CARE = "medical_care"


def _kept_from_players(*characters: Character) -> bool:
    """An NPC the players have not met: its healing is the GMs' to see."""
    return any(c.is_npc and not c.revealed for c in characters)


def _announce(
    *,
    membership: Membership,
    patient: Character,
    line: Said,
    snapshot: dict[str, object],
    key: str,
    secret: bool,
    follows: Roll | None = None,
) -> Roll:
    """A line in the log about ``patient``, once per key (a resend undoes the heal it made),
    kept as its key and names and drawn in the language of the screen (``entry_words.LINES``);
    the label holds it in English."""
    with translation.override(settings.LANGUAGE_CODE):
        label = line_words(line) or ""
    entry, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.ANNOUNCEMENT,
        label=label,
        snapshot={"lines": [line], **snapshot},
        succeeded=None,
        key=key,
        character=patient,
        secret=secret,
        follows=follows,
    )
    return entry


# --- the sheet's healing actions ------------------------------------------------------------


HEALING_LABELS = {
    action: label for actions in sheet_tracks.HEALING.values() for action, label in actions
}


def _locked(character: Character) -> Character:
    """The character's row, locked: a resent form waits here for the first to finish, and
    then finds what it made."""
    return Character.objects.select_for_update().select_related("campaign").get(pk=character.pk)


def _marked(ruleset: Ruleset, character: Character, track: str) -> tuple[str, int, object]:
    """The track's name, how many of its boxes are taken, and its state."""
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes, fit=True)
    if track not in templates:
        raise RulesError("track", gettext("this sheet has no %(track)s track") % {"track": track})
    template = templates[track]
    state = sheet_tracks.state_of(template, character.tracks.get(track))
    return template.name, sheet_tracks.view(track, template, state).marked, state


@transaction.atomic
def heal_logged(
    *, membership: Membership, character: Character, track: str, action: str, key: str
) -> Roll:
    """A healing action from the sheet (after the fight, a week of rest, tending, a long
    rest), done and said in the log. A resent form does it once."""
    refuse_observers(membership)
    character = _locked(character)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    ruleset = campaign_ruleset(membership.campaign)
    name, before, was = _marked(ruleset, character, track)
    character = track_heal(character=character, track=track, action=action)
    _, after, now = _marked(ruleset, character, track)
    line = said(
        "healed",
        name=character.name,
        action=HEALING_LABELS[action],
        track=name,
        before=before,
        after=after,
        unchanged=was == now,
    )
    entry = _announce(
        membership=membership,
        patient=character,
        line=line,
        snapshot={"healing": action, "track": track},
        key=key,
        secret=_kept_from_players(character),
    )
    told = gettext("The GM logged healing: %(line)s") % {"line": line_words(line)}
    sheet_changed(character, told=told, by=membership.user_id)
    return entry


# --- medical care ---------------------------------------------------------------------------


@dataclass(frozen=True)
class CareLevel:
    """One wound level that holds wounds, and this week's rolls on them."""

    level: int
    name: str
    wounds: int
    tried: int
    left: int


@dataclass(frozen=True)
class Care:
    """A patient's wounds as medical care sees them this week."""

    era: str
    per_week: int
    levels: tuple[CareLevel, ...]
    week_from: Roll | None  # the entry the week of care runs from; None: the campaign's start
    tries: tuple[Roll, ...]  # this week's medical-care entries, newest first


def _week_from(patient: Character) -> Roll | None:
    return (
        Roll.objects.filter(
            campaign_id=patient.campaign_id,
            character=patient,
            kind=Roll.Kind.ANNOUNCEMENT,
            snapshot__healing__in=NEW_WEEK,
        )
        .order_by("-pk")
        .first()
    )


def care_of(patient: Character, ruleset: Ruleset) -> Care:
    """The patient's wounds above a Scratch, each level with this week's rolls and those left
    (the era's frequency is each wound's: ``wounds.tries_left``)."""
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=patient.npc_boxes, fit=True)
    template = templates.get(sheet_tracks.WOUNDS)
    if not isinstance(template, wounds.WoundTrack):
        raise RulesError(
            "track", gettext("%(name)s has no wound track to treat") % {"name": patient.name}
        )
    state = sheet_tracks.state_of(template, patient.tracks.get(sheet_tracks.WOUNDS))
    assert isinstance(state, wounds.WoundState)
    week_from = _week_from(patient)
    entries = Roll.objects.filter(
        Q(pk__gt=week_from.pk) if week_from else Q(),
        campaign_id=patient.campaign_id,
        character=patient,
        kind=Roll.Kind.ANNOUNCEMENT,
        snapshot__has_key=CARE,
    ).order_by("-pk")
    tries = tuple(entries)
    tried = Counter(entry.snapshot[CARE]["to"] for entry in tries)
    era = ruleset.medical_era
    levels = tuple(
        CareLevel(at, level.name, held, tried[at], wounds.tries_left(era, held, tried[at]))
        for at, (level, row) in enumerate(zip(template.levels, state.levels, strict=True))
        if at and (held := row.count(wounds.Box.WOUND))
    )
    per_week = wounds.MEDICAL_CARE_PER_WEEK[era]
    return Care(era, per_week, levels, week_from, tries)


def may_heal_with(membership: Membership, character: Character) -> bool:
    """A healer rolls as any roll does: a GM for anyone, a player for their own PCs."""
    if character.campaign_id != membership.campaign_id:
        return False
    if membership.is_gm:
        return True
    return not character.is_npc and character.owner_id == membership.user_id


def healers(membership: Membership) -> list[Trait]:
    """The traits a member may roll medical care with, by character."""
    traits = Trait.objects.filter(character__campaign_id=membership.campaign_id).select_related(
        "character"
    )
    if not membership.is_gm:
        traits = traits.filter(character__owner_id=membership.user_id, character__kind="pc")
    return list(traits.order_by("character__name", "character_id", "position", "pk"))


def fair_on(ruleset: Ruleset) -> int:
    """Fair on the campaign's ladder: +1 on Fudge's own, where the seed counts it."""
    try:
        return ruleset.ladder.value("Fair")
    except RulesError:
        return wounds.FAIR


def _care_line(
    patient: Character,
    healer: Character,
    roll: Roll,
    level: str,
    to: str | None,
    moved: bool,
    hospital: bool,
) -> Said:
    told = {
        "healer": healer.name,
        "patient": patient.name,
        "level": level,
        "hospital": wounds.HOSPITAL_BONUS if hospital else 0,
    }
    if not roll.succeeded:
        return said("care-no-help", result=roll.snapshot["result_name"], **told)
    if not moved:
        return said("care-waits", **told)
    if to is None:
        return said("care-heals", **told)
    return said("care-now", to=to, **told)


@transaction.atomic
def medical_care(
    *,
    membership: Membership,
    key: str,
    patient: Character,
    trait: Trait,
    level: int,
    hospital: bool = False,
) -> Roll:
    """The healer's roll of ``trait`` against Fair (+1 in a hospital) on the patient's wound
    at ``level``: logged as a check, and what it did to the wound as the line after it."""
    refuse_observers(membership)
    healer = trait.character
    if not may_heal_with(membership, healer):
        raise RulesError("healer", gettext("roll medical care with a character you play"))
    if patient.campaign_id != membership.campaign_id:
        raise RulesError("patient", gettext("no such patient at this table"))
    # Locked first, so two healers' rolls at once count each other, and a resent form finds
    # the roll the first one made.
    patient = _locked(patient)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    ruleset = campaign_ruleset(membership.campaign)
    care = care_of(patient, ruleset)
    wound = next((row for row in care.levels if row.level == level), None)
    if wound is None:
        raise RulesError(
            "level", gettext("%(name)s has no such wound to treat") % {"name": patient.name}
        )
    if not wound.left:
        rolls = ngettext("%(count)s roll a week", "%(count)s rolls a week", care.per_week) % {
            "count": care.per_week
        }
        raise RulesError(
            "level",
            gettext(
                "%(name)s's %(wound)s wound has had its treatment this week "
                "(%(era)s: %(rolls)s on each wound); treat it again after a week"
            )
            % {"name": patient.name, "wound": wound.name, "era": care.era, "rolls": rolls},
        )
    fair = fair_on(ruleset)
    secret = _kept_from_players(patient, healer)
    roll = roll_check(
        membership=membership,
        key=key,
        level=trait.level + trait.modifier,
        trait_name=trait.name,
        character=healer,
        modifiers=(wounds.HOSPITAL_BONUS,) if hospital else (),
        difficulty=fair,
        secret=secret,
    )
    if Roll.objects.filter(follows=roll).exists():
        return roll  # the same form, sent twice at once: the first one treated the wound
    result = roll.snapshot["result"]
    to = track_treat(character=patient, level=level, result=result, fair=fair)
    template = ruleset.wound_track
    assert template is not None
    moved = to != level
    to_name = None if to is None else template.levels[to].name
    line = _care_line(patient, healer, roll, wound.name, to_name, moved, hospital)
    _announce(
        membership=membership,
        patient=patient,
        line=line,
        snapshot={
            CARE: {
                "healer": healer.pk,
                "healer_name": healer.name,
                "level": level,
                "to": to,
                "result": result,
                "hospital": hospital,
            }
        },
        key=f"{key}-care",
        secret=secret,
        follows=roll,
    )
    told = gettext("The GM logged medical care: %(line)s") % {"line": line_words(line)}
    sheet_changed(patient, told=told, by=membership.user_id)
    return roll


@transaction.atomic
def care_new_week(*, membership: Membership, patient: Character, key: str) -> Roll:
    """The GM says a week has passed for the patient without rest: a new week of care."""
    if not membership.is_gm:
        raise RulesError("membership", gettext("only a GM says that a week has passed"))
    patient = _locked(patient)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    return _announce(
        membership=membership,
        patient=patient,
        line=said("care-new-week", name=patient.name),
        snapshot={"healing": "new-week"},
        key=key,
        secret=_kept_from_players(patient),
    )
