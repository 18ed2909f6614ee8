"""A character copied into another campaign: a player's PC, a GM's NPC or a GM's whole roster.

A copy is a new sheet: the character file's shape (``characters.exchange``) carried into the
new campaign's rules by ``fudgetable.rules.carry_over``, checked by the same checks as an
imported file, and saved as a draft; the log and the old sheet stay where they were.
"""

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ruleset, membership_for
from characters.exchange import character_to_json
from characters.exchange_checks import read_character
from characters.models import Character
from characters.selectors import sheet_queryset
from characters.services.importing import character_from_sheet
from fudgetable.rules.carry_over import Carried, carry_over


def carried_into(character: Character, campaign: Campaign) -> Carried:
    """The sheet as the other campaign's rules take it, with what changes and what is dropped
    (``character`` with its sheet's rows, as ``sheet_queryset`` reads it)."""
    source, target = campaign_ruleset(character.campaign), campaign_ruleset(campaign)
    return carry_over(character_to_json(character), source, target)


def may_copy_into(person: User, character: Character, membership: Membership | None) -> bool:
    """Whether ``membership`` (the person's at another campaign) takes the copy: a PC goes
    with its player to a table where they play or run the game, an NPC to one its GM runs.
    Who may copy it out of its own campaign is the caller's check."""
    if membership is None or membership.campaign_id == character.campaign_id:
        return False
    if membership.campaign.is_archived:
        return False
    if character.is_npc:
        return membership.is_gm
    return character.owner_id == person.pk and membership.role != Membership.Role.OBSERVER


def _saved(character: Character, campaign: Campaign, person: User) -> Character:
    sheet, problems = read_character(carried_into(character, campaign).sheet, campaign)
    if problems or sheet is None:
        raise ValidationError([f"{character.name}: {problem}" for problem in problems])
    sheet["revealed"] = False  # the new table's players meet an NPC when its GM says so
    return character_from_sheet(
        campaign=campaign,
        owner=None if character.is_npc else person,
        sheet=sheet,
        stage=Character.Stage.DRAFT,
    )


@transaction.atomic
def character_copy(*, character: Character, campaign: Campaign, by: User) -> Character:
    """A new sheet for ``character`` at ``campaign``; any problem raises a ValidationError
    listing every one, and nothing is saved."""
    source = membership_for(by, character.campaign_id)
    allowed = source is not None and (source.is_gm or not character.is_npc)
    if not allowed or not may_copy_into(by, character, membership_for(by, campaign.pk)):
        raise PermissionDenied(_("You cannot copy that character into that campaign."))
    return _saved(character, campaign, by)


@transaction.atomic
def roster_copy(*, source: Campaign, campaign: Campaign, by: User) -> list[Character]:
    """Every NPC of ``source`` as a new sheet at ``campaign``, all or none."""
    here, there = membership_for(by, source.pk), membership_for(by, campaign.pk)
    if here is None or not here.is_gm or there is None or not there.is_gm:
        raise PermissionDenied(_("Only a GM of both campaigns can copy an NPC roster."))
    if source.pk == campaign.pk or campaign.is_archived:
        raise PermissionDenied(_("You cannot copy that character into that campaign."))
    npcs = list(sheet_queryset(source).filter(kind=Character.Kind.NPC))
    if not npcs:
        raise ValidationError(_("%(campaign)s has no NPCs to copy.") % {"campaign": source.name})
    copies, problems = [], []
    for npc in npcs:
        try:
            copies.append(_saved(npc, campaign, by))
        except ValidationError as error:
            problems += error.messages
    if problems:
        raise ValidationError(problems)  # the transaction takes back what was saved
    return copies
