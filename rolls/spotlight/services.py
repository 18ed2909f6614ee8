"""The spotlight (Fudge Lite): the GM moves it to a PC or to nobody, players raise a hand to
ask for it, and each stretch a PC holds it during a session is kept as a SpotlightSpan, so the
GM can see each one's share of the evening. The rules module does the share arithmetic.

The section is pushed to every screen: the holder and who is waiting for everyone, and the
GM's version adds the controls and the shares (so ``everyone`` never carries them)."""

from dataclasses import dataclass, replace
from datetime import datetime

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import DateTimeField, F, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership
from campaigns.selectors import table_language
from characters.models import Character
from fudgetable import live
from fudgetable.rules import spotlight as rules
from fudgetable.rules.errors import RulesError
from rolls.models import PlaySession
from rolls.selectors import running_session
from rolls.spotlight.models import Spotlight, SpotlightSpan

TEMPLATE = "rolls/spotlight/card.html"


@dataclass(frozen=True)
class Share:
    """One PC's time in the spotlight during a session."""

    name: str
    seconds: int
    percent: int

    @property
    def held(self) -> str:
        minutes, seconds = divmod(self.seconds, 60)
        if minutes >= 60:
            return f"{minutes // 60} h {minutes % 60:02d} min"
        return f"{minutes} min" if minutes else f"{seconds} s"


@dataclass(frozen=True)
class SpotlightState:
    """What the spotlight section shows. ``pcs``, ``shares`` and ``session`` are the GM's."""

    holder: Character | None
    since: datetime | None
    waiting: list[str]
    gm_view: bool
    pcs: list[Character]
    shares: list[Share]
    session: PlaySession | None


# --- reads -------------------------------------------------------------------------------


def _current(campaign: Campaign) -> Spotlight:
    """The campaign's spotlight; one nobody has touched yet is on nobody (and not written)."""
    found = Spotlight.objects.filter(campaign=campaign).select_related("character").first()
    return found or Spotlight(campaign=campaign)


def _locked(campaign: Campaign) -> Spotlight:
    return Spotlight.objects.select_for_update().get_or_create(campaign=campaign)[0]


def session_shares(session: PlaySession) -> list[Share]:
    """Every PC of the campaign (and anyone else who held it) with their time in the
    spotlight this session, a span still open counted up to now."""
    # The database adds up each character's spans: a session gains one with every move, and
    # reading them all made each move slower the longer the evening ran (docs/performance.md).
    running_to_now = Coalesce("ended_at", Value(timezone.now(), output_field=DateTimeField()))
    lengths = (
        SpotlightSpan.objects.filter(session=session)
        .order_by()
        .values("character_id")
        .annotate(length=Sum(running_to_now - F("started_at")))
        .values_list("character_id", "length")
    )
    held = rules.time_held(lengths)
    names = dict(
        Character.objects.filter(
            Q(campaign_id=session.campaign_id, kind=Character.Kind.PC) | Q(pk__in=held)
        ).values_list("pk", "name")
    )
    seconds = {pk: held.get(pk, 0) for pk in names}
    percents = rules.shares(seconds)
    found = [Share(name=names[pk], seconds=seconds[pk], percent=percents[pk]) for pk in names]
    return sorted(found, key=lambda share: (-share.seconds, share.name))


def _waiting(spotlight: Spotlight) -> list[str]:
    """Who has a hand up, in the order they raised it: each person's name and their PCs.
    A hand of someone who since left the table (or stopped being a player) no longer counts."""
    players = Membership.objects.filter(
        campaign_id=spotlight.campaign_id, user_id__in=spotlight.hands, role=Membership.Role.PLAYER
    ).select_related("user")
    names = {m.user_id: m.user.get_username() for m in players}
    pcs: dict[int, list[str]] = {}
    for owner_id, name in Character.objects.filter(
        campaign_id=spotlight.campaign_id, kind=Character.Kind.PC, owner_id__in=names
    ).values_list("owner_id", "name"):
        pcs.setdefault(owner_id, []).append(name)
    return [
        f"{names[uid]} ({', '.join(sorted(pcs[uid]))})" if uid in pcs else names[uid]
        for uid in spotlight.hands
        if uid in names
    ]


def spotlight_state(campaign: Campaign, *, gm_view: bool) -> SpotlightState:
    return _state_of(_current(campaign), campaign, gm_view=gm_view)


def _state_of(spotlight: Spotlight, campaign: Campaign, *, gm_view: bool) -> SpotlightState:
    session = running_session(campaign) if gm_view else None
    return _state_in(spotlight, campaign, gm_view=gm_view, session=session)


def _state_in(
    spotlight: Spotlight, campaign: Campaign, *, gm_view: bool, session: PlaySession | None
) -> SpotlightState:
    """The section's state, the GM's with ``session``'s shares (the running one, or None)."""
    return SpotlightState(
        holder=spotlight.character,
        since=spotlight.since,
        waiting=_waiting(spotlight),
        gm_view=gm_view,
        pcs=list(Character.objects.filter(campaign=campaign, kind=Character.Kind.PC).only("name"))
        if gm_view
        else [],
        shares=session_shares(session) if session is not None else [],
        session=session,
    )


def hand_is_up(campaign: Campaign, user: User) -> bool:
    return user.pk in _current(campaign).hands


def _render(campaign: Campaign, state: SpotlightState) -> str:
    context = {"spot": state, "campaign": campaign, "oob": True}
    return render_to_string(f"{TEMPLATE}#spotlight", context)


def connect_fragments(membership: Membership) -> str:
    """What a (re)connecting socket gets of the spotlight: the section as its person's audience
    sees it, and that person's own hand control, from one look at the spotlight."""
    campaign = membership.campaign
    spotlight = _current(campaign)
    state = _state_of(spotlight, campaign, gm_view=membership.is_gm)
    up = membership.user_id in spotlight.hands
    return _render(campaign, state) + hand_fragment(membership, up=up)


def _announce(campaign: Campaign, event: str, gm: SpotlightState) -> None:
    # The players' section is the GM's without the GM's parts: looked up once for both.
    everyone = replace(gm, gm_view=False, pcs=[], shares=[], session=None)
    with table_language(campaign):
        drawn = _render(campaign, everyone), _render(campaign, gm)
    live.publish(campaign.pk, event, everyone=drawn[0], gm=drawn[1])


def hand_fragment(membership: Membership, *, up: bool) -> str:
    """One person's own hand control, to swap in wherever their table page is open."""
    context = {"campaign": membership.campaign, "membership": membership, "hand_up": up}
    return render_to_string(f"{TEMPLATE}#hand", {**context, "oob": True})


def _tell_hands(campaign: Campaign, spotlight: Spotlight, user_ids: list[int]) -> None:
    """Each of these players' screens gets their hand control as it is now. Sent to them
    alone: pushing the section made every player's page ask for its own control again."""
    if not user_ids:
        return
    players = Membership.objects.filter(
        campaign=campaign, user_id__in=user_ids, role=Membership.Role.PLAYER
    ).select_related("campaign")
    for membership in players:
        up = membership.user_id in spotlight.hands
        with table_language(campaign):
            html = hand_fragment(membership, up=up)
        live.publish_to_person(campaign.pk, membership.user_id, "hand.changed", html=html)


# --- writes ------------------------------------------------------------------------------


def _close_spans(campaign: Campaign, now: datetime) -> None:
    SpotlightSpan.objects.filter(session__campaign=campaign, ended_at__isnull=True).update(
        ended_at=now
    )


@transaction.atomic
def spotlight_move(*, campaign: Campaign, character: Character | None) -> SpotlightState:
    """Puts the spotlight on a PC, or on nobody. While a session runs, the stretch the last
    holder had ends now and the new one's begins. The new holder's player lowers their hand:
    they have what they were waiting for. Returns the section as the GMs now see it (the one
    pushed to them), for the moving GM's own answer."""
    if character is not None and (
        character.campaign_id != campaign.pk or character.kind != Character.Kind.PC
    ):
        raise RulesError(
            "character", gettext("the spotlight goes to a PC of this campaign, or nobody")
        )
    spotlight = _locked(campaign)
    now = timezone.now()
    _close_spans(campaign, now)
    session = running_session(campaign)
    if character is not None and session is not None:
        SpotlightSpan.objects.create(session=session, character=character, started_at=now)
    if character is None or spotlight.character_id != character.pk:
        spotlight.since = now if character is not None else None
    spotlight.character = character
    lowered = [uid for uid in spotlight.hands if character and uid == character.owner_id]
    spotlight.hands = [uid for uid in spotlight.hands if uid not in lowered]
    spotlight.save(update_fields=["character", "since", "hands"])
    gm = _state_in(spotlight, campaign, gm_view=True, session=session)
    _announce(campaign, "spotlight.moved", gm)
    _tell_hands(campaign, spotlight, lowered)
    return gm


@transaction.atomic
def hand_raise(*, campaign: Campaign, user: User) -> Spotlight:
    """Asks for the spotlight; a hand already up keeps its place in the queue. Only players
    raise a hand (the caller refuses GMs and observers)."""
    spotlight = _locked(campaign)
    if user.pk not in spotlight.hands:
        spotlight.hands = [*spotlight.hands, user.pk]
        spotlight.save(update_fields=["hands"])
    _announce(campaign, "hand.raised", _state_of(spotlight, campaign, gm_view=True))
    _tell_hands(campaign, spotlight, [user.pk])  # their other devices
    return spotlight


@transaction.atomic
def hand_lower(*, campaign: Campaign, user: User) -> Spotlight:
    spotlight = _locked(campaign)
    if user.pk in spotlight.hands:
        spotlight.hands = [uid for uid in spotlight.hands if uid != user.pk]
        spotlight.save(update_fields=["hands"])
    _announce(campaign, "hand.lowered", _state_of(spotlight, campaign, gm_view=True))
    _tell_hands(campaign, spotlight, [user.pk])
    return spotlight


@transaction.atomic
def spotlight_session_end(*, session: PlaySession) -> None:
    """A session's end closes the stretch still running, so its shares stop growing, and
    leaves the spotlight with nobody and every hand down for the next evening."""
    campaign = session.campaign
    spotlight = _locked(campaign)
    _close_spans(campaign, session.ended_at or timezone.now())
    raised = spotlight.hands
    spotlight.character, spotlight.since, spotlight.hands = None, None, []
    spotlight.save(update_fields=["character", "since", "hands"])
    _announce(campaign, "spotlight.moved", _state_of(spotlight, campaign, gm_view=True))
    _tell_hands(campaign, spotlight, raised)
