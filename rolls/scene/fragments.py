"""The scene's parts as the table shows and pushes them: the board (the scene, its areas and
figures), the round, the cards and the handout, each drawn once per audience; the cards and the
handout also once for each player who sees a card beyond everyone's (``live.publish``'s
``people``), so a card shown to one player reaches that player's sockets alone.

Every part is numbered with the table's other events, and ``scene_state`` draws them all for
a page coming back, so a page that was away catches up whatever it missed."""

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign, Membership
from campaigns.selectors import table_language
from fudgetable import live
from fudgetable.rules import areas as area_rules
from fudgetable.rules.rulesets import Ruleset
from rolls.scene import selectors as read
from rolls.scene.card_fragments import CardsContext, cards_context, cards_html
from rolls.scene.models import Area, Card, Figure, Scene

TEMPLATE = "rolls/scene/scene.html"
PARTS = ("board", "round", "cards", "handout")
PHASE_WORDS = {
    area_rules.Phase.MELEE: _("Melee phase"),
    area_rules.Phase.RANGED: _("Ranged phase"),
    area_rules.Phase.OTHER: _("Other actions"),
    area_rules.Phase.WOUNDS: _("Wounds"),
}
PERSONAL = ("cards", "handout")  # the parts a player may see more of than everyone


@dataclass
class Frames:
    """One push of the scene: what GMs get, what everyone else gets (None: nothing), and what
    each player who sees more gets instead of everyone's."""

    gm: str = ""
    everyone: str | None = ""
    people: dict[int, str] = field(default_factory=dict)

    def publish(self, campaign_id: int, event: str) -> None:
        if self.people and not self.everyone:
            # Some players alone see a change (a card shown to them): the rest get nothing, not
            # even a number, and those players get it in their own count, as a whisper.
            live.publish(campaign_id, event, everyone=None, gm=self.gm)
            live.publish_to_people(campaign_id, event, people=self.people)
            return
        live.publish(
            campaign_id, event, everyone=self.everyone, gm=self.gm, people=self.people or None
        )


def _base(campaign: Campaign, *, gm_view: bool, oob: bool) -> dict[str, object]:
    return {"campaign": campaign, "gm_view": gm_view, "oob": oob}


def board_html(
    campaign: Campaign, *, gm_view: bool, oob: bool = True, request: HttpRequest | None = None
) -> str:
    board = read.board(campaign, gm_view=gm_view)
    context = {**_base(campaign, gm_view=gm_view, oob=oob), "board": board}
    if gm_view and board.scene is not None:
        context["override"] = True
    return render_to_string(f"{TEMPLATE}#board", context, request=request)


def round_html(campaign: Campaign, scene: Scene | None, *, gm_view: bool, oob: bool = True) -> str:
    rolled = []
    if scene is not None and scene.round:
        counts = {int(pk): count for pk, count in scene.rolled.items()}
        figures = Figure.objects.filter(scene=scene, character_id__in=list(counts))
        for figure in figures.select_related("character").only(*read.FIGURE_FIELDS):
            if gm_view or read.shown_to_players(figure):
                rolled.append((figure.character.name, counts[figure.character_id]))
    context = {
        **_base(campaign, gm_view=gm_view, oob=oob),
        "scene": scene,
        "phases": [(str(phase), PHASE_WORDS[phase]) for phase in area_rules.PHASES],
        "rolled": sorted(rolled),
    }
    return render_to_string(f"{TEMPLATE}#round", context)


def handout_html(
    campaign: Campaign, scene: Scene | None, user_id: int, *, gm_view: bool, oob: bool = True
) -> str:
    """The card on every screen at once, for those who may see it (``user_id`` 0: everyone
    else, who see it only if it is shown to all)."""
    card = scene.handout if scene is not None and scene.handout_id else None
    if card is not None and not gm_view:
        seen = card.seen_by(user_id, gm=False) if user_id else card.shown == Card.Shown.EVERYONE
        card = card if seen else None
    context = {**_base(campaign, gm_view=gm_view, oob=oob), "card": card, "scene": scene}
    return render_to_string(f"{TEMPLATE}#handout", context)


def tool_html(campaign: Campaign, *, oob: bool = True, request: HttpRequest | None = None) -> str:
    """The GMs' scene tool: switching scenes, bringing figures in, a new card."""
    scene = read.current_scene(campaign.pk)
    present = set(Figure.objects.filter(scene=scene).values_list("character_id", flat=True))
    context = {
        "campaign": campaign,
        "oob": oob,
        "scene": scene,
        "scenes": list(Scene.objects.filter(campaign=campaign).only("title", "current")),
        "absent": [c for c in campaign.characters.order_by("kind", "name") if c.pk not in present],
        "areas": read.visible_areas(scene, gm_view=True) if scene else [],
        "shown_choices": Card.Shown.choices,
    }
    return render_to_string(f"{TEMPLATE}#tool", context, request=request)


def _drawn(
    campaign: Campaign,
    scene: Scene | None,
    part: str,
    user_id: int,
    *,
    gm_view: bool,
    shared: CardsContext | None,
) -> str:
    if part == "board":
        return board_html(campaign, gm_view=gm_view)
    if part == "round":
        return round_html(campaign, scene, gm_view=gm_view)
    if part == "cards":
        assert shared is not None
        return cards_html(campaign, shared, user_id, gm_view=gm_view)
    return handout_html(campaign, scene, user_id, gm_view=gm_view)


def scene_frames(
    campaign: Campaign, parts: Iterable[str] = PARTS, *, players: bool = True, tool: bool = False
) -> Frames:
    """The scene's ``parts`` for a push: each drawn once for GMs and once for everyone else,
    and the personal parts once more for each player who sees a card beyond everyone's.
    ``players=False``: a change only GMs see; ``tool``: the GMs' scene tool goes too."""
    parts = tuple(parts)
    scene = read.current_scene(campaign.pk)
    shared = cards_context(campaign, scene) if set(parts) & set(PERSONAL) else None
    frames = Frames()
    frames.gm = "".join(
        _drawn(campaign, scene, part, 0, gm_view=True, shared=shared) for part in parts
    )
    if tool:
        frames.gm += tool_html(campaign)
    if not players:
        frames.everyone = None
        return frames
    everyone = {
        part: _drawn(campaign, scene, part, 0, gm_view=False, shared=shared) for part in parts
    }
    frames.everyone = "".join(everyone.values())
    personal = [part for part in parts if part in PERSONAL]
    if shared is not None and personal:
        for user_id in read.people_with_own_cards(shared.cards) - shared.gm_ids:
            mine = {
                part: _drawn(campaign, scene, part, user_id, gm_view=False, shared=shared)
                for part in personal
            }
            frames.people[user_id] = "".join(mine.get(part, everyone[part]) for part in parts)
    return frames


def publish_scene(
    campaign: Campaign,
    event: str,
    parts: Iterable[str] = PARTS,
    *,
    players: bool = True,
    tool: bool = False,
) -> None:
    with table_language(campaign):
        frames = scene_frames(campaign, parts, players=players, tool=tool)
    frames.publish(campaign.pk, event)


def publish_areas(
    campaign: Campaign, area_ids: Collection[int], event: str, *, players: bool, ruleset: Ruleset
) -> None:
    """The boxes of a few areas (a figure's move: where it left and where it went), read once
    and drawn for each audience that sees them: the players get the ones not hidden from
    them, and nothing when the change is not theirs to see (``players``: a figure they see)."""
    areas = list(Area.objects.filter(pk__in=area_ids))
    figures = Figure.objects.filter(area_id__in=area_ids).select_related("character")
    views = {area.pk: read.AreaView(area) for area in areas}
    for figure in figures.only("area_id", *read.FIGURE_FIELDS):
        views[figure.area_id or 0].figures.append(read.figure_view(figure, ruleset))
    drawn = {}
    for audience in live.AUDIENCES:
        gm_view = audience == "gm"
        seen = [
            read.AreaView(view.area, [f for f in view.figures if gm_view or f.shown])
            for view in views.values()
            if gm_view or (players and not view.area.hidden)
        ]
        context = {**_base(campaign, gm_view=gm_view, oob=True), "views": seen}
        with table_language(campaign):
            drawn[audience] = render_to_string(f"{TEMPLATE}#areas", context) if seen else None
    live.publish(campaign.pk, event, everyone=drawn["everyone"], gm=drawn["gm"])


def publish_move(
    campaign: Campaign,
    figure: Figure,
    left: Area,
    into: Area,
    *,
    players: bool,
    ruleset: Ruleset,
) -> None:
    """A figure's move between two areas: its token drawn once for each audience that sees
    it, taken out of the box it left and added at the end of the box it entered. Drawing both
    boxes again, every figure in them, was most of a move's cost (docs/performance.md). The
    players are sent each part only where they see that box (``players``: they see the
    figure), since htmx calls a missing target an error."""
    view = read.figure_view(figure, ruleset)
    drawn: dict[str, str | None] = {}
    for audience in live.AUDIENCES:
        gm_view = audience == "gm"
        sees = gm_view or players
        saw = sees and (gm_view or not left.hidden)
        there = sees and (gm_view or not into.hidden)
        context = {
            **_base(campaign, gm_view=gm_view, oob=True),
            "f": view,
            "left": saw,
            "into": into if there else None,
        }
        drawn[audience] = (
            render_to_string(f"{TEMPLATE}#figure-moved", context) if saw or there else None
        )
    live.publish(campaign.pk, "figure.moved", everyone=drawn["everyone"], gm=drawn["gm"])


def scene_parts(
    membership: Membership, *, oob: bool = True, request: HttpRequest | None = None
) -> dict[str, str]:
    """The whole scene as this person sees it, part by part: for the table page, which puts
    each in its place, and for a page that comes back (``scene_state``)."""
    campaign = membership.campaign
    gm_view = membership.is_gm
    scene = read.current_scene(campaign.pk)
    user_id = membership.user_id
    parts = {
        "board": board_html(campaign, gm_view=gm_view, oob=oob, request=request),
        "round": round_html(campaign, scene, gm_view=gm_view, oob=oob),
        "cards": cards_html(
            campaign,
            cards_context(campaign, scene),
            user_id,
            gm_view=gm_view,
            oob=oob,
            request=request,
        ),
        "handout": handout_html(campaign, scene, user_id, gm_view=gm_view, oob=oob),
    }
    if gm_view:
        parts["tool"] = tool_html(campaign, oob=oob, request=request)
    return parts


def scene_state(membership: Membership) -> str:
    """What ``table_state`` sends of the scene: every part, to be swapped in by id."""
    return "".join(scene_parts(membership).values())
