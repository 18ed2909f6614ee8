"""EZFudge melee exchanges at the table. The GM rolls one; the log shows the wound it would
deal; the GM's confirmation marks it on the sheet and says so in the log.

A confirmation is a log entry that follows the exchange (as a Fudge point's roll follows the
check it changes). The log is append-only, so that entry is also the record that the wound was
marked: a second confirmation finds it and marks nothing. The sheet's track JSON could not hold
that record, as every box tap rewrites it from the rules module's state.

A successful All-Out Defense may be followed by a manoeuvre test (``rolls.fight.manoeuvres``):
another entry that follows the exchange, which ``confirmation_of`` tells apart. Its -1 on the
opponent is read back from the log (``rolls.fight.selectors``) and taken by the opponent's next
exchange.
"""

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.text import format_lazy
from django.utils.translation import gettext, gettext_lazy

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.models import Character, Gear, Trait
from characters.selectors import rules_sheet, sheet_queryset, weapon_of
from characters.services import track_take_wound
from fudgetable.rules import checks
from fudgetable.rules import fight as rules
from fudgetable.rules.blows import Aim
from fudgetable.rules.dice import get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution import SideResult
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.sheet import ROLE
from rolls import fragments
from rolls.entry_words import SAID, marked_words, said
from rolls.fight.selectors import MELEE, Outmanoeuvred, pending_manoeuvres
from rolls.models import Roll
from rolls.services import existing_roll, faces_shown, ladder_words, record_entry

UNTRAINED = "untrained"
POSITIONS = [
    (0, gettext_lazy("Even footing")),
    (-1, gettext_lazy("Worse position (-1)")),
    (-2, gettext_lazy("Much worse position (-2)")),
]
# An aimed strike: the GM's modifier, and the margin it needs to land where it was aimed.
AIM_MODIFIERS = [(0, gettext_lazy("No modifier")), *((m, f"{m:+d}") for m in (-1, -2, -3, -4))]
AIM_NEEDS = [
    (0, gettext_lazy("Any blow that wounds")),
    *(
        (n, format_lazy(gettext_lazy("A margin of {margin} or more"), margin=n))
        for n in (1, 2, 3, 4)
    ),
]


@dataclass(frozen=True)
class Announced:
    """What a side announces beyond its tactic: a pulled punch (the worst wound level its blow
    may deal), an aimed strike, with the GM's note of what it aims at and does, and an attack
    to stun (EZFudge "Attacking to Stun": its wound is circled on the stun track)."""

    pull: int | None = None
    aim: Aim | None = None
    aim_note: str = ""
    stun: bool = False

    def __post_init__(self) -> None:
        if self.aim is not None and not self.aim_note.strip():
            raise RulesError(
                "aim", gettext("say what the aimed strike aims at and what it would do")
            )


def kept_from_players(*characters: Character) -> bool:
    """An NPC the players have not met takes part: a rolled line naming it is the GMs' alone,
    as its name is (one rule for the exchange, the shot and what follows them)."""
    return any(c.is_npc and not c.revealed for c in characters)


def may_attack_with(membership: Membership, character: Character) -> bool:
    """Who may roll an attack for a character: a GM anyone; a player their own PC, from the
    board (``rolls.fight.attack``); an observer nobody. One rule for melee and the shot."""
    if membership.is_gm:
        return True
    return (
        membership.role == Membership.Role.PLAYER
        and not character.is_npc
        and character.owner_id == membership.user_id
    )


def fighter_sheet(
    membership: Membership, character: Character, trait: Trait | None, gear: Gear | None
) -> Character:
    """The fighter's sheet, fresh, after checking that every id belongs together."""
    if character.campaign_id != membership.campaign_id:
        raise RulesError("character", gettext("that character is not at this table"))
    if trait is not None and trait.character_id != character.pk:
        raise RulesError(
            "trait", gettext("that trait is not on %(name)s's sheet") % {"name": character.name}
        )
    if gear is not None and (gear.character_id != character.pk or gear.kind != Gear.Kind.WEAPON):
        raise RulesError(
            "weapon", gettext("that is not one of %(name)s's weapons") % {"name": character.name}
        )
    return sheet_queryset(membership.campaign).get(pk=character.pk)


def _side(
    ruleset: Ruleset,
    membership: Membership,
    character: Character,
    trait: Trait | None,
    gear: Gear | None,
    tactic: rules.Tactic,
    position: int,
    announced: Announced,
    outmanoeuvred: Outmanoeuvred | None,
) -> tuple[rules.Fighter, dict[str, Any]]:
    fresh = fighter_sheet(membership, character, trait, gear)
    sheet = rules_sheet(fresh)
    weapon = None if gear is None else weapon_of(gear)
    fighting_role = trait is not None and trait.kind == ROLE
    fighter = rules.Fighter(
        level_of(ruleset, trait),
        rules.inj_of(sheet, weapon, fighting_role=fighting_role),
        rules.cpd_of(sheet),
        tactic,
        position,
        pull=announced.pull,
        aim=announced.aim,
        outmanoeuvred=outmanoeuvred is not None,
    )
    track = ruleset.wound_track
    assert track is not None  # the caller refuses a table without one
    rules.check_pull(announced.pull, track)
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
        "pull_name": "" if announced.pull is None else track.levels[announced.pull].name,
        "stun": announced.stun,
        **aim_about(announced.aim, announced.aim_note),
        "outmanoeuvred_by": "" if outmanoeuvred is None else outmanoeuvred.by,
    }
    return fighter, about


def level_of(ruleset: Ruleset, trait: Trait | None) -> int:
    """The level as rolled: Peupfudge's level modifier counts in play, as in any check; no
    trait is the ruleset's untrained level (EZFudge: Poor)."""
    return checks.untrained_level(ruleset) if trait is None else trait.level + trait.modifier


def aim_about(aim: Aim | None, note: str) -> dict[str, Any]:
    if aim is None:
        return {"aim_note": ""}
    return {"aim_note": note.strip(), "aim_modifier": aim.modifier, "aim_needs": aim.needs}


def wound_about(wound: dict[str, Any], striker: dict[str, Any], struck: dict[str, Any]) -> dict:
    """A wound as the log keeps it: who takes it, the striker's aimed-strike note, and whether
    the striker attacked to stun."""
    note = striker.get("aim_note", "") if wound["aimed"] else ""
    return {
        **wound,
        "character": struck["character"],
        "name": struck["name"],
        "aim_note": note,
        "stun": bool(striker.get("stun")),
    }


def rolled_side(ruleset: Ruleset, about: dict[str, Any], side: SideResult, dice: Any) -> None:
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
    attacker_announced: Announced = Announced(),
    defender_announced: Announced = Announced(),
    secret: bool = False,
) -> Roll:
    """One melee exchange, rolled and logged with the wound it would deal; nothing is marked
    until the GM confirms. A trait of None fights untrained (EZFudge: Poor); a weapon of None
    is bare hands. A fighter outmanoeuvred after an All-Out Defense takes its -1 now. A player
    attacks with their own PC alone (``may_attack_with``); the GM confirms the wound."""
    if not may_attack_with(membership, attacker):
        raise RulesError(
            "membership", gettext("only a GM, or the attacker's player, rolls an exchange")
        )
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    if attacker.pk == defender.pk:
        raise RulesError("defender", gettext("a character cannot fight itself"))
    ruleset = campaign_ruleset(membership.campaign)
    if ruleset.wound_track is None:
        raise RulesError(
            "wound_track", gettext("this campaign's rules have no wound track to fight on")
        )
    pending = pending_manoeuvres(membership.campaign_id)
    striker, attacking = _side(
        ruleset,
        membership,
        attacker,
        attacker_trait,
        weapon,
        attacker_tactic,
        attacker_position,
        attacker_announced,
        pending.get(attacker.pk),
    )
    struck, defending = _side(
        ruleset,
        membership,
        defender,
        defender_trait,
        defender_weapon,
        defender_tactic,
        defender_position,
        defender_announced,
        pending.get(defender.pk),
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
    rolled_side(ruleset, attacking, outcome.active, rolled.attacker_dice)
    rolled_side(ruleset, defending, outcome.passive, rolled.defender_dice)
    sides = {rules.ATTACKER: attacking, rules.DEFENDER: defending}
    foe = {rules.ATTACKER: defending, rules.DEFENDER: attacking}
    wounds = [
        wound_about(wound.to_dict(), foe[wound.to], sides[wound.to]) for wound in exchange.wounds
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
            "phase": MELEE,
            "result": exchange.result,
            "wounds": wounds,
            "options": list(exchange.options),
            "to_mark": sum(1 for wound in wounds if wound["level"] is not None),
            "defended": list(rules.defended(exchange)),
        },
    }
    won = {rules.ATTACKER: True, rules.DEFENDER: False}.get(exchange.result)
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=f"{attacker.name}, {defender.name}",
        snapshot={**snapshot, SAID: said("fight", attacker=attacker.name, defender=defender.name)},
        succeeded=won,
        key=key,
        character=attacker,
        secret=secret or kept_from_players(attacker, defender),
    )
    return roll


def confirmation_of(roll: Roll) -> Roll | None:
    """The entry that marked the fight's wounds (a manoeuvre test may follow a fight too)."""
    return Roll.objects.filter(follows=roll, snapshot__has_key="confirms").first()


@transaction.atomic
def fight_confirm(*, membership: Membership, roll: Roll) -> Roll:
    """Marks the exchange's wounds on the fighters' tracks, once: a confirmation already made
    is returned as it is."""
    if not membership.is_gm:
        raise RulesError("membership", gettext("only a GM marks a fight's wounds"))
    fight = roll.snapshot.get("fight") if roll.campaign_id == membership.campaign_id else None
    if not fight:
        raise RulesError("roll", gettext("that roll is not a fight exchange at this table"))
    # Locked, so two GMs confirming at once cannot both mark the wound.
    Roll.objects.select_for_update().filter(pk=roll.pk).first()
    done = confirmation_of(roll)
    if done is not None:
        return done
    to_mark = [wound for wound in fight["wounds"] if wound["level"] is not None]
    if not to_mark:
        raise RulesError("roll", gettext("that exchange dealt no wound to mark"))
    marked = []
    for wound in to_mark:
        fighter = Character.objects.filter(pk=wound["character"], campaign=roll.campaign).first()
        if fighter is None:
            marked.append({"name": wound["name"], "wound": wound["level_name"], "gone": True})
            continue
        level, name = wound["level"], wound["level_name"]
        stun = bool(wound.get("stun"))
        done_to = track_take_wound(character=fighter, level=level, name=name, stun=stun)
        # What was marked, not its words: they are made where it is drawn (entry_words).
        mark = {
            "character": fighter.pk,
            "name": fighter.name,
            "wound": name,
            "track": done_to.track,
            "marked": done_to.level_name,
            "boxes": done_to.boxes,
            "overflow": done_to.overflow,
            "stun": stun,
        }
        told = gettext("The GM marked a wound on %(words)s.") % {"words": marked_words(mark)}
        sheet_changed(fighter, told=told, by=membership.user_id)
        marked.append(mark)
    confirmation, created = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=", ".join(m["name"] for m in marked),
        snapshot={"confirms": roll.pk, "marked": marked, SAID: said("wounds-marked")},
        succeeded=None,
        # One key per exchange: the same GM's double tap makes one confirmation.
        key=f"fight-confirm-{roll.pk}",
        character=roll.character,
        secret=roll.secret,
        follows=roll,
    )
    if created:
        # The exchange's entry loses its Confirm button on every screen.
        fragments.publish_changed_entry(roll, "fight.confirmed")
    return confirmation
