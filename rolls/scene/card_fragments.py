"""The scene's cards as each person sees them: the whole list (the table page, a page coming
back), and one card's change pushed alone (shown, hidden, pinned, added, removed).

A change to one card draws that card once for the GMs and at most twice for the players (as
everyone sees it, and as a player it is shown to sees it), whatever the table's size: each
screen gets it replaced in place, added to its list, or taken off, by what it showed before
and what it may see now. A player to whom the card is not shown gets the table's number and
nothing else."""

from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from rolls.scene import selectors as read
from rolls.scene.ids import shown_id
from rolls.scene.models import Area, Card, Scene

TEMPLATE = "rolls/scene/scene.html"


@dataclass
class CardsContext:
    """What drawing cards needs, read once for every audience and person of a push."""

    scene: Scene | None
    cards: list[Card]
    people: list[Membership]  # whom a card may be shown to
    gm_ids: set[int]
    areas: list[Area]  # every area of the scene: the GMs pin to any

    def areas_for(self, *, gm_view: bool) -> list[Area]:
        return self.areas if gm_view else [area for area in self.areas if not area.hidden]


def cards_context(campaign: Campaign, scene: Scene | None, *, cards: bool = True) -> CardsContext:
    if scene is None:
        return CardsContext(None, [], [], set(), [])
    members = list(Membership.objects.filter(campaign=campaign).select_related("user"))
    members.sort(key=lambda member: member.user.get_username())
    found = (
        list(
            Card.objects.filter(scene=scene)
            .select_related("area", "picture")
            .defer("picture__data")
        )
        if cards
        else []
    )
    return CardsContext(
        scene,
        found,
        [member for member in members if not member.is_gm],
        {member.user_id for member in members if member.is_gm},
        list(Area.objects.filter(scene=scene)),
    )


def _context(campaign: Campaign, shared: CardsContext, *, gm_view: bool) -> dict[str, object]:
    return {
        "campaign": campaign,
        "gm_view": gm_view,
        "scene": shared.scene,
        "people": shared.people if gm_view else [],
        "areas": shared.areas_for(gm_view=gm_view),
        "shown_choices": Card.Shown.choices,
    }


def cards_html(
    campaign: Campaign,
    shared: CardsContext,
    user_id: int,
    *,
    gm_view: bool,
    oob: bool = True,
    request: HttpRequest | None = None,
) -> str:
    """The cards ``user_id`` sees (0: everyone's, those shown to all)."""
    if gm_view:
        cards = shared.cards
    elif user_id:
        cards = read.cards_for(shared.scene, user_id, gm_view=False, cards=shared.cards)
    else:
        cards = read.everyones_cards(shared.cards)
    context = {**_context(campaign, shared, gm_view=gm_view), "cards": cards, "oob": oob}
    return render_to_string(f"{TEMPLATE}#cards", context, request=request)


@dataclass(frozen=True)
class Seen:
    """Who saw a card: everyone, and the players who saw it beyond everyone."""

    everyone: bool
    people: frozenset[int]

    @classmethod
    def of(cls, card: Card | None) -> "Seen":
        if card is None:
            return cls(False, frozenset())
        if card.shown == Card.Shown.SOME:
            return cls(False, frozenset(int(pk) for pk in card.people))
        author = {card.author_id} if card.author_id and card.shown == Card.Shown.GM else set()
        return cls(card.shown == Card.Shown.EVERYONE, frozenset(author))

    def sees(self, user_id: int) -> bool:
        return self.everyone or user_id in self.people


def card_change(
    campaign: Campaign,
    card: Card,
    before: Seen,
    after: Seen,
    shared: CardsContext,
    *,
    added: bool = False,
    removed: bool = False,
) -> tuple[str, str, dict[int, str]]:
    """One card's change for each screen: the GMs', everyone's, and that of each player who
    sees it otherwise than everyone. Each gets it replaced in place, added at the end of its
    list, or taken off, by what it saw ``before`` and sees ``after``."""
    drawn: dict[bool, str] = {}
    card_id = shown_id(card)

    def change(saw: bool, sees: bool, *, gm_view: bool = False) -> str:
        if not sees:
            return f'<li id="card-{card_id}" hx-swap-oob="delete"></li>' if saw else ""
        if gm_view not in drawn:  # a player's copy is the same for every player who sees it
            context = {**_context(campaign, shared, gm_view=gm_view), "card": card}
            drawn[gm_view] = render_to_string(f"{TEMPLATE}#card", context)
        if not saw:
            return f'<ul id="scene-card-list" hx-swap-oob="beforeend">{drawn[gm_view]}</ul>'
        opening = f'<li id="card-{card_id}"'
        return drawn[gm_view].replace(opening, f'{opening} hx-swap-oob="true"', 1)

    gm = change(not added, not removed, gm_view=True)
    everyone = change(before.everyone, after.everyone)
    people = {}
    for user_id in (before.people | after.people) - shared.gm_ids:
        mine = change(before.sees(user_id), after.sees(user_id))
        if mine != everyone:
            people[user_id] = mine
    return gm, everyone, people
