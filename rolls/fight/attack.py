"""An attack from the board (issue #39): a fighter's player (or a GM) picks a weapon and taps a
target's figure; everything else is read from the scene and the sheets, and the same exchange
or shot the GM's fight panel rolls is rolled (``fight_exchange``, ``ranged_exchange``), its
wound proposed for the GM to confirm in one tap as ever.

What the board decides (``fudgetable.rules.attack``): melee or a shot from the round's phase
and the two figures' areas; the range, light and cover of a shot from the areas
(``shot_from_areas``); each side's trait, unless the attacker picked one; the defender's
weapon in melee (the first of theirs used in melee, else bare hands). A PC another player
plays answers for themselves: the attack is declared and waits for their tap
(``rolls.fight.defend``), in which a shot's target may evade. An NPC defends as the campaign's
NPC roll mode says, at once, inside the rules' own ``fight``, and a shot's target answering at
once does not evade (the GM's panel rolls an evading target). One roll each phase: a player
whose PC has rolled in this phase is refused; a GM, who may rule otherwise, is not.

Who sees what: a player attacks with their own PC only, and never names a figure they do not
see (no such figure, as a wrong id: ``NotSeen``)."""

from dataclasses import dataclass

from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear, Trait
from characters.selectors import rules_sheet, weapon_of
from fudgetable.rules import attack as rules
from fudgetable.rules import fight as fight_rules
from fudgetable.rules import ranged
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ranged import shot_inj
from rolls.fight.defend import attack_declare, declared_with, waits_for_defender
from rolls.fight.defend_selectors import first_melee_weapon
from rolls.fight.exchange import Announced, fight_exchange, may_attack_with
from rolls.fight.models import DeclaredAttack
from rolls.fight.proposed import proposed_trait
from rolls.fight.ranged import ranged_exchange
from rolls.models import Roll
from rolls.scene.models import Figure, Scene
from rolls.scene.selectors import current_scene, on_players_board, shot_from_areas
from rolls.services import existing_roll

DEFAULT = ""  # the trait the rules propose for the weapon
UNTRAINED = "untrained"


class NotSeen(Exception):
    """No figure of the scene shown by that id, as this person sees it: a 404."""


@dataclass(frozen=True)
class Arm:
    """A weapon offered on the attack form, with the trait proposed for it."""

    gear: Gear | None  # None: bare hands
    label: str
    trait: Trait | None


@dataclass(frozen=True)
class Arms:
    """What a fighter may attack with: in reach (melee) and at range (shot or thrown)."""

    character: Character
    figure: Figure
    reach: list[Arm]
    range: list[Arm]
    traits: list[Trait]
    phase: str  # the round's phase, "" with no round running


def seen_figure(membership: Membership, scene: Scene, figure_id: int) -> Figure:
    """A figure of the scene shown, placed, that this person sees (a GM all of them)."""
    figure = (
        Figure.objects.filter(scene=scene, pk=figure_id).select_related("character", "area").first()
    )
    if figure is None:
        raise NotSeen
    if membership.is_gm:
        return figure
    if not on_players_board(figure):
        raise NotSeen
    return figure


def _scene(membership: Membership) -> Scene:
    scene = current_scene(membership.campaign_id)
    if scene is None:
        raise NotSeen
    return scene


def attacker_of(membership: Membership, figure_id: int) -> tuple[Scene, Figure]:
    """The scene shown and the attacker's figure: one this person sees (else ``NotSeen``) and
    may attack with (else ``PermissionDenied``: a player's PC is theirs alone)."""
    scene = _scene(membership)
    figure = seen_figure(membership, scene, figure_id)
    if not may_attack_with(membership, figure.character):
        raise PermissionDenied
    return scene, figure


def arms_of(membership: Membership, figure_id: int) -> Arms:
    """What the attack form offers for this figure: its weapons for reach and range, each with
    the trait proposed for it, and all its traits to pick another."""
    scene, figure = attacker_of(membership, figure_id)
    character = Character.objects.prefetch_related("traits", "features", "gear").get(
        pk=figure.character_id
    )
    traits = list(character.traits.all())
    weapons = [g for g in character.gear.all() if g.kind == Gear.Kind.WEAPON]
    sheet = rules_sheet(character)
    bare = Arm(None, _("Bare hands"), proposed_trait(traits, None, rules.Kind.MELEE))
    reach = [bare] + [
        Arm(g, g.name, proposed_trait(traits, g, rules.Kind.MELEE)) for g in weapons if not g.ranged
    ]
    shot = [
        Arm(
            g,
            _("%(name)s (INJ %(inj)s)") % {"name": g.name, "inj": shot_inj(sheet, weapon_of(g))},
            proposed_trait(traits, g, rules.Kind.RANGED),
        )
        for g in weapons
        if g.ranged
    ]
    if len(reach) > 1:
        reach = reach[1:] + reach[:1]  # a weapon first; bare hands last
    return Arms(character, figure, reach, shot, traits, scene.phase if scene.round else "")


def _refused(why: rules.Refusal, attacker: Character, target: Character) -> RulesError:
    if why == rules.Refusal.OUT_OF_REACH:
        words = _(
            "it is the melee phase, and %(target)s is not in %(attacker)s's area: move there to "
            "fight, or shoot in the ranged phase"
        )
    else:
        words = _("this phase of the round has no attacks: the GM moves the round on")
    return RulesError("target", words % {"attacker": attacker.name, "target": target.name})


def _weapon(character: Character, weapon_id: int | None, kind: rules.Kind) -> Gear | None:
    if weapon_id is None:
        if kind == rules.Kind.RANGED:
            raise RulesError(
                "weapon",
                _(
                    "%(name)s has no weapon shot or thrown to pick: a target beyond the area "
                    "is out of reach"
                )
                % {"name": character.name},
            )
        return None
    gear = character.gear.filter(pk=weapon_id, kind=Gear.Kind.WEAPON).first()
    if gear is None:
        raise RulesError(
            "weapon", _("that is not one of %(name)s's weapons") % {"name": character.name}
        )
    if gear.ranged != (kind == rules.Kind.RANGED):
        words = (
            _("%(weapon)s is shot or thrown: in reach, pick a weapon for melee")
            if gear.ranged
            else _("%(weapon)s is a weapon for melee: pick one shot or thrown")
        )
        raise RulesError("weapon", words % {"weapon": gear.name})
    return gear


def _trait(character: Character, chosen: str, gear: Gear | None, kind: rules.Kind) -> Trait | None:
    if chosen == UNTRAINED:
        return None
    traits = list(character.traits.all())
    if chosen == DEFAULT:
        return proposed_trait(traits, gear, kind)
    found = next((t for t in traits if str(t.pk) == chosen), None)
    if found is None:
        raise RulesError(
            "trait", _("that is not a trait on %(name)s's sheet") % {"name": character.name}
        )
    return found


def _one_roll_each_phase(membership: Membership, scene: Scene, character: Character) -> None:
    if membership.is_gm or not scene.round or not scene.rolled.get(str(character.pk)):
        return
    raise RulesError(
        "attacker",
        _("%(name)s has rolled in this phase already: one roll each phase")
        % {"name": character.name},
    )


def board_attack(
    *,
    membership: Membership,
    attacker_figure: int,
    target_figure: int,
    reach_weapon: int | None,
    range_weapon: int | None,
    trait: str = DEFAULT,
    tactic: fight_rules.Tactic = fight_rules.Tactic.NONE,
    stun: bool = False,
    key: str,
) -> Roll | DeclaredAttack:
    """Rolls the attack the board's taps make, as the GM's panel would roll it, or, on a PC
    another player plays, declares it to wait for their defence (``rolls.fight.defend``). The
    weapon used is ``reach_weapon`` (None: bare hands) in melee and ``range_weapon`` for a
    shot: the form sends both, as the kind is known only once the target is tapped."""
    if campaign_ruleset(membership.campaign).wound_track is None:
        raise RulesError("wound_track", _("this campaign's rules have no wound track to fight on"))
    scene, shooter_figure = attacker_of(membership, attacker_figure)
    target_fig = seen_figure(membership, scene, target_figure)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing  # the same taps sent again (a socket's retry over HTTP): rolled once
    declared = declared_with(membership, key)
    if declared is not None:
        return declared  # or declared once
    attacker, target = shooter_figure.character, target_fig.character
    if attacker.pk == target.pk:
        raise RulesError("target", _("tap someone else's figure to attack"))
    if shooter_figure.area_id is None or target_fig.area_id is None:
        raise RulesError("target", _("both figures must stand in an area of the scene"))
    kind = rules.attack_kind(
        phase=scene.phase if scene.round else "",
        same_area=shooter_figure.area_id == target_fig.area_id,
    )
    if isinstance(kind, rules.Refusal):
        raise _refused(kind, attacker, target)
    _one_roll_each_phase(membership, scene, attacker)
    weapon = _weapon(attacker, range_weapon if kind == rules.Kind.RANGED else reach_weapon, kind)
    attacker_trait = _trait(attacker, trait, weapon, kind)
    conditions, where = None, ""
    if kind == rules.Kind.RANGED:
        found = shot_from_areas(membership.campaign, attacker.pk, target.pk)
        assert found is not None  # both stand in areas of the scene shown, checked above
        conditions = ranged.Conditions(
            range=found.range, light=found.target_area.light, cover=found.target_area.cover
        )
        where = found.words
    if waits_for_defender(membership, attacker, target):
        melee = kind == rules.Kind.MELEE
        return attack_declare(
            membership=membership,
            scene=scene,
            attacker=attacker,
            defender=target,
            kind=kind,
            weapon=weapon,
            trait=attacker_trait,
            tactic=tactic if melee else fight_rules.Tactic.NONE,
            stun=stun and melee,
            conditions=conditions,
            where=where,
            key=key,
        )
    if conditions is not None:
        assert weapon is not None  # ``_weapon`` refuses a shot without one
        return ranged_exchange(
            membership=membership,
            shooter=attacker,
            shooter_trait=attacker_trait,
            weapon=weapon,
            target=target,
            conditions=conditions,
            where=where,
            key=key,
        )
    defender_weapon = first_melee_weapon(target)
    return fight_exchange(
        membership=membership,
        attacker=attacker,
        attacker_trait=attacker_trait,
        weapon=weapon,
        defender=target,
        defender_trait=proposed_trait(list(target.traits.all()), defender_weapon, kind),
        defender_weapon=defender_weapon,
        attacker_tactic=tactic,
        attacker_announced=Announced(stun=stun),
        key=key,
    )
