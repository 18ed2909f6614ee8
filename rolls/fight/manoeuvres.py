"""The manoeuvre test that may follow a successful All-Out Defense at an EZFudge table
(EZFudge Essentials "Optional Rule: Tactics"): an entry that follows the exchange; its success
gives the opponent -1 in their next exchange (read back by ``fight_selectors``)."""

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Trait
from fudgetable.rules import checks
from fudgetable.rules import fight as rules
from fudgetable.rules.errors import RulesError
from rolls.entry_words import SAID, said
from rolls.fight.exchange import level_of, rolled_side
from rolls.fight.selectors import MANOEUVRE, MELEE, open_manoeuvres
from rolls.models import Roll
from rolls.services import existing_roll, ladder_words, record_entry


@transaction.atomic
def fight_manoeuvre(
    *, membership: Membership, exchange: Roll, side: str, trait: Trait, key: str
) -> Roll:
    """The test that may follow a successful All-Out Defense: the defender's role against Fair
    (+1), rolled with the table's dice even for an NPC ("a rare instance of the gamemaster
    rolling for an NPC"). Success gives the opponent -1 in their next action."""
    if not membership.is_gm:
        raise RulesError("membership", gettext("only a GM rolls a manoeuvre"))
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    fight = (
        exchange.snapshot.get("fight") if exchange.campaign_id == membership.campaign_id else None
    )
    if not fight or fight.get("phase", MELEE) != MELEE:
        raise RulesError("roll", gettext("that roll is not a melee exchange at this table"))
    if side not in fight.get("defended", []):
        raise RulesError(
            "side",
            gettext("the attacker made no successful All-Out Defense in that exchange")
            if side == rules.ATTACKER
            else gettext("the defender made no successful All-Out Defense in that exchange"),
        )
    Roll.objects.select_for_update().filter(pk=exchange.pk).first()
    done = exchange.followed_by.filter(snapshot__fight__side=side).first()
    if done is not None:
        return done  # one test per defence, whoever asks twice
    if not any(
        (m.exchange.pk, m.side) == (exchange.pk, side)
        for m in open_manoeuvres(membership.campaign_id)
    ):
        raise RulesError(
            "roll", gettext("that All-Out Defense is past: the fight has moved on since")
        )
    at = 0 if side == rules.ATTACKER else 1
    defender, opponent = exchange.snapshot["sides"][at], exchange.snapshot["sides"][1 - at]
    character = Character.objects.filter(
        pk=defender.get("character"), campaign_id=membership.campaign_id
    ).first()
    if character is None:
        raise RulesError(
            "character",
            gettext("%(name)s is no longer at the table") % {"name": defender["name"]},
        )
    if trait.character_id != character.pk:
        raise RulesError(
            "trait", gettext("that trait is not on %(name)s's sheet") % {"name": character.name}
        )
    ruleset = campaign_ruleset(membership.campaign)
    result = checks.trait_check(
        ruleset,
        level=level_of(ruleset, trait),
        difficulty=rules.MANOEUVRE_DIFFICULTY,
        method=ruleset.dice,
    )
    outcome = result.outcome
    about = {"character": character.pk, "name": character.name, "trait": trait.name}
    rolled_side(ruleset, about, outcome.side, result.roll)
    snapshot = {
        "sides": [about],
        "relative_degree": outcome.margin,
        "outcome": outcome.outcome.value,
        "critical": "",
        "degree": "",
        "chance": str(result.chance),
        "chance_percent": round(float(result.chance) * 100, 1),
        "fight": {
            "phase": MANOEUVRE,
            "side": side,
            "opponent": opponent["name"],
            "difficulty_name": ladder_words(ruleset, rules.MANOEUVRE_DIFFICULTY),
            "result": "manoeuvred" if outcome.succeeded else "held",
            "wounds": [],
            "options": [],
            "to_mark": 0,
        },
    }
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=character.name,
        snapshot={**snapshot, SAID: said("manoeuvre", name=character.name)},
        succeeded=outcome.succeeded,
        key=key,
        character=character,
        secret=exchange.secret,
        follows=exchange,
    )
    return roll
