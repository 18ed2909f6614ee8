"""Fixtures for the live table's rolls: a player's PC, an NPC, and a helper that posts a roll
form the way the table page does."""

import itertools

import pytest
from django.urls import reverse

from campaigns.models import Membership
from characters.models import Character, Trait
from characters.services import character_create
from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.factories import MembershipFactory, UserFactory

_keys = itertools.count()


def fresh_key() -> str:
    return f"test-key-{next(_keys):06d}"


def headed_all(words: str) -> list[Roll]:
    """The log's entries headed ``words`` as they are drawn (``entry_words``): the stored label
    holds only the names."""
    return [roll for roll in Roll.objects.order_by("pk") if entry_label(roll) == words]


def headed(words: str) -> Roll:
    """The one entry headed ``words``."""
    (roll,) = headed_all(words)
    return roll


def set_rules(campaign, ruleset: str | None = None, **overrides) -> None:
    """Switches the campaign's ruleset and settings the way a GM's settings form stores them."""
    if ruleset is not None:
        campaign.ruleset = ruleset
    campaign.overrides = {**campaign.overrides, **overrides}
    campaign.save(update_fields=["ruleset", "overrides"])


def trait(character: Character, name: str = "Stealth", level: int | None = None) -> Trait:
    found = character.traits.filter(name=name).first() or Trait.objects.create(
        character=character, kind=Trait.Kind.TRAIT, name=name, level=level or 0
    )
    if level is not None and found.level != level:
        found.level = level
        found.save(update_fields=["level"])
    return found


def roll_form(character: Character | None = None, trait_row: Trait | None = None, **extra):
    data = {
        "kind": "check",
        "character": character.pk if character else "",
        "trait": trait_row.pk if trait_row else "",
        "modifiers": "",
        "key": fresh_key(),
    }
    data.update({k: v for k, v in extra.items()})
    return data


def post_roll(client, campaign, data, *, htmx: bool = True):
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("rolls:roll", args=[campaign.pk]), data, headers=headers)


@pytest.fixture
def hero(campaign, member):
    """The member's PC."""
    return character_create(campaign=campaign, owner=member, name="Louie")


@pytest.fixture
def villain(campaign):
    """An NPC the players have not met."""
    npc = character_create(campaign=campaign, owner=None, name="Zanzibar Quell", kind="npc")
    trait(npc, "Poisoncraft", level=2)
    return npc


@pytest.fixture
def rival(campaign):
    """A second player, with a PC of their own."""
    user = UserFactory(username="second-player")
    MembershipFactory(campaign=campaign, user=user)
    pc = character_create(campaign=campaign, owner=user, name="Marla")
    return user, pc


@pytest.fixture
def observer(campaign):
    user = UserFactory(username="table-observer")
    MembershipFactory(campaign=campaign, user=user, role=Membership.Role.OBSERVER)
    return user
