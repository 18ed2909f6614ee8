"""What an attack waiting for its defence looks like on a screen (``rolls.fight.defend``): the
defender's player gets a small card, "X attacks Y with Z: defend", and the defences, one tap
each; the attacker's player the attack, waiting, to withdraw; the GMs every attack waiting,
each to roll for its defender or to withdraw.

Each person's copy is drawn for them and pushed to their sockets alone, numbered in their own
count (``live.publish_to_people``) as a whisper is, so a dropped frame is caught up and no
other player's screen can tell an attack was declared; the GMs' copy goes to GMs only. A
(re)connecting socket gets its person's copy with the table (``rolls.table.state``)."""

from django.http import HttpRequest
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ladder, table_language
from fudgetable import live
from fudgetable.rules import defence as rules
from fudgetable.rules import ranged
from fudgetable.rules.attack import Kind
from fudgetable.rules.fight import TACTICS, Tactic
from rolls.fight.defend_selectors import Waiting, people_of, waiting_for
from rolls.fight.models import DeclaredAttack

TEMPLATE = "rolls/fight/defend.html"
UNTRAINED = "untrained"


def attack_words(attack: DeclaredAttack) -> str:
    """ "Brute attacks Jason Free with Club": who, whom, with what."""
    names = {"attacker": attack.attacker.name, "defender": attack.defender.name}
    if attack.kind == Kind.RANGED:
        weapon = attack.weapon.name if attack.weapon else _("a weapon no longer on the sheet")
        return _("%(attacker)s shoots at %(defender)s with %(weapon)s") % {
            **names,
            "weapon": weapon,
        }
    if attack.weapon is None:
        return _("%(attacker)s attacks %(defender)s bare-handed") % names
    return _("%(attacker)s attacks %(defender)s with %(weapon)s") % {
        **names,
        "weapon": attack.weapon.name,
    }


def shot_words(campaign: Campaign, attack: DeclaredAttack) -> str:
    """A shot's range, light and cover, and the result it needs to hit, as the areas gave them
    when it was declared (their words name no area hidden from the players)."""
    if attack.kind != Kind.RANGED:
        return ""
    conditions = ranged.Conditions(attack.range, attack.light, attack.cover)
    needs = campaign_ladder(campaign).describe(conditions.difficulty)
    return _("%(where)s · to hit: %(needs)s, from %(conditions)s") % {
        "where": attack.where,
        "needs": needs,
        "conditions": conditions.words,
    }


def _tactic_words(tactic: str) -> str:
    """The attacker's tactic, said on the card when there is one (All-Out Attack)."""
    if tactic not in Tactic or tactic == Tactic.NONE:
        return ""
    return TACTICS[Tactic(tactic)]


def _row(campaign: Campaign, waiting: Waiting) -> dict[str, object]:
    attack = waiting.attack
    melee = attack.kind == Kind.MELEE
    proposed = waiting.proposed
    return {
        "waiting": waiting,
        "attack": attack,
        "melee": melee,
        "words": attack_words(attack),
        "shot": shot_words(campaign, attack),
        "trait_value": UNTRAINED if proposed is None else proposed.pk,
        "trait_name": _("untrained") if proposed is None else proposed.name,
        "attacker_tactic": _tactic_words(attack.tactic),
    }


def attack_cards(
    campaign: Campaign,
    user_id: int,
    *,
    gm: bool,
    oob: bool = False,
    request: HttpRequest | None = None,
    problem: str = "",
) -> str:
    """One person's attacks waiting (a GM's: every one), swapped in by id."""
    rows = [_row(campaign, waiting) for waiting in waiting_for(campaign, user_id, gm=gm)]
    context = {
        "campaign": campaign,
        "rows": rows,
        "oob": oob,
        "problem": problem,
        "untrained": UNTRAINED,
        "defences": {defence.name: defence.value for defence in rules.Defence},
    }
    return render_to_string(f"{TEMPLATE}#cards", context, request=request)


def cards_for(membership: Membership, **kwargs: object) -> str:
    return attack_cards(
        membership.campaign,
        membership.user_id,
        gm=membership.is_gm,
        **kwargs,  # type: ignore[arg-type]
    )


def publish_attack(attack: DeclaredAttack) -> None:
    """Redraws the attacks waiting on the GMs' screens and on those of the players it
    concerns, once the change commits; nobody else's socket hears of it."""
    campaign = attack.campaign
    with table_language(campaign):
        gm = attack_cards(campaign, 0, gm=True, oob=True)
        people = {
            user_id: attack_cards(campaign, user_id, gm=False, oob=True)
            for user_id in sorted(people_of(attack))
        }
    live.publish(campaign.pk, "attack.changed", everyone=None, gm=gm)
    if people:
        live.publish_to_people(campaign.pk, "attack.changed", people=people)
