"""A player who joins a table without a character is offered the next step: make one, or take
one the GM made ready for whoever joins."""

import pytest
from django.urls import reverse

from campaigns.services import invite_create
from characters.models import Character
from characters.services import character_create

pytestmark = pytest.mark.django_db


def detail(client, campaign) -> str:
    return client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()


def test_a_gm_makes_a_ready_made_pc_that_belongs_to_nobody_yet(client_for, owner, campaign):
    url = reverse("characters:create", args=[campaign.pk])
    assert "Ready-made" in client_for(owner).get(url).content.decode()
    client_for(owner).post(url, {"name": "Pregen Pat", "ready_made": "on"})
    assert Character.objects.get(name="Pregen Pat").owner is None


def test_a_player_cannot_make_a_pc_for_nobody(client_for, member, campaign):
    url = reverse("characters:create", args=[campaign.pk])
    assert "Ready-made" not in client_for(member).get(url).content.decode()
    client_for(member).post(url, {"name": "Mine", "ready_made": "on"})
    assert Character.objects.get(name="Mine").owner == member


def test_a_player_without_a_pc_is_offered_to_make_one_or_take_a_ready_made_one(
    client_for, owner, member, outsider, campaign
):
    ready = character_create(campaign=campaign, owner=None, name="Pregen Pat")
    page = detail(client_for(member), campaign)
    assert "Your next step: a character" in page and "Play Pregen Pat" in page
    assert "Your next step" not in detail(client_for(owner), campaign)  # GMs need no PC
    take = reverse("characters:take", args=[campaign.pk, ready.pk])
    assert client_for(outsider).post(take).status_code == 404
    assert client_for(owner).post(take).status_code == 302  # refused in words: GMs keep it
    ready.refresh_from_db()
    assert ready.owner is None
    response = client_for(member).post(take, follow=True)
    ready.refresh_from_db()
    assert ready.owner == member and "Pregen Pat is yours to play." in response.content.decode()
    assert "Your next step" not in detail(client_for(member), campaign)


def test_a_pc_already_played_is_not_taken(client_for, owner, member, campaign):
    theirs = character_create(campaign=campaign, owner=owner, name="The GM's own")
    take = reverse("characters:take", args=[campaign.pk, theirs.pk])
    response = client_for(member).post(take, follow=True)
    assert "already has a player" in response.content.decode()
    theirs.refresh_from_db()
    assert theirs.owner == owner


def test_joining_as_a_player_says_the_next_step_once(client_for, owner, outsider, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    response = client_for(outsider).post(reverse("join", args=[invite.token]), follow=True)
    page = response.content.decode()
    assert page.count("Your next step is your character") == 1
    assert "Make your character" in page


def test_each_notice_shows_once(client_for, owner, member, campaign):
    made = client_for(owner).post(
        reverse("campaigns:create"), {"name": "Gears of Brass", "ruleset": "ezfudge"}, follow=True
    )
    assert made.content.decode().count("Invite your players next") == 1
    pc = character_create(campaign=campaign, owner=member, name="Louie")
    profile = reverse("characters:profile", args=[campaign.pk, pc.pk])
    saved = client_for(member).post(
        profile,
        {"name": "Louie", "description": "", "notes": "", "mass_scale": 0, "version": 1},
        follow=True,
    )
    assert saved.content.decode().count("Saved.") == 1
