"""Sign-ups, and invite links that name no invite, are limited per address: an account factory
or a token guesser is answered 429 in words, while a person mistyping a link once is not."""

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from campaigns.services import invite_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def rate_limits_on(settings):
    settings.RATELIMIT_ENABLE = True
    cache.clear()  # a count from an earlier test would carry over


def sign_up(username: str, address: str = "10.0.0.1"):
    password = "a-long-fudge-phrase"
    data = {"username": username, "password1": password, "password2": password}
    return Client(REMOTE_ADDR=address).post(reverse("signup"), data)


def test_the_eleventh_sign_up_from_one_address_in_an_hour_is_refused(settings):
    settings.SIGNUPS_PER_HOUR = 10
    for number in range(10):
        assert sign_up(f"player-{number}").status_code == 302
    refused = sign_up("player-10")
    assert refused.status_code == 429
    assert "Too many accounts were asked for from this address" in refused.content.decode()
    assert not User.objects.filter(username="player-10").exists()
    assert sign_up("player-10", address="10.0.0.2").status_code == 302


def open_invite(token: str, address: str = "10.0.0.1"):
    return Client(REMOTE_ADDR=address).get(reverse("join", args=[token]))


def test_guessing_invite_tokens_is_cut_off_and_then_no_token_works_from_there(
    settings, campaign, owner, member, outsider
):
    settings.UNKNOWN_INVITES_PER_HOUR = 3
    invite = invite_create(campaign=campaign, created_by=owner)
    assert open_invite(invite.token).status_code == 200
    for number in range(4):
        assert open_invite(f"guess-{number}").status_code == 404
    refused = open_invite(invite.token)
    assert refused.status_code == 429
    assert "Too many invite links that lead nowhere" in refused.content.decode()
    assert open_invite(invite.token, address="10.0.0.2").status_code == 200
