"""Index cards and handouts: a GM writes cards ahead (kept for GMs until shown), shows each to
everyone or to the players chosen, pins it to an area, and shows one full screen on every
phone at once; players add cards where the scene allows. A card shown is named in the log:
to everyone for a card everyone sees, to the GMs for one shown to a few (its title would
tell the others what they do not see).

A card's push goes to GMs, to everyone, and to each player who sees a card beyond everyone's
(``fragments.Frames.people``): a card shown to one player reaches no other player's
socket, page or backup."""

from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import table_language
from rolls.entry_words import Said, said
from rolls.scene import pictures
from rolls.scene.card_fragments import Seen, card_change, cards_context
from rolls.scene.fragments import Frames, publish_scene
from rolls.scene.models import Area, Card, Picture, Scene
from rolls.scene.services import TITLE_LENGTH, locked
from rolls.services import roll_announce

MAX_CARDS = 60
TEXT_LENGTH = 2000


def _checked(title: str, text: str) -> tuple[str, str]:
    title, text = title.strip(), text.strip()
    if not title:
        raise ValidationError(_("A card needs a title."))
    if len(title) > TITLE_LENGTH or len(text) > TEXT_LENGTH:
        raise ValidationError(
            _("A card's title fits in %(title)d characters, its text in %(text)d.")
            % {"title": TITLE_LENGTH, "text": TEXT_LENGTH}
        )
    return title, text


def _area(scene: Scene, area: Area | None, *, gm: bool) -> Area | None:
    if area is not None and (area.scene_id != scene.pk or (area.hidden and not gm)):
        raise ValidationError(_("Pin the card to an area of this scene."))
    return area


def _people(membership: Membership, people: Collection[int]) -> list[int]:
    """The players (and observers) of the campaign among ``people``, in order."""
    found = Membership.objects.filter(campaign_id=membership.campaign_id, user_id__in=people)
    return sorted(found.exclude(role=Membership.Role.GM).values_list("user_id", flat=True))


@transaction.atomic
def card_create(
    *,
    membership: Membership,
    scene: Scene,
    title: str,
    text: str = "",
    area: Area | None = None,
    shown: str = Card.Shown.GM,
    picture: Picture | None = None,
) -> Card:
    """A GM's card (shown as they say: GMs only until revealed, or everyone) or, where the
    scene allows, a player's (everyone, or only them and the GMs)."""
    scene = locked(scene)
    gm = membership.is_gm
    if not gm and not (scene.player_cards and membership.role == Membership.Role.PLAYER):
        raise ValidationError(_("Only the GMs add cards to this scene."))
    if shown not in (Card.Shown.GM, Card.Shown.EVERYONE):
        raise ValidationError(_("A new card is shown to everyone or kept for the GMs."))
    if Card.objects.filter(scene=scene).count() >= MAX_CARDS:
        raise ValidationError(_("A scene holds at most %(most)d cards.") % {"most": MAX_CARDS})
    title, text = _checked(title, text)
    card = Card.objects.create(
        scene=scene,
        title=title,
        text=text,
        area=_area(scene, area, gm=gm),
        shown=shown,
        picture=picture,
        author_id=membership.user_id,
        revealed_at=timezone.now() if shown == Card.Shown.EVERYONE else None,
    )
    if scene.current:
        _publish_change(scene, card, Seen.of(None), "card.created", added=True)
        if shown == Card.Shown.EVERYONE:
            _announce(scene, said("card", title=title), players=True)
    return card


def _publish_change(
    scene: Scene,
    card: Card,
    before: Seen,
    event: str,
    *,
    added: bool = False,
    removed: bool = False,
) -> None:
    """The one card, to every screen whose list it changes; a card kept for the GMs sends the
    players nothing, not even a number."""
    after = Seen.of(None if removed else card)
    with table_language(scene.campaign):
        shared = cards_context(scene.campaign, scene, cards=False)
        gm, everyone, people = card_change(
            scene.campaign, card, before, after, shared, added=added, removed=removed
        )
    players = bool(everyone or people)
    Frames(gm, everyone if players else None, people).publish(scene.campaign_id, event)


def _announce(scene: Scene, line: Said, *, players: bool) -> None:
    roll_announce(campaign=scene.campaign, lines=[line], players=players)


@transaction.atomic
def card_reveal(
    *,
    membership: Membership,
    card: Card,
    shown: str,
    people: Collection[int] = (),
    area: Area | None = None,
) -> Card:
    """Who sees the card (GMs only, everyone, or the players chosen) and where it is pinned:
    a GM's command. Named in the log when it is shown to someone new."""
    if not membership.is_gm:
        raise ValidationError(_("Only a GM shows a card."))
    scene = locked(card.scene)
    card = Card.objects.select_for_update().get(pk=card.pk)
    if shown not in Card.Shown.values:
        raise ValidationError(_("Pick who sees the card."))
    chosen = _people(membership, people) if shown == Card.Shown.SOME else []
    if shown == Card.Shown.SOME and not chosen:
        raise ValidationError(_("Tick the players who see the card."))
    before = Seen.of(card)
    was = (card.shown, list(card.people))
    card.shown, card.people, card.area = shown, chosen, _area(scene, area, gm=True)
    if shown != Card.Shown.GM and card.revealed_at is None:
        card.revealed_at = timezone.now()
    card.save()
    was_handout = scene.handout_id == card.pk
    if was_handout and shown == Card.Shown.GM:
        scene.handout, scene.handout_at = None, None  # what nobody else may see leaves screens
        scene.save(update_fields=["handout", "handout_at"])
    if not scene.current:
        return card
    _publish_change(scene, card, before, "card.shown")
    if was_handout and before != Seen.of(card):  # on other screens now, or on none
        publish_scene(scene.campaign, "handout.hidden", parts=("handout",))
    if (card.shown, card.people) != was:
        _tell(scene, card, membership)
    return card


def _tell(scene: Scene, card: Card, membership: Membership) -> None:
    if card.shown == Card.Shown.EVERYONE:
        _announce(scene, said("card-everyone", title=card.title), players=True)
    elif card.shown == Card.Shown.SOME:
        names = Membership.objects.filter(
            campaign_id=membership.campaign_id, user_id__in=card.people
        ).values_list("user__username", flat=True)
        line = said("card-some", people=", ".join(sorted(names)), title=card.title)
        _announce(scene, line, players=False)


@transaction.atomic
def card_delete(*, membership: Membership, card: Card) -> None:
    if not membership.is_gm:
        raise ValidationError(_("Only a GM removes a card."))
    scene = locked(card.scene)
    before, picture, shown_whole = Seen.of(card), card.picture, scene.handout_id == card.pk
    pk = card.pk
    card.delete()
    card.pk = pk  # its screens take it off by its id
    pictures.picture_forget(picture)
    if scene.current:
        _publish_change(scene, card, before, "card.removed", removed=True)
        if shown_whole:
            publish_scene(scene.campaign, "handout.hidden", parts=("handout",))


@transaction.atomic
def handout_show(*, membership: Membership, card: Card) -> Scene:
    """The card full screen on the screen of everyone who sees it (a card kept for GMs is
    shown to everyone first)."""
    if not membership.is_gm:
        raise ValidationError(_("Only a GM shows a handout."))
    scene = locked(card.scene)
    if not scene.current:
        raise ValidationError(_("Show the card's scene to the table first."))
    if card.shown == Card.Shown.GM:
        card_reveal(membership=membership, card=card, shown=Card.Shown.EVERYONE, area=card.area)
        scene.refresh_from_db()
    scene.handout, scene.handout_at = card, timezone.now()
    scene.save(update_fields=["handout", "handout_at"])
    publish_scene(scene.campaign, "handout.shown", parts=("handout",))
    return scene


@transaction.atomic
def handout_hide(*, membership: Membership, scene: Scene) -> Scene:
    if not membership.is_gm:
        raise ValidationError(_("Only a GM puts a handout away."))
    scene = locked(scene)
    if scene.handout_id is not None:
        scene.handout, scene.handout_at = None, None
        scene.save(update_fields=["handout", "handout_at"])
        publish_scene(scene.campaign, "handout.hidden", parts=("handout",))
    return scene
