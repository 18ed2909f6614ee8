"""A campaign's backup (schema ``fudgetable.campaign/2``): everything needed to put the campaign
back on any FudgeTable, read back by ``backup_checks`` and saved by ``restore``.

It names no database row. People are their usernames; characters, countdowns and log entries
carry a ``ref`` (1, 2, 3, ... in the order written) that the rest of the file points at, and
the ids a log entry's snapshot keeps (the fighters of a fight, the fight a confirmation
confirms) are written as those refs. So a backup restored and backed up again is the same
document but its ``exported_at``.

It lives in ``rolls`` because it holds the log and the table, and ``rolls`` is the one app
that may read all three layers. It holds what its GMs read at the table: a whisper between
players (none of its people a GM) is left out, text and all. Invite links are left out: they
are keys. So are the table's passing state (who holds the spotlight right now, raised hands,
the poker deck's pile) and the sockets open at the table.
"""

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.db.models import Exists, OuterRef, Q
from django.utils import timezone

from campaigns.models import Campaign, Membership, SessionZero
from campaigns.selectors import members_of
from characters.exchange import character_to_json
from characters.models import AbilityMarks, PeoplePackage
from characters.selectors import sheet_queryset
from rolls.models import (
    Challenge,
    Countdown,
    PlaySession,
    Roll,
    SpotlightSpan,
    TableTalk,
    Whispered,
)
from rolls.scene.backup import pictures_to_json, scenes_to_json

Json = dict[str, Any]

SCHEMA = "fudgetable.campaign/2"


def moment(value: datetime | None) -> str | None:
    """A time as the backup writes it: ISO 8601 in UTC, to the microsecond."""
    return None if value is None else value.astimezone(UTC).isoformat()


def campaign_to_json(campaign: Campaign) -> Json:
    """The whole campaign for its GMs to keep, and to restore with ``restore``."""
    characters = list(sheet_queryset(campaign))
    character_ref = {c.pk: ref for ref, c in enumerate(characters, start=1)}
    rolls = list(
        Roll.objects.filter(campaign=campaign)
        .filter(_read_by_a_gm(campaign))
        .select_related("roller", "session")
        .prefetch_related("whispered_to__user")
        .order_by("created_at", "pk")
    )
    talk = TableTalk.objects.filter(campaign=campaign).first()
    roll_ref = {roll.pk: ref for ref, roll in enumerate(rolls, start=1)}
    session_zero = SessionZero.objects.filter(campaign=campaign).first()
    pictures, picture_ref = pictures_to_json(campaign)
    return {
        "schema": SCHEMA,
        "exported_at": moment(timezone.now()),
        "name": campaign.name,
        "pitch": campaign.pitch,
        "ruleset": campaign.ruleset,
        "overrides": campaign.overrides,
        "language": campaign.language,
        "ladder_words": campaign.ladder_words,
        "archived": campaign.is_archived,
        "owner": campaign.owner.get_username(),
        "gm_moves": campaign.gm_moves,
        "session_zero": {
            "lines": session_zero.lines,
            "veils": session_zero.veils,
            "safety_tools": session_zero.safety_tools,
            "agreed_options": session_zero.agreed_options,
        }
        if session_zero
        else None,
        "members": [
            {"username": m.user.get_username(), "role": m.role} for m in members_of(campaign)
        ],
        "people_packages": [
            {"name": p.name, "description": p.description, "changes": p.changes, "points": p.points}
            for p in PeoplePackage.objects.filter(campaign=campaign)
        ],
        "ability_marks": [
            {"ability": m.ability, "poor": m.poor, "decent": m.decent, "great": m.great}
            for m in AbilityMarks.objects.filter(campaign=campaign)
        ],
        "characters": [
            {
                "ref": character_ref[c.pk],
                "player": c.owner.get_username() if c.owner else None,
                "sheet": character_to_json(c),
            }
            for c in characters
        ],
        "sessions": _sessions(campaign, character_ref),
        "countdowns": _countdowns(campaign),
        "challenges": [
            {
                "name": c.name,
                "ladder": c.ladder,
                "state": c.state,
                "notes": c.notes,
                "visibility": c.visibility,
                "created_at": moment(c.created_at),
            }
            for c in Challenge.objects.filter(campaign=campaign).order_by("created_at", "pk")
        ],
        "log": [
            {
                "ref": roll_ref[roll.pk],
                "time": moment(roll.created_at),
                "session": roll.session.number if roll.session else None,
                "roller": roll.roller.get_username() if roll.roller else None,
                "character": character_ref.get(roll.character_id or 0),
                "follows": roll_ref.get(roll.follows_id or 0),
                "kind": roll.kind,
                "visibility": roll.visibility,
                "hidden_difficulty": roll.hidden_difficulty,
                "label": roll.label,
                "snapshot": snapshot_refs(roll.snapshot, character_ref, roll_ref),
                "succeeded": roll.succeeded,
                "gm_note": roll.gm_note,
                **_whisper_to(roll),
            }
            for roll in rolls
        ],
        # The webhook's address is a key, left out as invite links are.
        "table_talk": {"dice_in_hand": bool(talk and talk.dice_in_hand)},
        "pictures": pictures,
        "scenes": scenes_to_json(campaign, character_ref, picture_ref),
    }


def _read_by_a_gm(campaign: Campaign) -> Q:
    """The entries the GMs may keep: every one but a whisper whose people include no GM
    (between players), which no GM reads at the table and so none takes home in a file."""
    gms = Membership.objects.filter(campaign=campaign, role=Membership.Role.GM)
    to_a_gm = Whispered.objects.filter(entry=OuterRef("pk"), user_id__in=gms.values("user_id"))
    return ~Q(visibility=Roll.Visibility.WHISPER) | Q(Exists(to_a_gm))


def _whisper_to(roll: Roll) -> Json:
    """A whisper's people, by username, sorted (a backup restored and backed up again is the
    same document)."""
    if not roll.whispered:
        return {}
    return {"whisper_to": sorted(w.user.get_username() for w in roll.whispered_to.all())}


def _sessions(campaign: Campaign, character_ref: Mapping[int, int]) -> list[Json]:
    spans: dict[int, list[Json]] = {}
    for span in SpotlightSpan.objects.filter(session__campaign=campaign).order_by(
        "started_at", "pk"
    ):
        spans.setdefault(span.session_id, []).append(
            {
                "character": character_ref[span.character_id],
                "started_at": moment(span.started_at),
                "ended_at": moment(span.ended_at),
            }
        )
    return [
        {
            "number": session.number,
            "started_at": moment(session.started_at),
            "ended_at": moment(session.ended_at),
            "xp_awarded": session.xp_awarded,
            "spotlight": spans.get(session.pk, []),
        }
        for session in PlaySession.objects.filter(campaign=campaign).order_by("number")
    ]


def _countdowns(campaign: Campaign) -> list[Json]:
    countdowns = list(Countdown.objects.filter(campaign=campaign).order_by("created_at", "pk"))
    ref = {c.pk: index for index, c in enumerate(countdowns, start=1)}
    return [
        {
            "ref": ref[c.pk],
            "name": c.name,
            "boxes": c.boxes,
            "marked": c.marked,
            "outcome": c.outcome,
            "stages": c.stages,
            "announced": c.announced,
            "visibility": c.visibility,
            "failure": ref.get(c.failure_id or 0),
            "completed_at": moment(c.completed_at),
            "created_at": moment(c.created_at),
        }
        for c in countdowns
    ]


def snapshot_refs(
    snapshot: Json, character_ref: Mapping[int, int], roll_ref: Mapping[int, int]
) -> Json:
    """The snapshot with the rows it names (``rolls.fight.exchange``'s fighters and the fight a
    confirmation confirms) turned from ids into the backup's refs; ``restore`` turns them back
    with the new ids. A row that is gone becomes None, as the table already reads it."""
    return _renamed(snapshot, character_ref.get, roll_ref.get)


def _renamed(snapshot: Json, character: Any, roll: Any) -> Json:
    """``snapshot`` with each row it names passed through ``character`` or ``roll``; the
    functions get what the snapshot holds and give what goes in its place."""
    if not isinstance(snapshot, dict):
        return snapshot
    out = dict(snapshot)
    if "confirms" in out:
        out["confirms"] = roll(out["confirms"])
    if isinstance(out.get("marked"), list):
        out["marked"] = [_with_character(m, character) for m in out["marked"]]
    if isinstance(out.get("sides"), list):
        out["sides"] = [_with_character(side, character) for side in out["sides"]]
    fight = out.get("fight")
    if isinstance(fight, dict) and isinstance(fight.get("wounds"), list):
        out["fight"] = {
            **fight,
            "wounds": [_with_character(w, character) for w in fight["wounds"]],
        }
    return out


def _with_character(part: object, character: Any) -> object:
    if isinstance(part, dict) and "character" in part:
        return {**part, "character": character(part["character"])}
    return part


def snapshot_ids(
    snapshot: Json, character_id: Mapping[int, int], roll_id: Mapping[int, int]
) -> Json:
    """The inverse of ``snapshot_refs``: refs back into this campaign's new ids."""
    return _renamed(snapshot, _lookup(character_id), _lookup(roll_id))


def _lookup(ids: Mapping[int, int]) -> Any:
    def to_id(ref: object) -> int | None:
        return ids.get(ref) if isinstance(ref, int) and not isinstance(ref, bool) else None

    return to_id
