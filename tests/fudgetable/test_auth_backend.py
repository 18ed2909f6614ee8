"""fudgetable.auth_backend: a session is resolved by a read by key, with the checks Django's
ModelBackend makes; sessions signed in before it (naming ModelBackend) keep working, over HTTP
and over the table's socket; a wrong password is hashed once, not once per backend."""

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth import BACKEND_SESSION_KEY, authenticate
from django.contrib.auth.hashers import MD5PasswordHasher
from django.test import Client, RequestFactory
from django.urls import reverse

from characters.services import character_create
from fudgetable import auth_backend
from fudgetable.auth_backend import PersonByKeyBackend
from tests.factories import PASSWORD, UserFactory
from tests.table_sockets import answered, closed, joined, socket_for

pytestmark = pytest.mark.django_db
MODEL_BACKEND = "django.contrib.auth.backends.ModelBackend"


def signed_in_before(user) -> Client:
    """A browser whose session was signed in before this backend: it names ModelBackend."""
    client = Client()
    client.force_login(user, backend=MODEL_BACKEND)
    return client


def test_a_log_in_names_the_backend_that_reads_by_key():
    UserFactory(username="lou")
    client = Client()
    response = client.post(reverse("login"), {"username": "lou", "password": PASSWORD})
    assert response.status_code == 302
    assert client.session[BACKEND_SESSION_KEY] == auth_backend.PATH


@pytest.mark.parametrize("who", ["owner", "member", "outsider"])
def test_a_session_from_before_reads_the_table_as_a_new_one_does(
    campaign, client_for, who, request
):
    user = request.getfixturevalue(who)
    table = reverse("rolls:table", args=[campaign.pk])
    expected = 404 if who == "outsider" else 200
    assert signed_in_before(user).get(table).status_code == expected
    assert client_for(user).get(table).status_code == expected


@pytest.mark.parametrize("backend", [auth_backend.PATH, MODEL_BACKEND])
def test_an_account_deactivated_is_nobody_whichever_backend_signed_it_in(campaign, member, backend):
    client = Client()
    client.force_login(member, backend=backend)
    member.is_active = False
    member.save()
    response = client.get(reverse("rolls:table", args=[campaign.pk]))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_a_session_naming_no_such_person_is_nobody():
    backend = PersonByKeyBackend()
    assert backend.get_user("not-a-number") is None
    assert backend.get_user(10**9) is None
    lou = UserFactory(username="lou")
    assert backend.get_user(str(lou.pk)) == lou  # sessions keep the id as text


class CountingHasher(MD5PasswordHasher):
    """The suite's hasher, counting the passwords it checks."""

    checked = 0

    def verify(self, password, encoded):
        CountingHasher.checked += 1
        return super().verify(password, encoded)


def test_a_wrong_password_is_hashed_once(settings):
    settings.PASSWORD_HASHERS = [f"{__name__}.CountingHasher"]
    lou = UserFactory(username="lou")
    lou.set_password(PASSWORD)
    lou.save()
    asked = RequestFactory().post(reverse("login"))
    CountingHasher.checked = 0
    assert authenticate(asked, username="lou", password="wrong guess") is None
    assert CountingHasher.checked == 1
    assert authenticate(asked, username="lou", password=PASSWORD) == lou


def sheet_and_cookie(campaign, member, user):
    hero = character_create(campaign=campaign, owner=member, name="Louie")
    trait = hero.traits.order_by("position").first()
    client = signed_in_before(user)
    return trait, (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("who", ["owner", "member", "outsider"])
async def test_a_socket_from_before_rolls_as_a_new_one_does(campaign, member, who, request):
    user = await sync_to_async(request.getfixturevalue)(who)
    trait, cookie = await sync_to_async(sheet_and_cookie)(campaign, member, user)
    if who == "outsider":
        socket = socket_for(campaign, cookie)
        connected, _ = await socket.connect()
        assert not connected or await closed(socket)
        return
    socket = await joined(campaign, cookie)
    path = reverse("rolls:roll", args=[campaign.pk])
    data = {"kind": "check", "trait": trait.pk, "difficulty": "0"}
    answer = await answered(socket, path, data, 1)
    assert answer["status"] == 200 and "You rolled" in answer["body"]
    await socket.disconnect()
