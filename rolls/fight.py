"""EZFudge melee exchanges at the table. The GM rolls one; the log shows the wound it would
deal; the GM's confirmation marks it on the sheet and says so in the log.

A confirmation is a log entry that follows the exchange (as a Fudge point's roll follows the
check it changes). The log is append-only, so that entry is also the record that the wound was
marked: a second confirmation finds it and marks nothing. The sheet's track JSON could not hold
that record, as every box tap rewrites it from the rules module's state.
"""

from typing import Any

from django.db import transaction

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.models import Character, Gear, Trait
from characters.selectors import rules_sheet, sheet_queryset
from characters.services import track_take_wound
from fudgetable import live
from fudgetable.rules import checks, sheet_tracks
from fudgetable.rules import fight as rules
from fudgetable.rules.character import Weapon
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import SideResult
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.sheet import ROLE
from rolls import fragments
from rolls.models import Roll
from rolls.services import existing_roll, faces_shown, ladder_words, record_entry

UNTRAINED = "untrained"
POSITIONS = [(0, "Even footing"), (-1, "Worse position (-1)"), (-2, "Much worse position (-2)")]


def _fighter_sheet(
    membership: Membership, character: Character, trait: Trait | None, gear: Gear | None
) -> Character:
    """The fighter's sheet, fresh, after checking that every id belongs together."""
    if character.campaign_id != membership.campaign_id:
        raise RulesError("character", "that character is not at this table")
    if trait is not None and trait.character_id != character.pk:
        raise RulesError("trait", f"that trait is not on {character.name}'s sheet")
    if gear is not None and (gear.character_id != character.pk or gear.kind != Gear.Kind.WEAPON):
        raise RulesError("weapon", f"that is not one of {character.name}'s weapons")
    return sheet_queryset(membership.campaign).get(pk=character.pk)


def _side(
    ruleset: Ruleset,
    membership: Membership,
    character: Character,
    trait: Trait | None,
    gear: Gear | None,
    tactic: rules.Tactic,
    position: int,
) -> tuple[rules.Fighter, dict[str, Any]]:
    fresh = _fighter_sheet(membership, character, trait, gear)
    sheet = rules_sheet(fresh)
    weapon = None if gear is None else Weapon(gear.name, gear.damage_factor, gear.inj, gear.quality)
    # The level as rolled: Peupfudge's level modifier counts in play, as in any check.
    level = checks.untrained_level(ruleset) if trait is None else trait.level + trait.modifier
    fighting_role = trait is not None and trait.kind == ROLE
    fighter = rules.Fighter(
        level,
        rules.inj_of(sheet, weapon, fighting_role=fighting_role),
        rules.cpd_of(sheet),
        tactic,
        position,
    )
    about = {
        "character": character.pk,
        "name": character.name,
        "trait": UNTRAINED if trait is None else trait.name,
        "weapon": "Unarmed" if gear is None else gear.name,
        "inj": fighter.inj,
        "cpd": fighter.cpd,
        "tactic": fighter.tactic.value,
        "tactic_label": rules.TACTICS[fighter.tactic],
        "position": position,
    }
    return fighter, about


def _rolled_side(ruleset: Ruleset, about: dict[str, Any], side: SideResult, dice: Any) -> None:
    about.update(
        {
            "level_name": ladder_words(ruleset, side.level),
            "modifiers": list(side.modifiers),
            "modifier": side.modifier,
            "method_label": get_method(dice.method).label,
            "shown": faces_shown(dice),
            "roll": dice.total,
            "result": side.result,
            "result_name": ladder_words(ruleset, side.result),
        }
    )


@transaction.atomic
def fight_exchange(
    *,
    membership: Membership,
    attacker: Character,
    attacker_trait: Trait | None,
    weapon: Gear | None,
    defender: Character,
    defender_trait: Trait | None,
    attacker_tactic: rules.Tactic = rules.Tactic.NONE,
    defender_tactic: rules.Tactic = rules.Tactic.NONE,
    key: str,
    defender_weapon: Gear | None = None,
    attacker_position: int = 0,
    defender_position: int = 0,
    secret: bool = False,
) -> Roll:
    """One melee exchange, rolled and logged with the wound it would deal; nothing is marked
    until the GM confirms. A trait of None fights untrained (EZFudge: Poor); a weapon of None
    is bare hands."""
    if not membership.is_gm:
        raise RulesError("membership", "only a GM runs a fight exchange")
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    if attacker.pk == defender.pk:
        raise RulesError("defender", "a character cannot fight itself")
    ruleset = campaign_ruleset(membership.campaign)
    if ruleset.wound_track is None:
        raise RulesError("wound_track", "this campaign's rules have no wound track to fight on")
    striker, attacking = _side(
        ruleset, membership, attacker, attacker_trait, weapon, attacker_tactic, attacker_position
    )
    struck, defending = _side(
        ruleset,
        membership,
        defender,
        defender_trait,
        defender_weapon,
        defender_tactic,
        defender_position,
    )
    rolled = rules.fight(
        ruleset,
        striker,
        struck,
        attacker_is_npc=attacker.is_npc,
        defender_is_npc=defender.is_npc,
    )
    exchange = rolled.exchange
    outcome = exchange.outcome
    _rolled_side(ruleset, attacking, outcome.active, rolled.attacker_dice)
    _rolled_side(ruleset, defending, outcome.passive, rolled.defender_dice)
    sides = {rules.ATTACKER: attacking, rules.DEFENDER: defending}
    wounds = [
        {
            **wound.to_dict(),
            "character": sides[wound.to]["character"],
            "name": sides[wound.to]["name"],
        }
        for wound in exchange.wounds
    ]
    snapshot = {
        "sides": [attacking, defending],
        "relative_degree": outcome.relative_degree,
        "outcome": outcome.outcome.value,
        "critical": "",
        "degree": "",
        "chance": str(rolled.chance),
        "chance_percent": round(float(rolled.chance) * 100, 1),
        "fight": {
            "result": exchange.result,
            "wounds": wounds,
            "options": list(exchange.options),
            "to_mark": sum(1 for wound in wounds if wound["level"] is not None),
        },
    }
    won = {rules.ATTACKER: True, rules.DEFENDER: False}.get(exchange.result)
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=f"Fight: {attacker.name} vs {defender.name}",
        snapshot=snapshot,
        succeeded=won,
        key=key,
        character=attacker,
        secret=secret,
    )
    return roll


def _marked_words(name: str, wound: str, marked: rules.Marked) -> str:
    if marked.track == sheet_tracks.CONDITION:
        boxes = f"{marked.boxes} box" if marked.boxes == 1 else f"{marked.boxes} boxes"
        full = ", and the track is full" if marked.overflow else ""
        return f"{name}: {wound} ({boxes}{full})"
    if marked.overflow:
        return f"{name}: {wound}, but no box is free at or above it (the GM rules)"
    if marked.level_name != wound:
        return f"{name}: {wound}, marked as {marked.level_name} (the {wound} boxes are full)"
    return f"{name}: {wound}"


def confirmation_of(roll: Roll) -> Roll | None:
    return Roll.objects.filter(follows=roll).first()


@transaction.atomic
def fight_confirm(*, membership: Membership, roll: Roll) -> Roll:
    """Marks the exchange's wounds on the fighters' tracks, once: a confirmation already made
    is returned as it is."""
    if not membership.is_gm:
        raise RulesError("membership", "only a GM marks a fight's wounds")
    fight = roll.snapshot.get("fight") if roll.campaign_id == membership.campaign_id else None
    if not fight:
        raise RulesError("roll", "that roll is not a fight exchange at this table")
    # Locked, so two GMs confirming at once cannot both mark the wound.
    Roll.objects.select_for_update().filter(pk=roll.pk).first()
    done = confirmation_of(roll)
    if done is not None:
        return done
    to_mark = [wound for wound in fight["wounds"] if wound["level"] is not None]
    if not to_mark:
        raise RulesError("roll", "that exchange dealt no wound to mark")
    marked = []
    for wound in to_mark:
        fighter = Character.objects.filter(pk=wound["character"], campaign=roll.campaign).first()
        if fighter is None:
            text = f"{wound['name']}: {wound['level_name']}, but they are no longer at the table"
            marked.append({"name": wound["name"], "wound": wound["level_name"], "text": text})
            continue
        level, name = wound["level"], wound["level_name"]
        done_to = track_take_wound(character=fighter, level=level, name=name)
        sheet_changed(fighter)
        marked.append(
            {
                "character": fighter.pk,
                "name": fighter.name,
                "wound": name,
                "track": done_to.track,
                "marked": done_to.level_name,
                "boxes": done_to.boxes,
                "overflow": done_to.overflow,
                "text": _marked_words(fighter.name, name, done_to),
            }
        )
    words = "; ".join(m["text"] for m in marked)
    confirmation, created = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=f"Wound marked on {words}" if len(marked) == 1 else f"Wounds marked on {words}",
        snapshot={"confirms": roll.pk, "marked": marked},
        succeeded=None,
        # One key per exchange: the same GM's double tap makes one confirmation.
        key=f"fight-confirm-{roll.pk}",
        character=roll.character,
        secret=roll.secret,
        follows=roll,
    )
    if created:
        # The exchange's entry loses its Confirm button on every screen.
        live.publish(roll.campaign_id, "fight.confirmed", **fragments.replaced_entries(roll))
    return confirmation
