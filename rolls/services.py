"""Every roll made at a table. Dice are rolled here, on the server, by the rules module; each
roll is written once and announced to the table when its transaction commits."""

import uuid
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import translation
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.models import Character, Trait
from characters.services import xp_award
from fudgetable import live
from fudgetable.rows import insert
from fudgetable.rules import checks, criticals
from fudgetable.rules import dice as dice_rules
from fudgetable.rules.dice import DeckState, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules.sheet_modifiers import Ticks
from rolls import dice_in_hand, fragments, roll_lines
from rolls.entry_words import SAID, Said, lines_words, said
from rolls.models import Roll
from rolls.scene.moves import note_roll
from rolls.table_facts import table_facts
from rolls.talk import webhooks

Snapshot = dict[str, Any]


def ladder_words(ruleset: Ruleset, value: int) -> str:
    return ruleset.ladder.describe(value)


FUDGE_FACES = {1: "⊞", 0: "▢", -1: "⊟"}


def faces_shown(dice: dice_rules.Roll) -> list[str]:
    """The faces as the log shows them: Fudge dice as dF glyphs, other dice as they read."""
    if "dF" in dice.method:
        return [FUDGE_FACES[face] if isinstance(face, int) else str(face) for face in dice.faces]
    return [str(face) for face in dice.faces]


def refuse_observers(membership: Membership) -> None:
    """Every way to roll (the table's form, a sheet's trait, a Fudge point) passes here."""
    if membership.role == Membership.Role.OBSERVER:
        raise RulesError("roll", gettext("observers watch; they do not roll"))


def existing_roll(campaign: Campaign, membership: Membership, key: str) -> Roll | None:
    """The roll a resent form already made: a double tap makes one roll, not two."""
    return Roll.objects.filter(
        campaign=campaign, roller_id=membership.user_id, idempotency_key=key
    ).first()


def record_entry(
    *,
    membership: Membership,
    kind: str,
    label: str,
    snapshot: Snapshot,
    succeeded: bool | None,
    key: str,
    character: Character | None = None,
    secret: bool = False,
    hidden_difficulty: bool = False,
    follows: Roll | None = None,
) -> tuple[Roll, bool]:
    """Writes a log entry and announces it; ``(roll, False)`` when a resent form already made
    it. Shared by every module that writes the log (a fight, a coincidence, healing). A secret
    announcement (a line, not a roll) reaches no player's screen at all, not even as "the GM
    rolled", as ``roll_announce``'s GM-only lines do."""
    campaign = membership.campaign
    players = not (secret and kind == Roll.Kind.ANNOUNCEMENT)
    # No savepoint: a resent form's key is found by the INSERT itself (ON CONFLICT DO NOTHING),
    # not by an error that would leave the transaction to be rolled back to one.
    with transaction.atomic(savepoint=False):
        # Numbered first, so the entry is written with the number it reaches screens by.
        seq = live.next_seq(campaign.pk, players=players)
        facts = table_facts(campaign.pk)
        roll = Roll(
            campaign=campaign,
            session_id=facts.session_id,
            roller_id=membership.user_id,
            character=character,
            follows=follows,
            kind=kind,
            visibility=Roll.Visibility.GM if secret else Roll.Visibility.TABLE,
            hidden_difficulty=hidden_difficulty,
            label=label[:200],
            snapshot=snapshot,
            succeeded=succeeded,
            idempotency_key=key,
            everyone_seq=seq.get("everyone"),
            gm_seq=seq["gm"],
        )
        if not insert(roll, or_nothing=True):
            # The same form, sent twice at the same moment: the first one made the roll.
            existing = existing_roll(campaign, membership, key)
            # Its number and whatever the caller wrote for this roll (a Fudge point paid, a
            # card drawn) go too.
            transaction.set_rollback(True)
            if existing is None:
                raise IntegrityError("a log entry's INSERT met a conflict on no known key")
            return existing, False
    entries = fragments.roll_entries(roll)
    events = {Roll.Kind.ANNOUNCEMENT: "log.announced", Roll.Kind.MESSAGE: "message.said"}
    event = events.get(Roll.Kind(kind), "roll.created")
    everyone = entries["everyone"] if players else None
    live.publish(campaign.pk, event, everyone=everyone, gm=entries["gm"], entry=roll.pk, seq=seq)
    if facts.webhook:
        webhooks.entry_written(roll)
    if facts.fighting:
        note_roll(roll)  # "only one die roll per phase": counted in a fight's round
    return roll, True


def check_snapshot(ruleset: Ruleset, result: checks.CheckResult, trait_name: str) -> Snapshot:
    outcome = result.outcome
    return {
        "trait": trait_name,
        "level": outcome.side.level,
        "level_name": ladder_words(ruleset, outcome.side.level),
        "modifiers": list(outcome.side.modifiers),
        "modifier": outcome.side.modifier,
        "method": result.roll.method,
        "method_label": get_method(result.roll.method).label,
        "faces": [str(face) for face in result.roll.faces],
        "shown": faces_shown(result.roll),
        "roll": result.roll.total,
        "result": outcome.result,
        "result_name": ladder_words(ruleset, outcome.result),
        "difficulty": outcome.difficulty,
        "difficulty_name": ladder_words(ruleset, outcome.difficulty),
        "margin": outcome.margin,
        "outcome": outcome.outcome.value,
        "critical": outcome.critical.value if outcome.critical else "",
        "degree": result.degree,
        "chance": str(result.chance),
        "chance_percent": round(float(result.chance) * 100, 1),
    }


def critical_row(ruleset: Ruleset, critical: object) -> Snapshot | None:
    """A roll on the campaign's critical results table (F95 3.6), when a roll came up
    critical and the campaign keeps one; its entry shows the row."""
    if not critical or ruleset.critical_table is None:
        return None
    return criticals.roll_critical(ruleset.critical_table).to_dict()


def helper_line(
    ruleset: Ruleset, character: Character | None, trait_name: str, helper: Trait
) -> tuple[int, Snapshot]:
    """A second trait of the rolling character lending +1 (F95 3.3): the bonus, and how the
    log names it. Refused for someone else's trait, the rolled trait itself, or below Good."""
    if character is None or helper.character_id != character.pk:
        raise RulesError("helper", gettext("a second trait helps only the character who has it"))
    if helper.name == trait_name:
        raise RulesError("helper", gettext("pick a second trait, not the one rolled"))
    level = helper.level + helper.modifier
    bonus = checks.secondary_bonus(ruleset, level)
    line = {"trait": helper.name, "level_name": ladder_words(ruleset, level), "bonus": bonus}
    return bonus, line


@transaction.atomic
def roll_check(
    *,
    membership: Membership,
    key: str,
    level: int,
    trait_name: str,
    character: Character | None = None,
    modifiers: Sequence[int] = (),
    difficulty: int | None = None,
    advantage: int = 0,
    disadvantage: int = 0,
    hidden_difficulty: bool = False,
    secret: bool = False,
    ticks: Ticks | None = None,
    helper: Trait | None = None,
    untrained_helped: bool = False,
    method: str | None = None,
    faces: str | None = None,
) -> Roll:
    """A trait check against a difficulty (the ruleset's default unless given). A resent form
    is caught when its roll is written (``record_entry``), not looked up first: every roll
    would pay for that query, and a resend's dice, drawn card and XP all roll back.

    Of what the character's sheet offers for the trait (``roll_lines.offered``), the lines the
    roller left ticked (``ticks``; None: those not situational) join the modifiers, each
    named in the log, and a character who may take no action is refused. So does a second
    trait's +1 (``helper``); ``untrained_helped`` notes that a high attribute raised an
    untrained level (F95 3.4). A critical rolls the campaign's critical table. ``method``:
    other dice than the table's (a roll typed as "/r 3d6 vs Good"); ``faces``: the dice were
    rolled by hand (``dice_in_hand``), and the rules read these faces instead."""
    refuse_observers(membership)
    ruleset = campaign_ruleset(membership.campaign)
    sheet = roll_lines.offered(ruleset, character, trait_name)
    if sheet.no_action:
        words = (
            gettext("%(name)s is %(state)s and may take no action")
            if character
            else gettext("This character is %(state)s and may take no action")
        )
        raise RulesError(
            "character",
            words % {"name": character.name if character else "", "state": sheet.no_action},
        )
    lines = sheet.chosen(ticks)
    modifiers = (*modifiers, *(line.amount for line in lines))
    helped = helper_line(ruleset, character, trait_name, helper) if helper else None
    if helped:
        modifiers = (*modifiers, helped[0])
    difficulty = ruleset.default_difficulty if difficulty is None else difficulty
    method_key = method or checks.dice_for(ruleset, advantage=advantage, disadvantage=disadvantage)
    pile = None
    if faces is not None:
        dice = dice_in_hand.hand_roll(membership.campaign, method_key, faces)
    elif method_key == "deck":
        # The deck is the campaign's: its row is locked so two draws never take one card.
        campaign = Campaign.objects.select_for_update().get(pk=membership.campaign_id)
        pile = DeckState.from_dict(campaign.deck) if campaign.deck else None
        dice, deck = checks.roll_dice(get_method(method_key), deck=pile)
        campaign.deck = deck.to_dict() if deck is not None else None
        campaign.save(update_fields=["deck"])
    else:
        dice, _ = checks.roll_dice(get_method(method_key))
    result = checks.trait_check(
        ruleset,
        level=level,
        difficulty=difficulty,
        modifiers=modifiers,
        method=method_key,
        roll=dice,
        deck=pile,  # the chance beforehand is that of what was left, as the odds showed it
    )
    who = character.name if character else membership.user.get_username()
    snapshot = check_snapshot(ruleset, result, trait_name)
    if faces is not None:
        snapshot["by_hand"] = True
    if lines:
        snapshot["sheet_lines"] = [line.to_dict() for line in lines]
    if helped:
        snapshot["helper"] = helped[1]
    if untrained_helped:
        snapshot["untrained_helped"] = True
    row = critical_row(ruleset, result.outcome.critical)
    if row:
        snapshot["critical_row"] = row
    # A hidden difficulty's XP would tell the player the roll failed; the GM awards it later.
    missed = ruleset.xp_on_a_miss and not result.outcome.succeeded and not hidden_difficulty
    pc = character if character is not None and not character.is_npc else None
    if missed and pc is not None:
        snapshot["xp_gained"] = 1  # part of the roll, so the log says why the XP came
    roll, created = record_entry(
        membership=membership,
        kind=Roll.Kind.CHECK,
        label=f"{who}: {trait_name}",
        snapshot=snapshot,
        succeeded=result.outcome.succeeded,
        key=key,
        character=character,
        secret=secret,
        hidden_difficulty=hidden_difficulty,
    )
    if created and missed and pc is not None:
        xp_award(character=pc, amount=1)
        sheet_changed(pc)
    return roll


@transaction.atomic
def roll_contest(
    *,
    membership: Membership,
    key: str,
    character: Character,
    trait: Trait,
    opponent: Character,
    opponent_trait: Trait,
    modifiers: Sequence[int] = (),
    opponent_modifiers: Sequence[int] = (),
    secret: bool = False,
    minimum: int | None = None,
    helper: Trait | None = None,
) -> Roll:
    """PC against NPC (the NPC rolls by the campaign's NPC roll mode) or PC against PC.
    ``minimum`` is the least result that can succeed at all (F95 3.5); ``helper`` a second
    trait of the PC's lending +1 (F95 3.3). A critical rolls the campaign's critical table."""
    refuse_observers(membership)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    ruleset = campaign_ruleset(membership.campaign)
    if opponent.pk == character.pk:
        raise RulesError("opponent", gettext("a character cannot oppose itself"))
    helped = helper_line(ruleset, character, trait.name, helper) if helper else None
    if helped:
        modifiers = (*modifiers, helped[0])
    result = checks.contest(
        ruleset,
        # Peupfudge's level modifier counts in play, as it does in a check.
        active_level=trait.level + trait.modifier,
        passive_level=opponent_trait.level + opponent_trait.modifier,
        active_modifiers=modifiers,
        passive_modifiers=opponent_modifiers,
        passive_is_npc=opponent.is_npc,
        minimum=minimum,
    )
    outcome = result.outcome
    sides = []
    for who, tr, side, dice in (
        (character, trait, outcome.active, result.active_roll),
        (opponent, opponent_trait, outcome.passive, result.passive_roll),
    ):
        sides.append(
            {
                "name": who.name,
                "trait": tr.name,
                "level": side.level,
                "level_name": ladder_words(ruleset, side.level),
                "modifier": side.modifier,
                "method_label": get_method(dice.method).label,
                "shown": faces_shown(dice),
                "roll": dice.total,
                "result": side.result,
                "result_name": ladder_words(ruleset, side.result),
            }
        )
    snapshot = {
        "sides": sides,
        "relative_degree": outcome.relative_degree,
        "outcome": outcome.outcome.value,
        "critical": outcome.critical.value if outcome.critical else "",
        "degree": result.degree,
        "chance": str(result.chance),
        "chance_percent": round(float(result.chance) * 100, 1),
    }
    if helped:
        sides[0]["helper"] = helped[1]
    if minimum is not None:
        snapshot["minimum"] = minimum
        snapshot["minimum_name"] = ladder_words(ruleset, minimum)
    row = critical_row(ruleset, outcome.critical)
    if row:
        snapshot["critical_row"] = row
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.CONTEST,
        label=f"{character.name}, {opponent.name}",
        snapshot={**snapshot, SAID: said("contest", active=character.name, passive=opponent.name)},
        succeeded=outcome.succeeded,
        key=key,
        character=character,
        secret=secret,
    )
    return roll


@transaction.atomic
def roll_reading(
    *,
    membership: Membership,
    key: str,
    reaction: bool,
    label: str,
    modifiers: Sequence[int] = (),
    secret: bool = False,
    method: str = "4dF",
    faces: str | None = None,
) -> Roll:
    """A situational roll, or an NPC's reaction (the GM usually keeps those secret).
    ``method``: other dice read from Fair the same way (a roll typed as "/r 3d6"); ``faces``:
    rolled by hand (``dice_in_hand``)."""
    refuse_observers(membership)
    existing = existing_roll(membership.campaign, membership, key)
    if existing is not None:
        return existing
    ruleset = campaign_ruleset(membership.campaign)
    dice = None if faces is None else dice_in_hand.hand_roll(membership.campaign, method, faces)
    reading = checks.situational(
        ruleset, modifiers=modifiers, npc_reaction=reaction, method=method, roll=dice
    )
    snapshot = {
        "shown": faces_shown(reading.roll),
        "method_label": get_method(reading.roll.method).label,
        "roll": reading.roll.total,
        "modifiers": list(modifiers),
        "result": reading.result,
        "result_name": ladder_words(ruleset, reading.result),
        "reaction": reading.reaction,
    }
    if dice is not None:
        snapshot["by_hand"] = True
    kind = Roll.Kind.REACTION if reaction else Roll.Kind.SITUATIONAL
    roll, _ = record_entry(
        membership=membership,
        kind=kind,
        label=label,
        # Untitled, it is headed by its kind, in the words of where it is drawn.
        snapshot=snapshot if label else {**snapshot, SAID: said(str(kind))},
        succeeded=None,
        key=key,
        secret=secret,
    )
    return roll


def roll_note(*, roll: Roll, note: str) -> Roll:
    """The GM's note on a log entry: the one thing about a roll that may change."""
    with transaction.atomic():
        roll.gm_note = note
        roll.save(update_fields=["gm_note"])
        # Players' copy of a secret roll shows no note: sending it again would only tell them
        # that one was written.
        fragments.publish_changed_entry(roll, "roll.noted", players=not roll.secret)
    return roll


def roll_announce(*, campaign: Campaign, lines: Sequence[Said], players: bool) -> Roll | None:
    """Writes the table's own lines in the log (a countdown completes, a challenge is won), so
    they survive a reconnect like any roll. ``players=False`` keeps them among the GMs. Each
    line is kept as its key and names (``entry_words.said``) and drawn in the language of the
    screen that draws it, as an entry's heading is; the label keeps them in English, for a
    version that cannot read a key."""
    if not lines:
        return None  # most commands announce nothing: no savepoint for them
    with translation.override(settings.LANGUAGE_CODE):
        label = lines_words(lines) or ""
    with transaction.atomic():
        seq = live.next_seq(campaign.pk, players=players)
        roll = Roll.objects.create(
            campaign=campaign,
            session_id=table_facts(campaign.pk).session_id,
            kind=Roll.Kind.ANNOUNCEMENT,
            visibility=Roll.Visibility.TABLE if players else Roll.Visibility.GM,
            label=label[:200],
            snapshot={"lines": list(lines)},
            succeeded=None,
            idempotency_key=uuid.uuid4().hex,
            everyone_seq=seq.get("everyone"),
            gm_seq=seq["gm"],
        )
        entries = fragments.roll_entries(roll)
        live.publish(
            campaign.pk,
            "log.announced",
            everyone=entries["everyone"] if players else None,
            gm=entries["gm"],
            entry=roll.pk,
            seq=seq,
        )
        webhooks.entry_written(roll)
    return roll
