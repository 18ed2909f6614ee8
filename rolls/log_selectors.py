"""Reads for the roll log page, its exports and the session recap; and the one rule of who
may read a log entry, which every path that reads or acts on an entry asks."""

from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import Http404
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership
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


def readable(*, gm_view: bool, reader: int | None) -> Q:
    """The log entries a person may read, as a filter: the one audience rule of the log.

    Everyone reads the table's entries, and a player reads a GM's secret roll only as "the GM
    rolled" (each path shows it so). A whisper is read by its own people alone (``reader``:
    the person's user id; None: nobody's whispers), a GM included only when it reached them:
    a GM does not read whispers between players. A GM-only announcement is about something
    players may not know exists at all, so for them it is not there."""
    heard = Exists(Whispered.objects.filter(entry=OuterRef("pk"), user_id=reader or 0))
    rule = ~Q(visibility=Roll.Visibility.WHISPER) | Q(heard)
    if not gm_view:
        rule &= ~Q(kind=Roll.Kind.ANNOUNCEMENT, visibility=Roll.Visibility.GM)
    return rule


def entry_or_404(membership: Membership, entry_id: int, *, in_full: bool = False) -> Roll:
    """The entry a command names, if its person may read it (``readable``), else a 404 as for
    an entry that does not exist. ``in_full``: the command needs the entry's words, so a
    player's "the GM rolled" is not enough."""
    entries = Roll.objects.filter(campaign_id=membership.campaign_id, pk=entry_id)
    entries = entries.filter(readable(gm_view=membership.is_gm, reader=membership.user_id))
    entry = entries.select_related("character").first()
    if entry is None or (in_full and entry.secret and not membership.is_gm):
        raise Http404(gettext("No such entry"))
    return entry


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
    rolls = rolls.filter(readable(gm_view=gm_view, reader=reader))
    if character_id is not None and not gm_view:
        rolls = rolls.exclude(visibility=Roll.Visibility.GM)
    return rolls.annotate(spent_on=Exists(Roll.objects.filter(follows=OuterRef("pk"))))
