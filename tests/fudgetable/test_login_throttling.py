"""Log-in throttling (django-axes): after five wrong passwords for one username from one
address, or from one address for any, log-in is refused there for a while, with the wait in
words, before any password is hashed. Players already at the table carry on, and a stranger's
wrong guesses lock nobody out of their own address."""

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-fudge-phrase"


@pytest.fixture
def lou(db):
    user = UserFactory(username="lou")
    user.set_password(PASSWORD)
    user.save()
    return user


def log_in(username: str, password: str, address: str = "127.0.0.1", **headers):
    client = Client(REMOTE_ADDR=address, **headers)
    response = client.post(reverse("login"), {"username": username, "password": password})
    return client, response


def logged_in(client: Client) -> bool:
    return "_auth_user_id" in client.session


def test_five_wrong_passwords_lock_the_username_and_the_page_says_for_how_long(lou):
    for _ in range(4):
        _, response = log_in("lou", "wrong")
        assert response.status_code == 200
        assert "Please enter a correct username and password" in response.content.decode()
    _, response = log_in("lou", "wrong")
    assert response.status_code == 429
    client, response = log_in("lou", PASSWORD)
    assert response.status_code == 429
    page = " ".join(response.content.decode().split())
    assert "after 5 wrong passwords in a row" in page and "Try again in 15 minutes." in page
    assert not logged_in(client)


def test_a_stranger_cannot_lock_a_named_person_out_from_everywhere(lou):
    """Five wrong log-ins for a GM's name locked that GM out from everywhere: now only the
    address they came from is refused, for that name and every other."""
    for _ in range(5):
        log_in("lou", "wrong", address="203.0.113.66")
    client, response = log_in("lou", PASSWORD, address="203.0.113.66")
    assert response.status_code == 429 and not logged_in(client)
    client, response = log_in("lou", PASSWORD, address="10.9.9.9")
    assert response.status_code == 302 and logged_in(client)


def test_one_address_is_locked_for_every_username(lou):
    for number in range(5):
        log_in(f"guess-{number}", "wrong", address="10.0.0.66")
    client, response = log_in("lou", PASSWORD, address="10.0.0.66")
    assert response.status_code == 429 and not logged_in(client)
    client, response = log_in("lou", PASSWORD, address="10.0.0.67")
    assert response.status_code == 302 and logged_in(client)


def test_a_good_log_in_clears_the_count(lou):
    for _ in range(4):
        log_in("lou", "wrong")
    assert logged_in(log_in("lou", PASSWORD)[0])
    for _ in range(4):
        log_in("lou", "wrong")
    assert logged_in(log_in("lou", PASSWORD)[0])


def test_the_admins_command_unlocks_a_username(lou):
    for _ in range(5):
        log_in("lou", "wrong")
    call_command("axes_reset_username", "lou")
    client, response = log_in("lou", PASSWORD)
    assert response.status_code == 302 and logged_in(client)


def test_the_table_carries_on_for_those_at_it_during_a_lockout(
    lou, client_for, owner, member, outsider, campaign
):
    for username in ("gm-owner", "player-member", "outsider"):
        for _ in range(5):
            log_in(username, "wrong")
    table = reverse("rolls:table", args=[campaign.pk])
    assert client_for(owner).get(table).status_code == 200
    assert client_for(member).get(table).status_code == 200
    assert client_for(outsider).get(table).status_code == 404


def test_a_forwarded_address_is_ignored_unless_a_proxy_is_configured(lou, settings):
    settings.BEHIND_TLS_PROXY = False
    for number in range(5):
        log_in(f"guess-{number}", "wrong", HTTP_X_FORWARDED_FOR=f"203.0.113.{number}")
    _, response = log_in("lou", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.99")
    assert response.status_code == 429  # one socket address, whatever the header claimed


def test_behind_the_proxy_the_address_it_saw_counts(lou, settings):
    settings.BEHIND_TLS_PROXY = True
    # The proxy appends the address it saw; anything before it came from the client.
    for number in range(5):
        log_in(f"guess-{number}", "wrong", HTTP_X_FORWARDED_FOR=f"1.2.3.4, 198.51.100.{number}")
    client, response = log_in("lou", PASSWORD, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.50")
    assert response.status_code == 302 and logged_in(client)
    for _ in range(5):
        log_in("guess", "wrong", HTTP_X_FORWARDED_FOR="198.51.100.7")
    _, response = log_in("lou", PASSWORD, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7")
    assert response.status_code == 429
