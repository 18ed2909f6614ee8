"""An attack from the board on a PC another player plays waits for that player to defend
(issue #39): the board's taps declare it (``attack_declare``); the defender's one tap (or a
GM's, for a player away from the table) rolls the exchange or the shot the board would have
rolled at once (``attack_defend``), with the defence they chose, and its wound is proposed for
the GM to confirm as ever; the attacker or a GM may withdraw it, and once the round moves on
it lapses. Who answers, and with what, is the rules' (``fudgetable.rules.defence``).

The exchange is the attacker's, rolled as their tap would have rolled it (its roller is who
declared it), under a key of the attack's own: a second tap on Defend, from any screen, finds
that roll and rolls nothing more.

Who sees a declared attack: the GMs, the defender's player and the attacker's (if a player),
and nobody else; a player never sees one the exchange's line would be kept from
(``kept_from_players``: such an attack is rolled at once, never declared). Every change is
pushed to those people alone (``defend_cards``)."""

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership
from characters.models import Character, Gear, Trait
from characters.signals import npc_shown_changed
from fudgetable.rules import defence as rules
from fudgetable.rules import fight as fight_rules
from fudgetable.rules import ranged
from fudgetable.rules.attack import Kind
from fudgetable.rules.errors import RulesError
from rolls.fight.defend_cards import publish_attack
from rolls.fight.defend_selectors import (
    defending_player,
    first_melee_weapon,
    lapsed,
    may_defend,
    may_see,
    proposed_defence_trait,
    rolled_this_phase,
)
from rolls.fight.exchange import Announced, fight_exchange, kept_from_players, may_attack_with
from rolls.fight.models import DeclaredAttack
from rolls.fight.ranged import ranged_exchange
from rolls.models import Roll
from rolls.scene.models import Scene
from rolls.scene.selectors import current_scene
from rolls.scene.signals import round_moved

DEFAULT, UNTRAINED = "", "untrained"  # the trait the rules propose; none


class NoSuchAttack(Exception):
    """No attack by that id at this table, as this person sees it: a 404."""


def waits_for_defender(membership: Membership, attacker: Character, defender: Character) -> bool:
    return rules.defender_answers(
        defender_is_npc=defender.is_npc,
        defender_player=defending_player(defender),
        attacking_person=membership.user_id,
        kept_from_players=kept_from_players(attacker, defender),
    )


def declared_with(membership: Membership, key: str) -> DeclaredAttack | None:
    """The attack the same taps declared already (a resent form): declared once."""
    return DeclaredAttack.objects.filter(
        campaign_id=membership.campaign_id, declared_by_id=membership.user_id, key=key
    ).first()


@transaction.atomic
def attack_declare(
    *,
    membership: Membership,
    scene: Scene,
    attacker: Character,
    defender: Character,
    kind: Kind,
    weapon: Gear | None,
    trait: Trait | None,
    tactic: fight_rules.Tactic = fight_rules.Tactic.NONE,
    stun: bool = False,
    conditions: ranged.Conditions | None = None,
    where: str = "",
    key: str,
) -> DeclaredAttack:
    """Declares the attack the board's taps made, to wait for its defender's player."""
    existing = declared_with(membership, key)
    if existing is not None:
        return existing
    attacks_lapse(membership.campaign)  # one past its phase holds up no attacker
    shot = conditions.to_dict() if conditions is not None else {}
    try:
        with transaction.atomic():
            attack = DeclaredAttack.objects.create(
                campaign_id=membership.campaign_id,
                scene=scene,
                declared_by_id=membership.user_id,
                attacker=attacker,
                defender=defender,
                kind=kind.value,
                weapon=weapon,
                trait=trait,
                trained=trait is not None,
                tactic=tactic.value,
                stun=stun and kind == Kind.MELEE,
                where=where,
                round=scene.round,
                phase=scene.phase if scene.round else "",
                key=key,
                **shot,
            )
    except IntegrityError:  # the attacker has one waiting already
        raise RulesError(
            "attacker",
            _("%(name)s's attack waits for its defence: withdraw it first")
            % {"name": attacker.name},
        ) from None
    publish_attack(attack)
    return attack


def _attack(membership: Membership, attack_id: int) -> DeclaredAttack:
    """The attack, locked, as this person may see it; any other id is ``NoSuchAttack`` (a 404)."""
    attack = (
        DeclaredAttack.objects.select_for_update(of=("self",))
        .select_related("attacker", "defender", "weapon", "trait", "exchange")
        .filter(pk=attack_id, campaign_id=membership.campaign_id)
        .first()
    )
    if attack is None or not may_see(membership, attack):
        raise NoSuchAttack
    return attack


def _end(attack: DeclaredAttack, end: str, exchange: Roll | None = None) -> None:
    attack.ended_at, attack.end, attack.exchange = timezone.now(), end, exchange
    attack.save(update_fields=["ended_at", "end", "exchange"])
    publish_attack(attack)


def _ended_words(attack: DeclaredAttack, *, lapsing: bool = False) -> RulesError:
    if lapsing or attack.end == DeclaredAttack.End.LAPSED:
        words = _("the round moved on before %(name)s defended: the attack has lapsed")
    else:
        words = _("the attack on %(name)s was withdrawn")
    return RulesError("attack", words % {"name": attack.defender.name})


def _trait(defender: Character, chosen: str, proposed: Trait | None) -> Trait | None:
    if chosen == DEFAULT:
        return proposed
    if chosen == UNTRAINED:
        return None
    found = next((t for t in defender.traits.all() if str(t.pk) == chosen), None)
    if found is None:
        raise RulesError(
            "trait", _("that is not a trait on %(name)s's sheet") % {"name": defender.name}
        )
    return found


def _attacker_trait(attack: DeclaredAttack) -> Trait | None:
    if attack.trained and attack.trait is None:
        raise RulesError(
            "trait",
            _("the trait %(name)s attacked with is no longer on the sheet: withdraw the attack")
            % {"name": attack.attacker.name},
        )
    return attack.trait


def _declarer(attack: DeclaredAttack) -> Membership:
    """The attacker's membership, whose exchange it is: still one that may attack with them."""
    declarer = (
        Membership.objects.select_related("campaign", "user")
        .filter(campaign_id=attack.campaign_id, user_id=attack.declared_by_id)
        .first()
    )
    if declarer is None or not may_attack_with(declarer, attack.attacker):
        raise RulesError(
            "attack",
            _("whoever attacked with %(name)s may no longer: withdraw the attack")
            % {"name": attack.attacker.name},
        )
    return declarer


@transaction.atomic
def attack_defend(
    *,
    membership: Membership,
    attack_id: int,
    defence: str = "",
    trait: str = DEFAULT,
    stun: bool = False,
) -> Roll:
    """Rolls the declared attack with the defence chosen (blank: what a GM rolls for a player
    away, ``rules.FOR_THEM``). A second tap returns the exchange the first rolled."""
    attack = _attack(membership, attack_id)
    if attack.exchange is not None:
        return attack.exchange
    if not may_defend(membership, attack):
        raise PermissionDenied
    if not attack.waiting:
        raise _ended_words(attack)
    scene = current_scene(attack.campaign_id)
    if lapsed(attack, scene):  # its end is written as the round steps (``attacks_lapse``)
        raise _ended_words(attack, lapsing=True)
    kind = Kind(attack.kind)
    answer = rules.answer(kind, defence or rules.FOR_THEM[kind])
    defender = attack.defender
    chosen = _trait(defender, trait, proposed_defence_trait(attack))
    declarer = _declarer(attack)
    key = f"defend-{attack.pk}"
    if kind == Kind.MELEE:
        roll = fight_exchange(
            membership=declarer,
            attacker=attack.attacker,
            attacker_trait=_attacker_trait(attack),
            weapon=attack.weapon,
            defender=defender,
            defender_trait=chosen,
            defender_weapon=first_melee_weapon(defender),
            attacker_tactic=fight_rules.Tactic(attack.tactic),
            defender_tactic=answer.tactic,
            attacker_announced=Announced(stun=attack.stun),
            defender_announced=Announced(stun=stun),
            key=key,
        )
    else:
        if answer.evades and not rules.may_evade(
            rolled_this_phase=rolled_this_phase(attack, scene), gm=membership.is_gm
        ):
            raise RulesError(
                "defence",
                _(
                    "%(name)s has rolled in this phase already: one roll each phase, so "
                    "take the shot"
                )
                % {"name": defender.name},
            )
        if attack.weapon is None:
            raise RulesError(
                "weapon",
                _("the weapon %(name)s shot with is no longer on the sheet: withdraw the attack")
                % {"name": attack.attacker.name},
            )
        roll = ranged_exchange(
            membership=declarer,
            shooter=attack.attacker,
            shooter_trait=_attacker_trait(attack),
            weapon=attack.weapon,
            target=defender,
            evades=answer.evades,
            evade_trait=chosen if answer.evades else None,
            conditions=ranged.Conditions(attack.range, attack.light, attack.cover),
            where=attack.where,
            key=key,
        )
    _end(attack, DeclaredAttack.End.DEFENDED, roll)
    return roll


@transaction.atomic
def attack_withdraw(*, membership: Membership, attack_id: int) -> DeclaredAttack:
    """Takes back a declared attack: its attacker's player, or a GM. Once ended, nothing."""
    attack = _attack(membership, attack_id)
    if not (membership.is_gm or attack.declared_by_id == membership.user_id):
        raise PermissionDenied
    if attack.waiting:
        _end(attack, DeclaredAttack.End.WITHDRAWN)
    return attack


def attacks_lapse(campaign: Campaign) -> None:
    """Ends every attack waiting at the table whose round, phase or scene is past."""
    waiting = DeclaredAttack.objects.select_for_update(of=("self",)).filter(
        campaign=campaign, ended_at__isnull=True
    )
    scene = current_scene(campaign.pk)
    for attack in waiting.select_related("attacker", "defender"):
        if lapsed(attack, scene):
            _end(attack, DeclaredAttack.End.LAPSED)


def _round_moved(sender: object, *, campaign: Campaign, **kwargs: object) -> None:
    attacks_lapse(campaign)


def _npc_shown_changed(sender: object, *, npc: Character, **kwargs: object) -> None:
    """An NPC hidden again leaves the players' cards of the attacks it makes (they are the
    GMs' now, as its exchange would be); shown, it comes back to them."""
    waiting = DeclaredAttack.objects.filter(ended_at__isnull=True, attacker=npc)
    for attack in waiting.select_related("campaign", "attacker", "defender"):
        publish_attack(attack)


def connect() -> None:
    """Has the attacks waiting hear that the round moved on (``rolls.scene.signals``), and
    that an NPC was shown or hidden (``characters.signals``)."""
    round_moved.connect(_round_moved, dispatch_uid="attacks-lapse")
    npc_shown_changed.connect(_npc_shown_changed, dispatch_uid="attacks-npc-shown")
