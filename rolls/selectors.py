from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from campaigns.models import Campaign, Membership, PlaySession, TableConnection
from characters.models import Character
from rolls.models import Roll

LOG_LENGTH = 40
PRESENCE_TIMEOUT_SECONDS = 90


def latest_session(campaign: Campaign) -> PlaySession | None:
    return campaign.sessions.first()


def roll_log(
    campaign: Campaign, *, session: PlaySession | None = None, character_id: int | None = None
) -> QuerySet[Roll]:
    rolls = Roll.objects.filter(campaign=campaign).select_related("roller", "character", "session")
    if session is not None:
        rolls = rolls.filter(session=session)
    if character_id is not None:
        rolls = rolls.filter(character_id=character_id)
    return rolls


def present_usernames(campaign_id: int) -> list[str]:
    """Who has a socket open at the table now (rows a dead process left behind expire)."""
    fresh = timezone.now() - timedelta(seconds=PRESENCE_TIMEOUT_SECONDS)
    names = (
        TableConnection.objects.filter(campaign_id=campaign_id, seen_at__gte=fresh)
        .values_list("user__username", flat=True)
        .distinct()
    )
    return sorted(set(names))


def sees_everything(membership: Membership) -> bool:
    return membership.is_gm


def player_characters(campaign: Campaign) -> list[Character]:
    return list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PC))
