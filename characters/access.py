"""Who may see and change a character.

Anyone at the table reads PCs; GMs read and change everything; a player changes only their
own characters; players see an NPC only once the GM reveals it, and then only its name and
public description. Anyone else gets a 404.
"""

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.access import membership_or_404
from campaigns.models import Membership
from characters.models import Character
from characters.selectors import sheet_queryset


def character_or_404(
    user: User, campaign_id: int, character_id: int, *, whole: bool = True
) -> tuple[Membership, Character]:
    """The member and the character they may read; ``whole``: with all its sheet's rows (to
    draw it), else the character's own row (to change it: a service reads what it needs)."""
    membership = membership_or_404(user, campaign_id)
    characters = (
        sheet_queryset(membership.campaign)
        if whole
        else Character.objects.filter(campaign=membership.campaign).select_related("owner")
    )
    character = characters.filter(pk=character_id).first()
    if character is None or (character.is_npc and not membership.is_gm and not character.revealed):
        raise Http404(_("No such character"))
    return membership, character


def may_edit(membership: Membership, character: Character) -> bool:
    if membership.is_gm:
        return True
    return not character.is_npc and character.owner_id == membership.user_id


def editable_or_403(
    user: User, campaign_id: int, character_id: int
) -> tuple[Membership, Character]:
    membership, character = character_or_404(user, campaign_id, character_id, whole=False)
    if not may_edit(membership, character):
        raise PermissionDenied(_("Only the character's player and the GMs can change it."))
    return membership, character
