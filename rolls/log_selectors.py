"""Reads for the roll log page, its exports and the session recap."""

from django.db.models import Exists, OuterRef, Q, QuerySet

from campaigns.models import Campaign
from characters.models import Character
from rolls import selectors
from rolls.models import PlaySession, Roll, Whispered

PAGE_SIZE = 50


def sessions(campaign: Campaign) -> QuerySet[PlaySession]:
    return campaign.sessions.order_by("-number")


def log_characters(campaign: Campaign, *, gm_view: bool) -> list[Character]:
    """The characters a viewer may filter the log by: a GM, anyone; players, the PCs and the
    NPCs the GM has revealed."""
    characters = Character.objects.filter(campaign=campaign)
    if not gm_view:
        characters = characters.exclude(kind=Character.Kind.NPC, revealed=False)
    return list(characters.order_by("kind", "name", "pk"))


def filtered_log(
    campaign: Campaign,
    *,
    gm_view: bool,
    reader: int | None = None,
    session: PlaySession | None = None,
    character_id: int | None = None,
) -> QuerySet[Roll]:
    """The log as a viewer may read it, newest first, each roll knowing whether a Fudge point
    was already spent on it. Filtered by character, a player's log leaves the GM's secret
    rolls out: even "the GM rolled" would say whose secret it was. A whisper is in the log of
    its own people alone (``reader``: the viewer's user id; None: nobody's whispers), a GM's
    included only when it reached them."""
    rolls = selectors.roll_log(campaign, session=session, character_id=character_id)
    heard = Exists(Whispered.objects.filter(entry=OuterRef("pk"), user_id=reader or 0))
    rolls = rolls.filter(~Q(visibility=Roll.Visibility.WHISPER) | Q(heard))
    if not gm_view:
        # A GM-only announcement is about something players may not know exists at all.
        rolls = rolls.exclude(kind=Roll.Kind.ANNOUNCEMENT, visibility=Roll.Visibility.GM)
    if character_id is not None and not gm_view:
        rolls = rolls.exclude(visibility=Roll.Visibility.GM)
    return rolls.annotate(spent_on=Exists(Roll.objects.filter(follows=OuterRef("pk"))))
