from datetime import timedelta

from django.db.models import QuerySet
from django.utils import timezone

from campaigns.models import Campaign, Membership
from characters.models import Character
from rolls.models import PlaySession, Roll, TableConnection

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


def running_session(campaign: Campaign) -> PlaySession | None:
    # At most one runs (a constraint says so): get() builds no ORDER BY, and every roll asks.
    try:
        return campaign.sessions.get(ended_at__isnull=True)
    except PlaySession.DoesNotExist:
        return None


def running_session_id(campaign_id: int) -> int | None:
    """What a new roll is filed under: the running session's key, without loading its row
    (a third cheaper, and every roll asks)."""
    sessions = PlaySession.objects.filter(campaign_id=campaign_id, ended_at__isnull=True)
    try:
        return sessions.values_list("pk", flat=True).get()
    except PlaySession.DoesNotExist:
        return None


def rollable(membership: Membership) -> QuerySet[Character]:
    """The characters this person may roll for: their own PCs; a GM, everyone's."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        characters = characters.filter(owner_id=membership.user_id, kind=Character.Kind.PC)
    return characters


def opponents(membership: Membership) -> QuerySet[Character]:
    """Whom this person may roll against: a GM, anyone; a player, the PCs (the GM rolls for
    NPCs, whose traits players do not see)."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    if not membership.is_gm:
        characters = characters.filter(kind=Character.Kind.PC)
    return characters
