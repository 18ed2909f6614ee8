"""Putting a campaign back from its backup, as a new campaign of the person restoring it.

Everything is checked first (``backup_checks``), so a file with any problem saves nothing.
It is then written in short transactions, none holding SQLite's one write lock for more than a
few hundred log entries: in one, a long campaign's log held it for 13 s and every table's
rolls waited. The campaign is nobody's until the last one makes its owner its GM, and a
failure on the way deletes what was written.

Nobody else is made a member: a backup names people, and a file anyone can write must not put
strangers at a table. Instead the restore makes invite links for the people the backup lists,
and each PC and log entry keeps its person wherever an account of that name is here, so a
player who joins finds their characters theirs again.
"""

import uuid
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from campaigns.models import Campaign, Invite, Membership, SessionZero
from campaigns.services import invite_create
from characters.models import AbilityMarks, Character, PeoplePackage
from characters.services import character_from_sheet
from rolls.backup.checks import read_backup
from rolls.backup.write import snapshot_ids
from rolls.fragments import entry_body, roll_summary
from rolls.log.export import markdown_line
from rolls.models import (
    Challenge,
    Countdown,
    PlaySession,
    Roll,
    SpotlightSpan,
    TableTalk,
    Whispered,
)
from rolls.scene.backup import restore_scenes

BATCH = 500


@dataclass
class Restored:
    """The new campaign, and what the GM is to do next, in words."""

    campaign: Campaign
    characters: int = 0
    sessions: int = 0
    entries: int = 0
    invites: list[Invite] = field(default_factory=list)
    to_invite: list[str] = field(default_factory=list)  # usernames, as the backup lists them
    co_gms: list[str] = field(default_factory=list)  # to make GM again once they join
    unplayed: list[str] = field(default_factory=list)  # PCs whose player has no account here


def campaign_restore(*, owner: User, data: object) -> Restored:
    """The backup in ``data`` as a new campaign that ``owner`` owns. Any problem raises a
    ValidationError listing every one, and nothing is saved."""
    backup, problems = read_backup(data)
    if backup is not None:
        backup["log"] = read_by_a_gm(backup)
        problems = unshowable(backup["log"], _unsaved(backup))
    if problems or backup is None:
        raise ValidationError(problems)
    with transaction.atomic():
        restored, written = _save(owner, backup)
    try:
        rolls = _log(restored.campaign, backup["log"], written)
        with transaction.atomic():
            _follows(rolls, backup["log"], written)
            Membership.objects.create(
                campaign=restored.campaign, user=owner, role=Membership.Role.GM
            )
            _invites(owner, backup["members"], restored)
    except BaseException:
        restored.campaign.delete()
        raise
    return restored


def read_by_a_gm(backup: dict[str, Any]) -> list[dict[str, Any]]:
    """The log without whispers between players, as ``backup`` writes it: a file made before
    it left them out (or by hand) brings none into the new campaign. A GM is one the file
    names as such, its owner among them; an entry that followed one left out follows
    nothing."""
    gms = {m["username"] for m in backup["members"] if m["role"] == Membership.Role.GM}
    gms = {name for name in gms | {backup["owner"]} if name}
    return [
        entry
        for entry in backup["log"]
        if entry["visibility"] != Roll.Visibility.WHISPER or gms & set(entry["whisper_to"])
    ]


def _unsaved(backup: dict[str, Any]) -> Campaign:
    """The campaign as the backup has it, unsaved: the entries are shown in its words."""
    fields = ("ruleset", "overrides", "language", "ladder_words")
    return Campaign(**{name: backup[name] for name in fields})


def unshowable(log: list[dict[str, Any]], campaign: Campaign) -> list[str]:
    """The log entries the table could not show. A snapshot's shape is the roll's own, so
    the way to know that an entry from a file shows is to show it, as the log, the sheet's
    last roll and the Markdown export do (the part of each that reads the snapshot); a shape
    none of them reads is refused here rather than failing each time the log is opened.

    It runs before anything is written, so a long log holds no write lock while it is read.
    Each entry is numbered below any row's id: asking what follows it finds nothing."""
    problems = []
    for index, entry in enumerate(log):
        roll = Roll(
            id=-1 - index,
            campaign=campaign,
            kind=entry["kind"],
            visibility=entry["visibility"],
            hidden_difficulty=entry["hidden_difficulty"],
            label=entry["label"],
            snapshot=entry["snapshot"],
            succeeded=entry["succeeded"],
            gm_note=entry["gm_note"],
            created_at=entry["time"],
        )
        try:
            entry_body(roll, gm_view=True)
            roll_summary(roll, gm_view=True)
            roll_summary(roll, gm_view=False)
            markdown_line(roll, gm_view=True)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            problems.append(f"log[{index}].snapshot: is not an entry this table can show")
    return problems


@dataclass
class Written:
    """The new rows the log's entries point at, by the backup's own names for them."""

    people: dict[str, User]
    character_ids: dict[int, int]
    session_ids: dict[int, int]


def _save(owner: User, backup: dict[str, Any]) -> tuple[Restored, Written]:
    """Everything but the log and the campaign's members."""
    campaign = Campaign.objects.create(
        owner=owner,
        name=backup["name"],
        pitch=backup["pitch"],
        ruleset=backup["ruleset"],
        overrides=backup["overrides"],
        language=backup["language"],
        ladder_words=backup["ladder_words"],
        gm_moves=backup["gm_moves"],
        archived_at=timezone.now() if backup["archived"] else None,
    )
    SessionZero.objects.create(campaign=campaign, **(backup["session_zero"] or {}))
    PeoplePackage.objects.bulk_create(
        PeoplePackage(campaign=campaign, **package) for package in backup["people_packages"]
    )
    AbilityMarks.objects.bulk_create(
        AbilityMarks(campaign=campaign, **marks) for marks in backup["ability_marks"]
    )
    restored = Restored(campaign)
    people = _people(owner, backup)
    character_ids = _characters(campaign, backup["characters"], people, restored)
    session_ids = _sessions(campaign, backup["sessions"], character_ids)
    _countdowns(campaign, backup["countdowns"])
    _challenges(campaign, backup["challenges"])
    TableTalk.objects.create(campaign=campaign, **backup["table_talk"])
    restore_scenes(campaign, backup["pictures"], backup["scenes"], character_ids, people)
    restored.sessions, restored.entries = len(session_ids), len(backup["log"])
    return restored, Written(people, character_ids, session_ids)


def _people(owner: User, backup: dict[str, Any]) -> dict[str, User]:
    """The accounts here named in the backup, by username; the one restoring is always
    themself, whatever name they had where the backup was made."""
    names = {entry["player"] for entry in backup["characters"] if entry["player"]}
    names |= {entry["roller"] for entry in backup["log"] if entry["roller"]}
    names |= {name for entry in backup["log"] for name in entry["whisper_to"]}
    people = {user.get_username(): user for user in User.objects.filter(username__in=names)}
    return {**people, owner.get_username(): owner}


def _characters(
    campaign: Campaign, entries: list[dict[str, Any]], people: dict[str, User], done: Restored
) -> dict[int, int]:
    ids = {}
    for entry in entries:
        sheet = entry["sheet"]
        player = people.get(entry["player"] or "")
        if sheet["kind"] == Character.Kind.NPC:
            player = None
        elif player is None:
            done.unplayed.append(sheet["name"])
        character = character_from_sheet(
            campaign=campaign, owner=player, sheet=sheet, stage=sheet["stage"]
        )
        ids[entry["ref"]] = character.pk
    done.characters = len(ids)
    return ids


def _sessions(
    campaign: Campaign, entries: list[dict[str, Any]], character_ids: dict[int, int]
) -> dict[int, int]:
    sessions = PlaySession.objects.bulk_create(
        PlaySession(
            campaign=campaign,
            number=entry["number"],
            started_at=entry["started_at"],
            ended_at=entry["ended_at"],
            xp_awarded=entry["xp_awarded"],
        )
        for entry in entries
    )
    SpotlightSpan.objects.bulk_create(
        (
            SpotlightSpan(
                session=session,
                character_id=character_ids[span["character"]],
                started_at=span["started_at"],
                ended_at=span["ended_at"],
            )
            for session, entry in zip(sessions, entries, strict=True)
            for span in entry["spotlight"]
        ),
        batch_size=BATCH,
    )
    return {entry["number"]: session.pk for session, entry in zip(sessions, entries, strict=True)}


def _countdowns(campaign: Campaign, entries: list[dict[str, Any]]) -> None:
    fields = (
        *("name", "boxes", "marked", "outcome", "stages", "announced", "visibility"),
        *("completed_at", "created_at"),
    )
    countdowns = Countdown.objects.bulk_create(
        Countdown(campaign=campaign, **{key: entry[key] for key in fields}) for entry in entries
    )
    by_ref = {entry["ref"]: countdown for countdown, entry in zip(countdowns, entries, strict=True)}
    paired = []
    for countdown, entry in zip(countdowns, entries, strict=True):
        if entry["failure"] is not None:
            countdown.failure_id = by_ref[entry["failure"]].pk
            paired.append(countdown)
    Countdown.objects.bulk_update(paired, ["failure"], batch_size=BATCH)


def _challenges(campaign: Campaign, entries: list[dict[str, Any]]) -> None:
    fields = ("name", "ladder", "state", "notes", "visibility", "created_at")
    Challenge.objects.bulk_create(
        Challenge(campaign=campaign, **{key: entry[key] for key in fields}) for entry in entries
    )


def _log(campaign: Campaign, entries: list[dict[str, Any]], written: Written) -> list[Roll]:
    """The log in its own order, each entry as it was, ``BATCH`` entries a transaction."""
    rolls: list[Roll] = []
    for start in range(0, len(entries), BATCH):
        with transaction.atomic():
            rolls += Roll.objects.bulk_create(
                Roll(
                    campaign=campaign,
                    session_id=written.session_ids.get(entry["session"]),
                    roller=written.people.get(entry["roller"] or ""),
                    character_id=written.character_ids.get(entry["character"]),
                    kind=entry["kind"],
                    visibility=entry["visibility"],
                    hidden_difficulty=entry["hidden_difficulty"],
                    label=entry["label"],
                    snapshot=snapshot_ids(entry["snapshot"], written.character_ids, {}),
                    succeeded=entry["succeeded"],
                    gm_note=entry["gm_note"],
                    idempotency_key=uuid.uuid4().hex,
                    created_at=entry["time"],
                )
                for entry in entries[start : start + BATCH]
            )
    return rolls


def _follows(rolls: list[Roll], entries: list[dict[str, Any]], written: Written) -> None:
    """An entry that names another (a Fudge point's reroll follows its roll, a fight's
    confirmation confirms the fight) gets that one's new id once all are written: they are
    few, so only they are written twice. And a whisper gets its people."""
    roll_ids = {entry["ref"]: roll.pk for roll, entry in zip(rolls, entries, strict=True)}
    naming = []
    for roll, entry in zip(rolls, entries, strict=True):
        if entry["follows"] is not None or "confirms" in entry["snapshot"]:
            roll.follows_id = roll_ids.get(entry["follows"])
            roll.snapshot = snapshot_ids(entry["snapshot"], written.character_ids, roll_ids)
            naming.append(roll)
    Roll.objects.bulk_update(naming, ["follows", "snapshot"], batch_size=BATCH)
    # A whisper reaches those of its people who have an account here (None: never pushed).
    Whispered.objects.bulk_create(
        (
            Whispered(entry=roll, user=written.people[name])
            for roll, entry in zip(rolls, entries, strict=True)
            for name in sorted(set(entry["whisper_to"]))
            if name in written.people
        ),
        batch_size=BATCH,
    )


def _invites(owner: User, members: list[dict[str, Any]], done: Restored) -> None:
    """An invite link for the backup's players (co-GMs among them: an invite makes no GM)
    and one for its observers, each good for as many people as it lists."""
    others = [m for m in members if m["username"] != owner.get_username()]
    done.to_invite = [m["username"] for m in others]
    done.co_gms = [m["username"] for m in others if m["role"] == Membership.Role.GM]
    players = sum(m["role"] != Membership.Role.OBSERVER for m in others)
    observers = len(others) - players
    for role, count in ((Membership.Role.PLAYER, players), (Membership.Role.OBSERVER, observers)):
        if count:
            done.invites.append(
                invite_create(campaign=done.campaign, created_by=owner, role=role, max_uses=count)
            )
