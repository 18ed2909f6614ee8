"""Who stands where, and the fight's rounds: a figure moved to another area (a player their
own PC, a GM anyone), within the movement limits the rules give its wounds unless a GM
overrides them; rounds counted through EZFudge's phases; and the rolls each figure made in
the phase, "only one die roll per phase".

A move names where the page showed the figure standing, so a tap sent twice (or over HTTP
after its socket dropped) moves it once, and a move from a stale page is refused in words."""

from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from fudgetable.rules import areas as area_rules
from fudgetable.rules.errors import RulesError
from rolls.models import Roll
from rolls.scene.fragments import publish_move, publish_scene
from rolls.scene.models import Area, Figure, Scene
from rolls.scene.selectors import current_scene, shown_to_players
from rolls.scene.signals import round_moved

LIMIT_WORDS = {
    area_rules.Movement.STAYS: _(
        "%(name)s cannot leave the area on their own (Out of It or worse)"
    ),
    area_rules.Movement.ONE_AREA: _(
        "%(name)s moves at most 1 area a round (Very Hurt or worse), and has moved"
    ),
}


def may_move(membership: Membership, figure: Figure) -> bool:
    """A GM moves anyone; a player their own PCs; an observer nobody."""
    if membership.is_gm:
        return True
    character = figure.character
    return (
        membership.role == Membership.Role.PLAYER
        and not character.is_npc
        and character.owner_id == membership.user_id
    )


@transaction.atomic
def figure_move(
    *,
    membership: Membership,
    figure_id: int,
    area_id: int,
    seen_in: int | None = None,
    override: bool = False,
) -> Figure:
    """Moves a figure of the scene the table sees into another of its areas. ``seen_in``: the
    area the mover's page showed it in (0: not placed), so a move already made is not made
    twice. ``override``: a GM's, past the movement limits (carried, dragged). A figure or an
    area a player may not see is one that does not exist (``DoesNotExist``)."""
    campaign = membership.campaign
    figure = (
        Figure.objects.select_for_update(of=("self",))
        .select_related("character", "scene", "area")
        .get(pk=figure_id, scene__campaign_id=campaign.pk, scene__current=True)
    )
    if not (membership.is_gm or shown_to_players(figure)):
        raise Figure.DoesNotExist
    area = Area.objects.get(pk=area_id, scene_id=figure.scene_id)
    if area.hidden and not membership.is_gm:
        raise Area.DoesNotExist
    scene, character = figure.scene, figure.character
    if not may_move(membership, figure):
        raise RulesError("figure", _("you may move only your own character"))
    if figure.area_id == area.pk:
        return figure  # already there: the same move, sent again
    if seen_in is not None and (figure.area_id or 0) != seen_in:
        raise RulesError(
            "figure", _("%(name)s was moved meanwhile: look again") % {"name": character.name}
        )
    shown = shown_to_players(figure)
    if area.hidden and shown:
        raise RulesError(
            "area",
            _("the players see %(name)s, and that area is hidden from them")
            % {"name": character.name},
        )
    in_round = scene.round > 0
    ruleset = campaign_ruleset(campaign)
    if figure.area_id is not None and not (override and membership.is_gm):
        limit = area_rules.sheet_movement(
            ruleset, tracks_state=character.tracks or {}, npc_boxes=character.npc_boxes
        )
        try:
            area_rules.check_move(limit, in_round=in_round, moved=figure.moved, name=character.name)
        except RulesError as error:
            refusal = LIMIT_WORDS[limit] % {"name": character.name}
            hint = _(" (a GM may move them past it)") if membership.is_gm else ""
            raise RulesError(error.setting, refusal + hint) from error
    left = figure.area
    figure.area = area
    if in_round and left is not None:
        figure.moved += 1
    figure.save(update_fields=["area", "moved"])
    if left is None:  # it leaves the GMs' list of figures not placed yet: their board again
        publish_scene(campaign, "scene.figure", parts=("board",), players=shown)
    else:
        publish_move(campaign, figure, left, area, players=shown, ruleset=ruleset)
    return figure


PHASES = {phase.value: phase for phase in area_rules.PHASES}


def _locked(scene: Scene) -> Scene:
    return Scene.objects.select_for_update(of=("self",)).select_related("campaign").get(pk=scene.pk)


@transaction.atomic
def round_step(*, scene: Scene, step: str, at: str = "") -> Scene:
    """``start`` a fight (round 1, the melee phase), go to the ``next`` phase, or ``end`` it.
    ``at`` is the round and phase the GM's page showed ("2-ranged"): a tap sent twice steps
    once."""
    scene = _locked(scene)
    if not scene.current:
        raise RulesError("scene", _("only the scene the table sees has rounds"))
    if at and at != f"{scene.round}-{scene.phase}":
        return scene  # the page's step was taken already
    new_round = False
    if step == "start":
        if scene.round:
            raise RulesError("round", _("a fight is already running"))
        scene.round, scene.phase, new_round = 1, area_rules.Phase.MELEE.value, True
    elif step == "next":
        number, phase = area_rules.next_phase(
            scene.round, PHASES.get(scene.phase, area_rules.Phase.MELEE)
        )
        new_round = number != scene.round
        scene.round, scene.phase = number, phase.value
    elif step == "end":
        if not scene.round:
            raise RulesError("round", _("no fight is running"))
        scene.round, scene.phase, new_round = 0, "", True
    else:
        raise RulesError("step", _("start, next or end"))
    scene.rolled = {}
    scene.save(update_fields=["round", "phase", "rolled"])
    if new_round:
        Figure.objects.filter(scene=scene).update(moved=0)
    publish_scene(scene.campaign, "scene.round", parts=("round",))
    round_moved.send(sender=Scene, campaign=scene.campaign)
    return scene


def note_roll(roll: Roll) -> None:
    """Counts a roll against the figures that made it, in the phase of the fight running in
    the table's scene: a roll's character and every side of an exchange that rolled. Called
    as the roll is written, in its transaction."""
    characters = {side.get("character") for side in roll.snapshot.get("sides", [])}
    characters.add(roll.character_id)
    characters.discard(None)
    # A secret roll is the GMs' business: counting it would tell the players it was made.
    if not characters or not roll.is_roll or roll.secret:
        return
    scene = current_scene(roll.campaign_id)
    if scene is None or not scene.round:
        return
    rolling = list(
        Figure.objects.filter(scene=scene, character_id__in=characters).select_related("character")
    )
    counted = {str(figure.character_id) for figure in rolling}
    if not counted:
        return
    # The players' round lists only the figures they see: a hidden NPC's count is not theirs.
    seen = any(shown_to_players(figure) for figure in rolling)
    with transaction.atomic():
        scene = _locked(scene)
        rolled = dict(scene.rolled)
        for pk in counted:
            rolled[pk] = rolled.get(pk, 0) + 1
        scene.rolled = rolled
        scene.save(update_fields=["rolled"])
        publish_scene(scene.campaign, "scene.rolled", parts=("round",), players=seen)
