import pytest
from django.urls import reverse

from characters.services import character_create
from tests.factories import MembershipFactory, UserFactory


@pytest.fixture
def hero(campaign, member):
    """The member's Fudge Lite character, still being built."""
    return character_create(campaign=campaign, owner=member, name="Lightfingers Louie")


@pytest.fixture
def other_player(campaign):
    user = UserFactory(username="other-player")
    MembershipFactory(campaign=campaign, user=user)
    return user


@pytest.fixture
def command(client_for):
    """POSTs one sheet command as `user`, the way htmx does, and returns the response."""

    def send(user, character, name, data=None, htmx=True):
        url = reverse("characters:command", args=[character.campaign_id, character.pk, name])
        headers = {"HX-Request": "true"} if htmx else {}
        return client_for(user).post(url, data or {}, headers=headers)

    return send
