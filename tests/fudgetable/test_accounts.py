import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.factories import PASSWORD, CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_sign_up_creates_an_account_and_logs_it_in(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newplayer",
            "password1": "a-long-fudge-phrase",
            "password2": "a-long-fudge-phrase",
        },
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    assert get_user_model().objects.filter(username="newplayer").exists()
    assert client.get(reverse("dashboard")).status_code == 200


def test_sign_up_follows_a_local_next_but_not_a_foreign_one(client):
    data = {
        "username": "a1",
        "password1": "a-long-fudge-phrase",
        "password2": "a-long-fudge-phrase",
    }
    response = client.post(reverse("signup"), {**data, "next": "/campaigns/7/"})
    assert response["Location"] == "/campaigns/7/"

    client.logout()
    data["username"] = "a2"
    response = client.post(reverse("signup"), {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("dashboard")


def test_sign_up_shows_clear_errors_and_saves_nothing(client):
    UserFactory(username="taken")
    response = client.post(
        reverse("signup"), {"username": "taken", "password1": "short", "password2": "other"}
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert "A user with that username already exists." in body
    assert "The two password fields didn" in body
    assert get_user_model().objects.filter(username="taken").count() == 1


def test_log_in_and_log_out(client):
    UserFactory(username="lou")
    response = client.post(reverse("login"), {"username": "lou", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")

    response = client.post(reverse("logout"))
    assert response.status_code == 302
    # Logged out, the home page is the front door again, not the campaigns.
    home = client.get(reverse("dashboard")).content.decode()
    assert "Your campaigns" not in home and reverse("login") in home


def test_log_in_with_a_wrong_password_says_so(client):
    UserFactory(username="lou")
    response = client.post(reverse("login"), {"username": "lou", "password": "nope"})
    assert response.status_code == 200
    assert "Please enter a correct username and password" in response.content.decode()


def test_change_password(client_for):
    user = UserFactory(username="lou")
    client = client_for(user)
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "another-fudge-phrase",
            "new_password2": "another-fudge-phrase",
        },
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("another-fudge-phrase")


def test_the_dashboard_is_for_the_logged_in_a_visitor_gets_the_front_door(client):
    response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    assert "front_door.html" in [t.name for t in response.templates]


def test_dashboard_lists_the_owners_campaign_as_gm(client_for, owner, campaign):
    body = client_for(owner).get(reverse("dashboard")).content.decode()
    assert "The Drowned Lighthouse" in body
    assert "GM" in body


def test_dashboard_lists_the_members_campaign_as_player(client_for, member, campaign):
    body = client_for(member).get(reverse("dashboard")).content.decode()
    assert "The Drowned Lighthouse" in body
    assert "Player" in body


def test_dashboard_hides_other_peoples_campaigns_from_an_outsider(client_for, outsider, campaign):
    CampaignFactory(owner=outsider, name="Outsider's own game")
    body = client_for(outsider).get(reverse("dashboard")).content.decode()
    assert "The Drowned Lighthouse" not in body
    assert "Outsider&#x27;s own game" in body


def test_dashboard_with_no_campaigns_says_how_to_get_one(client_for, outsider):
    body = client_for(outsider).get(reverse("dashboard")).content.decode()
    assert "not at any table yet" in body


def test_healthz_answers_ok(client):
    assert client.get(reverse("healthz")).content == b"ok"
