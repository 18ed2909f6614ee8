"""EZFudge's ranged phase at the table: the GM rolls one shot; the log shows the wound it would
deal, which the GM confirms as a melee exchange's (``rolls.fight.exchange.fight_confirm``).

The entry is a fight entry like a melee exchange's: its sides are the characters who rolled
(the shooter, and the target only if they evade: "only one die roll per phase"), and its
``fight`` part holds the wound to confirm.
"""

from collections.abc import Iterable

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear, Trait
from characters.selectors import rules_sheet, weapon_of
from fudgetable.rules import ranged as rules
from fudgetable.rules.blows import Aim
from fudgetable.rules.errors import RulesError
from fudgetable.rules.fight import cpd_of
from rolls.entry_words import SAID, said
from rolls.fight.exchange import (
    UNTRAINED,
    aim_about,
    fighter_sheet,
    kept_from_players,
    level_of,
    may_attack_with,
    rolled_side,
    wound_about,
)
from rolls.fight.selectors import RANGED, pending_manoeuvres
from rolls.models import Roll
from rolls.services import existing_roll, ladder_words, record_entry

PLAIN_SIGHT = rules.Conditions()  # short range, good light, no cover


@transaction.atomic
def ranged_exchange(
    *,
    membership: Membership,
    shooter: Character,
    shooter_trait: Trait | None,
    weapon: Gear,
    target: Character,
    evades: bool = False,
    evade_trait: Trait | None = None,
    conditions: rules.Conditions = PLAIN_SIGHT,
    difficulty: int | None = None,
    aim: Aim | None = None,
    aim_note: str = "",
    options: Iterable[int] | None = None,
    secret: bool = False,
    key: str,
    where: str = "",
) -> Roll:
    """One shot, rolled and logged with the wound it would deal. ``difficulty`` is the GM's own
    (None: the helper's, from ``conditions``); ``options`` the damage options for this shot (None:
    the campaign's). A trait of None shoots or evades untrained. ``where``: the areas the range,
    light and cover were read from, said with them."""
    if not may_attack_with(membership, shooter):
        raise RulesError("membership", gettext("only a GM, or the shooter's player, rolls a shot"))
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    if shooter.pk == target.pk:
        raise RulesError("target", gettext("a character cannot shoot itself"))
    if aim is not None and not aim_note.strip():
        raise RulesError("aim", gettext("say what the aimed shot aims at and what it would do"))
    ruleset = campaign_ruleset(membership.campaign)
    if ruleset.wound_track is None:
        raise RulesError(
            "wound_track", gettext("this campaign's rules have no wound track to shoot on")
        )
    shooting_sheet = rules_sheet(fighter_sheet(membership, shooter, shooter_trait, weapon))
    target_sheet = rules_sheet(
        fighter_sheet(membership, target, evade_trait if evades else None, None)
    )
    pending = pending_manoeuvres(membership.campaign_id)
    moved, dodging = pending.get(shooter.pk), pending.get(target.pk) if evades else None
    marksman = rules.Shooter(
        level_of(ruleset, shooter_trait),
        rules.shot_inj(shooting_sheet, weapon_of(weapon)),
        aim,
        outmanoeuvred=moved is not None,
    )
    mark = rules.Target(
        cpd_of(target_sheet),
        level_of(ruleset, evade_trait) if evades else None,
        outmanoeuvred=dodging is not None,
    )
    bar = conditions.difficulty if difficulty is None else difficulty
    rolled = rules.fire(
        ruleset,
        marksman,
        mark,
        difficulty=bar,
        shooter_is_npc=shooter.is_npc,
        target_is_npc=target.is_npc,
        options=options,
    )
    shot = rolled.shot
    shooting = {
        "character": shooter.pk,
        "name": shooter.name,
        "trait": UNTRAINED if shooter_trait is None else shooter_trait.name,
        "weapon": weapon.name,
        "inj": marksman.inj,
        **aim_about(aim, aim_note),
        "outmanoeuvred_by": "" if moved is None else moved.by,
    }
    rolled_side(ruleset, shooting, shot.outcome.side, rolled.shooter_dice)
    struck = {"name": target.name, "cpd": mark.cpd}  # its id goes in sides and wounds
    sides = [shooting]
    if shot.evade is not None:
        evading = {
            "character": target.pk,
            **struck,
            "trait": UNTRAINED if evade_trait is None else evade_trait.name,
            "outmanoeuvred_by": "" if dodging is None else dodging.by,
        }
        rolled_side(ruleset, evading, shot.evade, rolled.evade_dice)
        sides.append(evading)
    hit = {"character": target.pk, **struck}
    wounds = [] if shot.wound is None else [wound_about(shot.wound.to_dict(), shooting, hit)]
    snapshot = {
        "sides": sides,
        "relative_degree": shot.outcome.margin,
        "outcome": shot.outcome.outcome.value,
        "critical": "",
        "degree": "",
        "chance": str(rolled.chance),
        "chance_percent": round(float(rolled.chance) * 100, 1),
        "fight": {
            "phase": RANGED,
            "result": "hit" if shot.hit else "miss",
            "target": struck,
            "difficulty": bar,
            "difficulty_name": ladder_words(ruleset, bar),
            "conditions": (conditions.words + (f" ({where})" if where else ""))
            if difficulty is None
            else "",
            "bar_name": ladder_words(ruleset, shot.bar),
            "wounds": wounds,
            "options": list(shot.options),
            "to_mark": sum(1 for wound in wounds if wound["level"] is not None),
        },
    }
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=f"{shooter.name}, {target.name}",
        snapshot={**snapshot, SAID: said("shot", shooter=shooter.name, target=target.name)},
        succeeded=shot.hit,
        key=key,
        character=shooter,
        secret=secret or kept_from_players(shooter, target),
    )
    return roll
