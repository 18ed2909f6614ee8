"""Reads of the attacks waiting for a defence (``rolls.fight.defend``): who sees and answers
one, whether it has lapsed, what the defender is proposed to answer with, and each person's
list of them as their screen draws it."""

from dataclasses import dataclass

from django.db.models import QuerySet

from campaigns.models import Campaign, Membership
from characters.models import Character, Gear, Trait
from fudgetable.rules.attack import Kind
from rolls.fight.exchange import kept_from_players
from rolls.fight.models import DeclaredAttack
from rolls.fight.proposed import evading_with, proposed_trait
from rolls.scene.models import Scene
from rolls.scene.selectors import current_scene


def defending_player(defender: Character) -> int | None:
    """Who plays the defending PC, when a player of this table does (not a GM, who rolls as
    they like, nor an observer, who does not roll)."""
    if defender.is_npc or defender.owner_id is None:
        return None
    playing = Membership.objects.filter(
        campaign_id=defender.campaign_id, user_id=defender.owner_id, role=Membership.Role.PLAYER
    ).exists()
    return defender.owner_id if playing else None


def may_see(membership: Membership, attack: DeclaredAttack) -> bool:
    """The GMs, the defender's player and the attacker's; a player never one whose exchange
    is kept from the players."""
    if membership.is_gm:
        return True
    if kept_from_players(attack.attacker, attack.defender):
        return False
    return membership.user_id in (attack.declared_by_id, attack.defender.owner_id)


def may_defend(membership: Membership, attack: DeclaredAttack) -> bool:
    """The defender's player, or a GM for them."""
    if membership.is_gm:
        return True
    return (
        membership.role == Membership.Role.PLAYER and attack.defender.owner_id == membership.user_id
    )


def lapsed(attack: DeclaredAttack, scene: Scene | None) -> bool:
    """Whether the round has moved on since the attack was declared (or the scene changed)."""
    if scene is None or scene.pk != attack.scene_id:
        return True
    return (scene.round, scene.phase if scene.round else "") != (attack.round, attack.phase)


def first_melee_weapon(defender: Character) -> Gear | None:
    """What the defender fights back with: the first of their weapons used in melee, else bare
    hands (as the board has always read it)."""
    arms = [g for g in defender.gear.all() if g.kind == Gear.Kind.WEAPON and not g.ranged]
    return arms[0] if arms else None


def proposed_defence_trait(attack: DeclaredAttack) -> Trait | None:
    """The trait the defender is proposed to answer with: to fight back with their weapon in
    melee (``fighting_trait``), to evade a shot (``evading_trait``)."""
    defender = attack.defender
    traits = list(defender.traits.all())
    if attack.kind == Kind.MELEE:
        return proposed_trait(traits, first_melee_weapon(defender), Kind.MELEE)
    return evading_with(traits)


def rolled_this_phase(attack: DeclaredAttack, scene: Scene | None) -> bool:
    return bool(scene and scene.round and scene.rolled.get(str(attack.defender_id)))


@dataclass(frozen=True)
class Waiting:
    """An attack waiting, as one person's screen draws it."""

    attack: DeclaredAttack
    defends: bool  # the defender's player: the defences, one tap each
    for_them: bool  # a GM: "Roll for them"
    withdraws: bool  # the attacker's player, or a GM
    proposed: Trait | None  # the trait the defence is proposed with
    traits: list[Trait]  # the defender's, to answer with another (the defender's own view)
    may_evade: bool  # a shot: the target has not rolled in this phase


def _open(campaign: Campaign) -> QuerySet[DeclaredAttack]:
    return (
        DeclaredAttack.objects.filter(campaign=campaign, ended_at__isnull=True)
        .select_related("attacker", "defender", "weapon", "trait")
        .prefetch_related("defender__traits", "defender__gear")
    )


def waiting_for(campaign: Campaign, user_id: int, *, gm: bool) -> list[Waiting]:
    """The attacks waiting that this person sees: a GM every one; a player those on their PCs
    (to defend) and those they declared (to withdraw). One that has lapsed is left out: the
    round moved on (its end is written when the round steps, ``defend.attacks_lapse``)."""
    attacks = list(_open(campaign))
    scene = current_scene(campaign.pk) if attacks else None
    found = []
    for attack in attacks:
        if lapsed(attack, scene):
            continue
        if not gm and (
            kept_from_players(attack.attacker, attack.defender)
            or user_id not in (attack.declared_by_id, attack.defender.owner_id)
        ):
            continue
        defends = not gm and attack.defender.owner_id == user_id
        found.append(
            Waiting(
                attack=attack,
                defends=defends,
                for_them=gm,
                withdraws=gm or attack.declared_by_id == user_id,
                proposed=proposed_defence_trait(attack),
                traits=list(attack.defender.traits.all()) if defends else [],
                may_evade=gm or not rolled_this_phase(attack, scene),
            )
        )
    return found


def people_of(attack: DeclaredAttack) -> set[int]:
    """The players whose screens show the attack: the defender's and the attacker's (a GM
    sees every attack on the GMs' copy)."""
    concerned = [attack.declared_by_id]
    if attack.defender.owner_id is not None:
        concerned.append(attack.defender.owner_id)
    players = Membership.objects.filter(
        campaign_id=attack.campaign_id, user_id__in=concerned
    ).exclude(role=Membership.Role.GM)
    return set(players.values_list("user_id", flat=True))
