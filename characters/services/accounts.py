"""A person's whole account: what they may take away, and leaving for good."""

from typing import Literal

from django.contrib.auth.models import User
from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Campaign
from characters.models import Character
from fudgetable import live
from fudgetable.rules.errors import RulesError

# What happens to the leaving person's characters.
CharactersGo = Literal["to-gm", "delete"]


def owned_characters(user: User) -> list[Character]:
    return list(
        Character.objects.filter(owner=user).select_related("campaign").order_by("campaign", "pk")
    )


@transaction.atomic
def account_delete(*, user: User, characters: CharactersGo) -> None:
    """Deletes the account. Each of its characters goes to its campaign's owner, or is deleted,
    as the person chose; their rolls stay in the log, rolled by nobody ("a former player").
    Someone who owns a campaign must delete it first: its table would be left without a GM."""
    owned = list(Campaign.objects.filter(owner=user).values_list("name", flat=True))
    if owned:
        names = ", ".join(owned)
        raise RulesError(
            "account",
            gettext("you own %(names)s: delete each campaign first, on its page")
            % {"names": names},
        )
    for character in owned_characters(user):
        if characters == "delete":
            character.delete()
        else:
            character.owner_id = character.campaign.owner_id
            character.save(update_fields=["owner"])
    for campaign_id in user.memberships.values_list("campaign_id", flat=True):
        live.member_changed(campaign_id, user.pk)  # its open table sockets close
    user.delete()
