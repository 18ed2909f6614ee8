"""The e-mail address a forgotten password is reset through: changing it asks for the password
and tells the old address, and the new one is kept only once a link sent to it is followed.
Before, whoever held a logged-in session for a moment set their own address, asked for a reset
and owned the account. Mail goes through a real SMTP server on this machine (``inbox``)."""

import base64
import email
import email.policy
import json
import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

CONFIRM = re.compile(r"https?://[^/\s]+(/account/email/confirm/[^/\s]+/)")
RESET = re.compile(r"https?://[^/\s]+(/password/reset/[^/\s]+/[^/\s]+/)")


def to(message: str) -> str:
    return str(email.message_from_string(message, policy=email.policy.default)["To"])


def body(message: str) -> str:
    """The text as the person reads it (long lines arrive quoted-printable)."""
    parsed = email.message_from_string(message, policy=email.policy.default)
    return parsed.get_content()  # type: ignore[attr-defined]


@pytest.fixture
def louie(member):
    member.email = "louie@example.org"
    member.save()
    return member


def test_a_session_without_the_password_cannot_take_the_account(client_for, louie, inbox):
    """The takeover: set one's own address, ask for a reset. Neither step works any more."""
    thief = client_for(louie)
    refused = thief.post(reverse("account_email"), {"email": "thief@example.org"})
    assert refused.status_code == 422
    assert "This field is required." in refused.content.decode()
    wrong = thief.post(
        reverse("account_email"), {"email": "thief@example.org", "password": "a-guess"}
    )
    assert wrong.status_code == 422
    assert "That is not your password; your address is unchanged." in wrong.content.decode()
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"

    Client().post(reverse("password_reset"), {"email": "thief@example.org"})
    assert inbox.delivered() == []


def test_wrong_passwords_here_count_towards_log_in_s_lockout(client_for, louie, inbox):
    thief = client_for(louie)
    for _ in range(5):
        answer = thief.post(reverse("account_email"), {"email": "t@example.org", "password": "x"})
    assert answer.status_code == 429
    # Locked out, the right password changes nothing either.
    right = {"email": "t@example.org", "password": PASSWORD}
    assert thief.post(reverse("account_email"), right).status_code == 429
    assert inbox.delivered() == []


def test_a_new_address_is_kept_once_its_link_is_followed(client_for, louie, inbox):
    client = client_for(louie)
    data = {"email": "louie@new.example.org", "password": PASSWORD}
    asked = client.post(reverse("account_email"), data, follow=True).content.decode()
    assert "We sent louie@new.example.org a link to confirm it." in asked
    assert "A forgotten password is reset through <strong>louie@example.org</strong>" in asked
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"

    confirm, notice = (
        body(m) for m in sorted(inbox.delivered(), key=lambda m: to(m) != "louie@new.example.org")
    )
    assert "asked to make louie@new.example.org the e-mail address" in confirm
    assert "from louie@example.org to louie@new.example.org" in notice
    assert "change your password now" in notice
    assert "/account/email/confirm/" not in notice
    link = CONFIRM.search(confirm)
    assert link, confirm

    # Until then, a reset goes only to the address the account had.
    Client().post(reverse("password_reset"), {"email": "louie@new.example.org"})
    assert len(inbox.delivered()) == 2

    # Opening the link asks (mail scanners open links); the button confirms, from any browser.
    other_device = Client()
    page = other_device.get(link.group(1)).content.decode()
    assert "Make <strong>louie@new.example.org</strong> the address" in page
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"
    done = other_device.post(link.group(1), follow=True).content.decode()
    assert "louie@new.example.org is now the address of player-member." in done
    louie.refresh_from_db()
    assert louie.email == "louie@new.example.org"

    Client().post(reverse("password_reset"), {"email": "louie@new.example.org"})
    reset = inbox.delivered()[-1]
    assert to(reset) == "louie@new.example.org" and RESET.search(body(reset))

    # The link did its work once.
    again = Client().get(link.group(1))
    assert again.status_code == 400
    assert "This link no longer works" in again.content.decode()


def test_a_new_password_stops_a_link_sent_to_another_address(client_for, louie, inbox):
    """The old address was told; its owner changes the password, and the link is dead."""
    data = {"email": "thief@example.org", "password": PASSWORD}
    client_for(louie).post(reverse("account_email"), data)
    confirm = next(m for m in inbox.delivered() if to(m) == "thief@example.org")
    link = CONFIRM.search(body(confirm))
    assert link, body(confirm)
    louie.set_password("a-fresh-fudge-phrase")
    louie.save()
    assert Client().post(link.group(1)).status_code == 400
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"


def test_a_forged_or_altered_link_changes_nothing(client_for, louie, inbox):
    client_for(louie).post(
        reverse("account_email"), {"email": "louie@new.example.org", "password": PASSWORD}
    )
    mails = "".join(body(m) for m in inbox.delivered())
    link = CONFIRM.search(mails).group(1)  # type: ignore[union-attr]
    token = link.split("/")[-2]
    payload = json.loads(base64.urlsafe_b64decode(token.split(":")[0] + "=="))
    payload["email"] = "thief@example.org"
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=")
    altered = link.replace(token.split(":")[0], forged)
    for path in (altered, "/account/email/confirm/forged/", link[:-5] + "/"):
        answer = Client().post(path)
        assert answer.status_code in (400, 404), path
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"


def test_removing_the_address_asks_for_the_password_and_tells_it(client_for, louie, inbox):
    client = client_for(louie)
    same = client.post(
        reverse("account_email"), {"email": "Louie@example.org", "password": PASSWORD}, follow=True
    )
    assert "That is already your address: nothing changed." in same.content.decode()
    cleared = client.post(
        reverse("account_email"), {"email": "", "password": PASSWORD}, follow=True
    )
    assert "only this server&#x27;s operator can reset" in cleared.content.decode()
    louie.refresh_from_db()
    assert louie.email == ""
    [notice] = inbox.delivered()
    assert to(notice) == "louie@example.org"
    assert "removed the account's e-mail address, louie@example.org" in body(notice)


def test_a_bad_address_is_answered_in_words(client_for, louie, inbox):
    answer = client_for(louie).post(
        reverse("account_email"), {"email": "not an address", "password": PASSWORD}
    )
    assert answer.status_code == 422
    assert "Enter a valid email address." in answer.content.decode()
    assert inbox.delivered() == []


def test_only_the_account_itself_reaches_its_address(client, client_for, owner, louie, inbox):
    """Logged out, nothing; another account (the GM of Louie's campaign) changes its own."""
    answer = client.post(reverse("account_email"), {"email": "x@example.org", "password": "x"})
    assert answer.status_code == 302 and answer["Location"].startswith(reverse("login"))
    client_for(owner).post(
        reverse("account_email"), {"email": "gm@example.org", "password": PASSWORD}
    )
    [confirm] = inbox.delivered()
    assert to(confirm) == "gm@example.org" and "the account gm-owner" in body(confirm)
    louie.refresh_from_db()
    assert louie.email == "louie@example.org"


def test_sign_up_sends_the_address_a_link_before_keeping_it(client, inbox):
    password = "a-long-fudge-phrase"
    data = {"username": "newplayer", "password1": password, "password2": password}
    signed_up = client.post(reverse("signup"), {**data, "email": "new@example.org"}, follow=True)
    assert "We sent new@example.org a link to confirm it" in signed_up.content.decode()
    [confirm] = inbox.delivered()
    assert to(confirm) == "new@example.org"
    client.logout()
    data["username"] = "quietplayer"
    assert client.post(reverse("signup"), data).status_code == 302
    user_model = get_user_model()
    emails = dict(user_model.objects.values_list("username", "email"))
    assert emails == {"newplayer": "", "quietplayer": ""}

    Client().post(CONFIRM.search(body(confirm)).group(1))  # type: ignore[union-attr]
    assert user_model.objects.get(username="newplayer").email == "new@example.org"


def test_a_reset_answers_as_fast_for_an_account_as_for_none(settings, louie, inbox):
    """The mail goes out after the answer: with a mail server that takes a second to accept a
    message, a reset for an address with an account answered a second later than one for an
    address without one."""
    settings.RATELIMIT_ENABLE = False
    cache.clear()
    inbox.delay = 1.0
    times = {}
    for address in ("louie@example.org", "nobody@example.org"):
        started = time.monotonic()
        answer = Client().post(reverse("password_reset"), {"email": address})
        times[address] = time.monotonic() - started
        assert answer.status_code == 302
    assert times["louie@example.org"] < 0.5, times
    [reset] = inbox.delivered()
    assert to(reset) == "louie@example.org"


def test_a_person_asks_for_a_few_new_addresses_an_hour(settings, client_for, louie, inbox):
    """Each ask mails an address of the asker's choosing: the site is not a way to send mail."""
    settings.RATELIMIT_ENABLE = True
    settings.PASSWORD_RESETS_PER_HOUR = 2
    cache.clear()
    client = client_for(louie)
    for n in range(2):
        data = {"email": f"louie{n}@new.example.org", "password": PASSWORD}
        assert client.post(reverse("account_email"), data).status_code == 302
    refused = client.post(
        reverse("account_email"), {"email": "louie9@new.example.org", "password": PASSWORD}
    )
    assert refused.status_code == 429
    assert "Too many new addresses were asked for this hour." in refused.content.decode()
    assert len(inbox.delivered()) == 4  # two links, two notices to the old address
