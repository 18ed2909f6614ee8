"""A forgotten password: reset by e-mail through Django's own views, sent through a real SMTP
server (aiosmtpd, on this machine), or given back by the operator with `manage.py reset_link`.
Either way the person chooses the new password and is logged in with it, once."""

import email
import email.policy
import re

import pytest
from axes.models import AccessAttempt
from django.core.cache import cache
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "a-brand-new-fudge-phrase"
LINK = re.compile(r"https?://[^/\s]+(/password/reset/[^/\s]+/[^/\s]+/)")


def body(message: str) -> str:
    """The text as the person reads it: long lines arrive quoted-printable, wrapped, so the
    link is looked for in the decoded text (a 4-digit user pk made the raw one break)."""
    parsed = email.message_from_string(message, policy=email.policy.default)
    return parsed.get_content()  # type: ignore[attr-defined]


def choose_new_password(client: Client, path: str):
    """Opens the link (Django moves the token out of the address) and sets the password."""
    opened = client.get(path, follow=True)
    assert "Choose a new password" in opened.content.decode()
    data = {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD}
    return client.post(opened.redirect_chain[-1][0], data, follow=True)


def test_a_member_resets_a_forgotten_password_by_e_mail(member, inbox):
    member.email = "louie@example.org"
    member.save()
    client = Client()
    asked = client.post(reverse("password_reset"), {"email": "Louie@example.org"}, follow=True)
    assert "Check your e-mail" in asked.content.decode()
    [message] = inbox.delivered()
    assert "To: louie@example.org" in message
    assert "Subject: Choose a new password at testserver" in message
    text = body(message)
    assert "player-member" in text
    link = LINK.search(text)
    assert link, text

    done = choose_new_password(client, link.group(1))
    assert "You are logged in as <strong>player-member</strong>" in done.content.decode()
    member.refresh_from_db()
    assert member.check_password(NEW_PASSWORD) and not member.check_password(PASSWORD)
    # The link works once.
    again = Client().get(link.group(1), follow=True).content.decode()
    assert "This link no longer works" in again


def test_an_address_no_account_has_gets_the_same_answer_and_no_e_mail(owner, outsider, inbox):
    answer = Client().post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert answer.status_code == 302 and answer["Location"] == reverse("password_reset_done")
    assert inbox.delivered() == []


def test_an_address_asking_too_often_is_answered_429_in_words(settings, member, inbox):
    settings.RATELIMIT_ENABLE = True
    settings.PASSWORD_RESETS_PER_HOUR = 2
    cache.clear()
    member.email = "louie@example.org"
    member.save()
    client = Client(REMOTE_ADDR="10.0.0.7")
    for _ in range(2):
        assert client.post(reverse("password_reset"), {"email": member.email}).status_code == 302
    refused = client.post(reverse("password_reset"), {"email": member.email})
    assert refused.status_code == 429
    assert "Too many new passwords were asked for" in refused.content.decode()
    assert len(inbox.delivered()) == 2


def test_the_operator_gives_an_account_back_with_a_link(settings, member, capsys):
    settings.SITE_URL = "https://table.example.org"
    member.set_unusable_password()  # e.g. a demo login locked on a server others reach
    member.save()
    for _ in range(5):
        Client().post(reverse("login"), {"username": "player-member", "password": "wrong"})
    assert AccessAttempt.objects.filter(username="player-member").exists()

    call_command("reset_link", "player-member")
    said = capsys.readouterr().out
    assert "Send player-member this link. It works once, within 3 days" in said
    assert "Log-in for player-member was paused after wrong passwords; it is open again." in said
    assert not AccessAttempt.objects.filter(username="player-member").exists()
    link = LINK.search(said)
    assert link and said.count("https://table.example.org/password/reset/") == 1

    client = Client()
    done = choose_new_password(client, link.group(1))
    assert "You are logged in as <strong>player-member</strong>" in done.content.decode()
    client.logout()
    logged_in = client.post(
        reverse("login"), {"username": "player-member", "password": NEW_PASSWORD}
    )
    assert logged_in.status_code == 302


def test_reset_link_names_what_it_cannot_give_back(owner, outsider):
    with pytest.raises(CommandError, match="No account is called nobody"):
        call_command("reset_link", "nobody")
    outsider.is_active = False
    outsider.save()
    with pytest.raises(CommandError, match="deactivated: activate it in the admin"):
        call_command("reset_link", "outsider")


def test_nobody_logged_out_keeps_an_e_mail_address(client):
    answer = client.post(reverse("account_email"), {"email": "x@example.org"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))


def test_the_log_in_and_locked_out_pages_lead_to_a_new_password(client, member):
    assert reverse("password_reset") in client.get(reverse("login")).content.decode()
    for _ in range(5):
        locked = client.post(reverse("login"), {"username": "player-member", "password": "no"})
    assert locked.status_code == 429
    assert f'<a href="{reverse("password_reset")}">Choose a new one by e-mail</a>' in (
        locked.content.decode()
    )
