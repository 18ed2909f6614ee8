"""The pages that ask for a password again (a new password, deleting the account) are throttled
as log-in is, on the same count: 30 wrong current passwords were answered one by one, and then
the right one changed it."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

NEW = "a-longer-Passphrase-9"
PEOPLE = ["owner", "member", "outsider"]


def browser(user: User, address: str = "198.51.100.7") -> Client:
    client = Client(REMOTE_ADDR=address)
    client.force_login(user)
    return client


def change_password(client: Client, old: str):
    data = {"old_password": old, "new_password1": NEW, "new_password2": NEW}
    return client.post(reverse("password_change"), data)


def delete_account(client: Client, password: str):
    data = {"characters": "to-gm", "password": password}
    return client.post(reverse("account_delete"), data)


@pytest.mark.parametrize("person", PEOPLE)
def test_five_wrong_current_passwords_pause_the_password_page(person, request):
    user = request.getfixturevalue(person)
    client = browser(user)
    for _ in range(4):
        response = change_password(client, "wrong")
        assert response.status_code == 200
        assert response.context["form"].errors["old_password"]
    assert change_password(client, "wrong").status_code == 429
    response = change_password(client, PASSWORD)
    assert response.status_code == 429
    assert "Try again in 15 minutes." in " ".join(response.content.decode().split())
    user.refresh_from_db()
    assert user.check_password(PASSWORD) and not user.check_password(NEW)


@pytest.mark.parametrize("person", ["member", "outsider"])
def test_five_wrong_passwords_pause_deleting_the_account(person, request):
    user = request.getfixturevalue(person)
    client = browser(user)
    for _ in range(4):
        assert delete_account(client, "wrong").status_code == 422
    assert delete_account(client, "wrong").status_code == 429
    assert delete_account(client, PASSWORD).status_code == 429
    assert User.objects.filter(pk=user.pk).exists()


def test_the_password_pages_and_log_in_share_one_count(member):
    client = browser(member)
    for _ in range(3):
        change_password(client, "wrong")
    delete_account(client, "wrong")
    log_in = Client(REMOTE_ADDR="198.51.100.7").post(
        reverse("login"), {"username": member.username, "password": "wrong"}
    )
    assert log_in.status_code == 429


def test_the_right_password_still_changes_it_and_other_addresses_are_not_paused(owner):
    for _ in range(5):
        change_password(browser(owner, "203.0.113.9"), "wrong")
    assert change_password(browser(owner), PASSWORD).status_code == 302
    owner.refresh_from_db()
    assert owner.check_password(NEW)
