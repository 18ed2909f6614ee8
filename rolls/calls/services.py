"""The GM's call for a roll: the GM names PCs, a trait (or lets each pick), a difficulty
(perhaps hidden), advantage dice, a label, and whether the results are secret. Each called
player sees the call on their table page, pushed to their sockets alone, and answers with one
tap; the GMs see a card fill in, can cancel the call, or roll for an absent player.

Each answer is an ordinary check (``services.roll_check``, with the sheet's lines), so the log,
a Fudge point's spend and the secrecy of a secret roll work as for any roll.
"""

from collections.abc import Sequence

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset, table_language
from characters.models import Character
from fudgetable import live
from fudgetable.rules.errors import RulesError
from rolls import services
from rolls.calls.fragments import call_list, called_trait, calls_for_person
from rolls.calls.models import RollCall
from rolls.models import Roll

MAX_CALLED = 12
TRAIT_LENGTH, LABEL_LENGTH = 80, 120  # RollCall's columns


def _publish(call: RollCall, *, people: Sequence[int]) -> None:
    """Redraws the GMs' card, and the calls of each person named, on their sockets alone."""
    campaign = call.campaign
    with table_language(campaign):
        gm = call_list(campaign, oob=True)
        mine = {user_id: calls_for_person(campaign, user_id, oob=True) for user_id in people}
    live.publish(campaign.pk, "call.changed", everyone=None, gm=gm)
    for user_id, html in mine.items():
        live.publish_to_person(campaign.pk, user_id, "call.changed", html=html)


def _players(characters: Sequence[Character]) -> list[int]:
    return sorted({c.owner_id for c in characters if c.owner_id is not None})


@transaction.atomic
def call_create(
    *,
    membership: Membership,
    characters: Sequence[Character],
    trait: str,
    difficulty: int,
    hidden_difficulty: bool = False,
    advantage: int = 0,
    label: str = "",
    secret: bool = False,
) -> RollCall:
    if not membership.is_gm:
        raise RulesError("membership", gettext("only a GM calls for a roll"))
    pcs = [c for c in characters if c.campaign_id == membership.campaign_id and not c.is_npc]
    if not pcs or len(pcs) != len(characters):
        raise ValidationError(gettext("Pick one or more of this table's PCs to call on."))
    if len(pcs) > MAX_CALLED:
        raise ValidationError(
            gettext("Call on at most %(most)s PCs at once.") % {"most": MAX_CALLED}
        )
    trait, label = trait.strip(), label.strip()
    if len(trait) > TRAIT_LENGTH or len(label) > LABEL_LENGTH:
        raise ValidationError(gettext("The trait or the label is too long."))
    call = RollCall.objects.create(
        campaign=membership.campaign,
        created_by=membership.user,
        trait=trait,
        difficulty=difficulty,
        hidden_difficulty=hidden_difficulty,
        advantage=advantage,
        label=label,
        secret=secret,
        characters=[c.pk for c in pcs],
    )
    _publish(call, people=_players(pcs))
    return call


def _locked(call: RollCall) -> RollCall:
    return RollCall.objects.select_for_update().select_related("campaign").get(pk=call.pk)


@transaction.atomic
def call_cancel(*, call: RollCall) -> RollCall:
    call = _locked(call)
    if call.open:
        call.closed_at = timezone.now()
        call.save(update_fields=["closed_at"])
        called = Character.objects.filter(pk__in=call.characters)
        _publish(call, people=_players(list(called)))
    return call


@transaction.atomic
def call_dismiss(*, call: RollCall) -> RollCall:
    """Takes a call off the GMs' card; an open one is closed too (its players' Roll taps go)."""
    call = _locked(call)
    if call.dismissed_at is None:
        now = timezone.now()
        was_open = call.open
        call.closed_at = call.closed_at or now
        call.dismissed_at = now
        call.save(update_fields=["closed_at", "dismissed_at"])
        called = Character.objects.filter(pk__in=call.characters) if was_open else []
        _publish(call, people=_players(list(called)))
    return call


def _trait_for(call: RollCall, character: Character, trait_id: int | None) -> tuple[str, int]:
    """The trait the answer rolls: the call's, found on this sheet by name (untrained if the
    sheet lacks it), or the one the player picked when the call lets each pick."""
    if call.trait:
        return called_trait(campaign_ruleset(call.campaign), call, character)
    picked = character.traits.filter(pk=trait_id).first() if trait_id else None
    if picked is None:
        raise RulesError(
            "trait", gettext("pick one of %(name)s's traits to roll") % {"name": character.name}
        )
    return picked.name, picked.level + picked.modifier


@transaction.atomic
def call_answer(
    *,
    membership: Membership,
    call: RollCall,
    character: Character,
    key: str,
    trait_id: int | None = None,
) -> Roll:
    """Rolls for one called PC: its player, or a GM for an absent one. A second tap (the
    same key, or the character already answered) rolls nothing more."""
    call = _locked(call)
    if call.campaign_id != membership.campaign_id or character.pk not in call.characters:
        raise RulesError("call", gettext("that character was not called on to roll"))
    answered = call.answers.get(str(character.pk))
    if answered is not None:
        return Roll.objects.get(pk=answered)
    if not call.open:
        raise RulesError("call", gettext("the GM has closed that call"))
    if not (membership.is_gm or character.owner_id == membership.user_id):
        raise RulesError("character", gettext("only its player or a GM rolls for that character"))
    trait_name, level = _trait_for(call, character, trait_id)
    roll = services.roll_check(
        membership=membership,
        key=key,
        level=level,
        trait_name=trait_name,
        character=character,
        difficulty=call.difficulty,
        advantage=call.advantage,
        hidden_difficulty=call.hidden_difficulty,
        secret=call.secret,
    )
    call.answers[str(character.pk)] = roll.pk
    if len(call.answers) == len(call.characters):
        call.closed_at = timezone.now()
    call.save(update_fields=["answers", "closed_at"])
    called = Character.objects.filter(pk__in=call.characters)
    _publish(call, people=_players(list(called)))
    return roll
