"""Pings: anyone at the table points at an area, a figure or a card of the scene shown, and it
flashes on every screen that sees it; a GM's ping may also ask every screen to look (a phone
turns to the scene). A ping is a moment, not a change: it writes nothing and takes no number,
so a screen that was away has nothing to catch up on (as the X-card).

A ping reaches exactly the people who see its part, and a person may ping only a part they
see: a hidden area or an NPC the players have not met is the GMs' to point at, among GMs; a
card shown to some players reaches those players and the GMs."""

import secrets
from dataclasses import dataclass

from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import table_language
from fudgetable import live
from rolls.scene.ids import shown_id
from rolls.scene.models import Area, Card, Figure, Scene
from rolls.scene.selectors import current_scene, on_players_board

TEMPLATE = "rolls/scene/scene.html"
KINDS = ("area", "figure", "card")


class NotSeen(Exception):
    """The part names nothing this person sees in the scene shown: answered as a 404, so that a
    player cannot learn what the GMs keep hidden by trying ids."""


@dataclass(frozen=True)
class Pinged:
    part: Area | Figure | Card
    name: str  # what the part is called on the board
    players: bool  # every player sees it
    people: frozenset[int]  # the players who see it when not all do (a card shown to them)


def _part(scene: Scene, kind: str, part_id: int) -> Pinged:
    if kind == "area":
        area = Area.objects.filter(scene=scene, pk=part_id).first()
        if area is None:
            raise NotSeen
        return Pinged(area, area.name, not area.hidden, frozenset())
    if kind == "figure":
        figure = (
            Figure.objects.filter(scene=scene, pk=part_id)
            .select_related("character", "area")
            .first()
        )
        if figure is None:
            raise NotSeen
        return Pinged(figure, figure.character.name, on_players_board(figure), frozenset())
    card = Card.objects.filter(scene=scene, pk=part_id).first()
    if card is None:
        raise NotSeen
    everyone = card.shown == Card.Shown.EVERYONE
    people = set(int(pk) for pk in card.people) if card.shown == Card.Shown.SOME else set()
    if card.author_id is not None and not everyone:
        people.add(card.author_id)
    return Pinged(card, card.title, everyone, frozenset(people))


def _seen_by(pinged: Pinged, membership: Membership) -> bool:
    return membership.is_gm or pinged.players or membership.user_id in pinged.people


def scene_ping(*, membership: Membership, kind: str, part_id: int, look: bool = False) -> None:
    """Flashes the part on every screen that sees it. ``look`` (GMs only) turns every phone
    that sees it to the scene as well."""
    scene = current_scene(membership.campaign_id)
    if scene is None or kind not in KINDS:
        raise NotSeen
    pinged = _part(scene, kind, part_id)
    if not _seen_by(pinged, membership):
        raise NotSeen
    person = membership.user.get_username()
    with table_language(membership.campaign):
        html = render_to_string(
            f"{TEMPLATE}#ping",
            {
                "target": f"{kind}-{shown_id(pinged.part)}",
                "look": look and membership.is_gm,
                "words": _("%(person)s points at %(part)s")
                % {"person": person, "part": pinged.name},
                # Each ping its own, so that two pings at one part flash twice.
                "nonce": secrets.token_hex(6),
            },
        )
    campaign_id = membership.campaign_id
    everyone = html if pinged.players else None
    live.publish(campaign_id, "scene.ping", everyone=everyone, gm=html, numbered=False)
    if not pinged.players and pinged.people:
        # The players among the card's people (a GM who wrote it has the GMs' copy already).
        players = Membership.objects.filter(
            campaign_id=campaign_id, user_id__in=pinged.people
        ).exclude(role=Membership.Role.GM)
        for user_id in sorted(players.values_list("user_id", flat=True)):
            live.publish_to_person(campaign_id, user_id, "scene.ping", html=html)
