"""Reads of the scene, shaped for whoever looks: GMs see it all; everyone else (players and
observers) never gets a hidden area, an NPC they have not met, or a card not shown to them,
not even as an id (``fragments`` draws only what these give)."""

from collections.abc import Iterable
from dataclasses import dataclass, field

from django.db.models import QuerySet
from django.utils.translation import gettext as _

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.models import Character
from characters.selectors import track_views
from fudgetable.rules import areas as area_rules
from fudgetable.rules.rulesets import Ruleset
from rolls.scene.models import Area, Card, Figure, Scene

# What a figure's character brings along: no sheet beyond its tracks is read for the board.
FIGURE_FIELDS = (
    "character__name",
    "character__kind",
    "character__owner_id",
    "character__revealed",
    "character__tracks",
    "character__npc_boxes",
    "character__fudge_points",
)


def current_scene(campaign_id: int) -> Scene | None:
    return Scene.objects.filter(campaign_id=campaign_id, current=True).first()


def shown_to_players(figure: Figure) -> bool:
    """A PC, or an NPC the players have met."""
    character = figure.character
    return not character.is_npc or character.revealed


def on_players_board(figure: Figure) -> bool:
    """Whether the players' board shows the figure: one they see, standing in an area they
    see (a figure not placed yet is on the GMs' list alone). Pings, attacks and pushes ask
    this one rule."""
    area = figure.area
    return shown_to_players(figure) and area is not None and not area.hidden


@dataclass(frozen=True)
class FigureView:
    figure: Figure
    limit: area_rules.Movement
    shown: bool  # the players see it (a GM's board marks the ones they do not)
    state: str = ""  # the worst wound or condition in force, in its track's words ("Hurt")

    @property
    def initials(self) -> str:
        """What the token shows: the first letters of the name's first two words, and the
        number a mook's name ends in ("Goblin Archer 12": "GA12"), so that copies of one NPC
        (``characters.npc_duplicate`` numbers them) are told apart at a glance. The number
        is the character's own, the same on every screen and in every box pushed alone."""
        words = self.figure.character.name.split()
        number = ""
        if len(words) > 1 and words[-1].isascii() and words[-1].isdigit():
            number = words.pop()
        return "".join(word[0] for word in words[:2]).upper() + number

    @property
    def colour(self) -> int:
        """The token's colour, one of eight, the same for every PC of one player (and on
        every screen); NPCs have none (0)."""
        owner = self.figure.character.owner_id
        return 0 if owner is None else 1 + owner % 8

    @property
    def down(self) -> bool:
        """Out of the fight (Out of It or worse): the token is drawn knocked over."""
        return self.limit == area_rules.Movement.STAYS


def wound_words(character: Character, ruleset: Ruleset) -> str:
    """The worst wound or condition the character is in, in its track's own words: the deepest
    level marked on a wound track ("Very Hurt": EZFudge's "only the highest one takes
    effect"), a condition track (an NPC's boxes, Fate's consequences) by its conditions' names,
    its consequence once full ("Incapacitated"), or how full it is ("Condition 2/4"). Of
    several tracks, the one with a consequence in force, then the heaviest penalty; "" when
    unhurt."""
    worst, severity = "", (False, 0)
    for _template, view in track_views(character, ruleset):
        if not view.marked:
            continue
        if not view.marking:
            rows = [name for name, _note, boxes in view.rows if any(m != "clear" for _, m in boxes)]
            words = rows[-1]
        else:
            named = [name for name in view.names if name]
            full = view.consequence or f"{view.name} {view.marked}/{view.size}"
            words = ", ".join(named) if named else full
        this = (bool(view.consequence), -view.penalty)
        if not worst or this > severity:
            worst, severity = words, this
    return worst


@dataclass
class AreaView:
    area: Area
    figures: list[FigureView] = field(default_factory=list)


@dataclass(frozen=True)
class RangeRow:
    first: str
    second: str
    range: area_rules.Range
    set: bool


@dataclass
class Board:
    scene: Scene | None
    gm_view: bool
    areas: list[AreaView] = field(default_factory=list)
    unplaced: list[FigureView] = field(default_factory=list)  # GMs only
    ranges: list[RangeRow] = field(default_factory=list)
    scale: tuple[area_rules.Range, ...] = ()
    party_waiting: bool = False  # GMs only: a PC is not placed yet ("Everyone here" shows)


def party_waiting(scene: Scene) -> bool:
    """Whether a PC of the campaign is not placed in the scene yet (not in it, or in it with
    no area): the GM's "Everyone here" has someone to bring."""
    placed = Figure.objects.filter(scene=scene, area__isnull=False).values("character_id")
    return (
        Character.objects.filter(campaign_id=scene.campaign_id, kind=Character.Kind.PC)
        .exclude(pk__in=placed)
        .exists()
    )


def _figures(scene: Scene) -> QuerySet[Figure]:
    return (
        Figure.objects.filter(scene=scene)
        .select_related("character")
        .only("area_id", *FIGURE_FIELDS)
    )


def figure_view(figure: Figure, ruleset: Ruleset) -> FigureView:
    character = figure.character
    limit = area_rules.sheet_movement(
        ruleset, tracks_state=character.tracks or {}, npc_boxes=character.npc_boxes
    )
    return FigureView(figure, limit, shown_to_players(figure), wound_words(character, ruleset))


def visible_areas(scene: Scene, *, gm_view: bool) -> list[Area]:
    found = Area.objects.filter(scene=scene)
    return list(found if gm_view else found.filter(hidden=False))


def area_views(
    scene: Scene, *, gm_view: bool, only: Iterable[int] | None = None, ruleset: Ruleset
) -> list[AreaView]:
    """The areas this audience sees (``only``: those of these ids) with the figures it sees
    standing in each."""
    areas = visible_areas(scene, gm_view=gm_view)
    if only is not None:
        wanted = set(only)
        areas = [area for area in areas if area.pk in wanted]
    views = {area.pk: AreaView(area) for area in areas}
    figures = _figures(scene).filter(area_id__in=list(views))
    for figure in figures:
        shown = figure_view(figure, ruleset)
        if gm_view or shown.shown:
            views[figure.area_id or 0].figures.append(shown)
    return list(views.values())


def board(campaign: Campaign, *, gm_view: bool, scene: Scene | None = None) -> Board:
    """The current scene (or ``scene``, a GM's preview) as this audience sees it."""
    scene = scene or current_scene(campaign.pk)
    if scene is None:
        return Board(None, gm_view)
    ruleset = campaign_ruleset(campaign)
    views = area_views(scene, gm_view=gm_view, ruleset=ruleset)
    unplaced = []
    if gm_view:
        unplaced = [figure_view(f, ruleset) for f in _figures(scene).filter(area__isnull=True)]
    scale = area_rules.ranges_for(ruleset.key)
    return Board(
        scene,
        gm_view,
        views,
        unplaced,
        range_rows(scene, [view.area for view in views], scale),
        scale,
        gm_view and party_waiting(scene),
    )


def range_rows(
    scene: Scene, areas: list[Area], scale: tuple[area_rules.Range, ...]
) -> list[RangeRow]:
    """Every pair of these areas with the range between them."""
    rows = []
    for at, first in enumerate(areas):
        for second in areas[at + 1 :]:
            found, chosen = area_rules.range_between(scale, scene.ranges, first.pk, second.pk)
            rows.append(RangeRow(first.name, second.name, found, chosen))
    return rows


def cards_for(
    scene: Scene | None, user_id: int, *, gm_view: bool, cards: list[Card] | None = None
) -> list[Card]:
    """The scene's cards this person sees, oldest first."""
    if scene is None:
        return []
    if cards is None:
        cards = list(
            Card.objects.filter(scene=scene)
            .select_related("area", "author", "picture")
            .defer("picture__data")
        )
    return [card for card in cards if card.seen_by(user_id, gm=gm_view)]


def everyones_cards(cards: list[Card]) -> list[Card]:
    """The cards every player sees (those shown to everyone)."""
    return [card for card in cards if card.shown == Card.Shown.EVERYONE]


def people_with_own_cards(cards: list[Card]) -> set[int]:
    """The players who see a card beyond everyone's: shown to them, or written by them."""
    people: set[int] = set()
    for card in cards:
        if card.shown == Card.Shown.SOME:
            people.update(int(pk) for pk in card.people)
        elif card.shown == Card.Shown.GM and card.author_id is not None:
            people.add(card.author_id)
    return people


@dataclass(frozen=True)
class ShotFromAreas:
    range: str  # the shot helper's range (``rules.ranged.RANGES``)
    target_area: Area
    words: str  # "Road to Far bank: Long (L)"


def shot_from_areas(campaign: Campaign, shooter_id: int, target_id: int) -> ShotFromAreas | None:
    """What a shot takes from the scene the table sees: the range between the shooter's and
    the target's areas, and the target's area (its light and cover). None: either stands in
    no area of it."""
    scene = current_scene(campaign.pk)
    if scene is None:
        return None
    standing = dict(
        Figure.objects.filter(
            scene=scene, character_id__in=(shooter_id, target_id), area__isnull=False
        ).values_list("character_id", "area_id")
    )
    if shooter_id not in standing or target_id not in standing:
        return None
    areas = {area.pk: area for area in Area.objects.filter(pk__in=standing.values())}
    first, second = areas[standing[shooter_id]], areas[standing[target_id]]
    scale = area_rules.ranges_for(campaign_ruleset(campaign).key)
    found = area_rules.range_between(scale, scene.ranges, first.pk, second.pk)[0]
    # An area hidden from the players is not named: the shot's entry may be everyone's.
    if first.hidden or second.hidden:
        return ShotFromAreas(found.shot, second, found.name)
    where = first.name
    if first.pk != second.pk:
        where = _("%(first)s to %(second)s") % {"first": first.name, "second": second.name}
    return ShotFromAreas(found.shot, second, f"{where}: {found.name}")
