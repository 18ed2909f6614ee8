"""The front door at `/` for a visitor not logged in, and an invite link that says whose
campaign it is before asking anyone for an account."""

import pytest
from django.urls import reverse

from campaigns.models import Invite
from campaigns.services import invite_create
from campaigns.views import PENDING_INVITE
from tests.factories import PASSWORD, UserFactory

pytestmark = pytest.mark.django_db

GAMES = ["Fudge (1995)", "Fudge Lite", "EZFudge", "Fate's Fudge edition", "Peupfudge"]


# --- the front door --------------------------------------------------------------------


def test_a_visitor_sees_what_fudgetable_is_and_the_way_in(client):
    response = client.get(reverse("dashboard"))
    assert response.status_code == 200
    assert response.templates[0].name == "front_door.html"
    body = response.content.decode()
    for game in GAMES:
        assert game in body
    assert "virtual tabletop" in body
    assert f'href="{reverse("login")}">Log in</a>' in body
    assert f'href="{reverse("signup")}">Sign up</a>' in body
    assert 'src="/static/img/demo-table.webp" width="1280" height="1400" alt="The table' in body


def test_a_logged_in_player_still_gets_the_dashboard(client_for, member, campaign):
    response = client_for(member).get(reverse("dashboard"))
    assert response.status_code == 200
    body = response.content.decode()
    assert "Your campaigns" in body
    assert "The Drowned Lighthouse" in body
    assert "front-door" not in body


def test_the_log_in_page_says_what_the_site_is(client):
    body = client.get(reverse("login")).content.decode()
    assert "virtual tabletop for the Fudge family" in body
    assert f'href="{reverse("signup")}">Sign up</a>' in body


# --- the invite link -------------------------------------------------------------------


def test_a_visitor_sees_whose_campaign_and_its_rules_before_signing_up(client, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    join = reverse("join", args=[invite.token])
    response = client.get(join)
    assert response.status_code == 200
    body = response.content.decode()
    assert "Run by gm-owner · Rules: Fudge Lite" in body
    assert "played on FudgeTable, a virtual tabletop for the Fudge family" in body
    assert f'href="{reverse("signup")}?next={join}">Sign up and join</a>' in body
    assert f'href="{reverse("login")}?next={join}">Log in and join</a>' in body


def test_an_outsider_sees_whose_campaign_and_joins_as_themselves(
    client_for, outsider, owner, campaign
):
    invite = invite_create(campaign=campaign, created_by=owner)
    body = client_for(outsider).get(reverse("join", args=[invite.token])).content.decode()
    assert "Run by gm-owner" in body
    assert "Join as outsider" in body
    assert "Sign up and join" not in body


@pytest.mark.parametrize(("who", "role"), [("owner", "GM"), ("member", "Player")])
def test_someone_already_at_the_table_is_told_so_not_offered_a_join(
    request, client_for, owner, campaign, who, role
):
    invite = invite_create(campaign=campaign, created_by=owner)
    body = client_for(request.getfixturevalue(who)).get(reverse("join", args=[invite.token]))
    text = body.content.decode()
    assert "Run by gm-owner" in text
    assert f"You are already at this table, as {role}." in text
    assert reverse("campaigns:detail", args=[campaign.pk]) in text
    assert "Join as" not in text


def test_a_used_up_link_names_whom_to_ask_for_a_new_one(client, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    Invite.objects.filter(pk=invite.pk).update(max_uses=1, uses=1)
    response = client.get(reverse("join", args=[invite.token]))
    assert response.status_code == 410
    body = response.content.decode()
    assert "used up" in body
    assert "Ask gm-owner, who runs The Drowned Lighthouse, for a new link." in body


def test_an_unknown_link_says_so_and_names_no_campaign(client, campaign):
    response = client.get(reverse("join", args=["nope"]))
    assert response.status_code == 404
    body = response.content.decode()
    assert "This invite link is not valid." in body
    assert "The Drowned Lighthouse" not in body


# --- back to the campaign after signing up or logging in --------------------------------


def test_the_sign_up_and_log_in_pages_carry_the_way_back_to_the_link(client, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    join = reverse("join", args=[invite.token])
    for page, other in [("signup", "login"), ("login", "signup")]:
        body = client.get(f"{reverse(page)}?next={join}").content.decode()
        assert f'<input type="hidden" name="next" value="{join}">' in body
        assert f'href="{reverse(other)}?next={join}"' in body


def test_signing_up_from_the_link_lands_in_the_campaign(client, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    join = reverse("join", args=[invite.token])
    client.get(join)
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "a-long-fudge-phrase",
            "password2": "a-long-fudge-phrase",
            "next": join,
        },
    )
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.memberships.filter(user__username="newbie", role="player").exists()


def test_without_the_remembered_invite_the_next_brings_the_person_back_to_the_link(
    client, owner, campaign
):
    # A session that lost the invite (another link opened since, say) still returns the
    # person to the link, where one tap joins.
    UserFactory(username="returning")
    invite = invite_create(campaign=campaign, created_by=owner)
    join = reverse("join", args=[invite.token])
    client.get(join)
    session = client.session
    del session[PENDING_INVITE]
    session.save()
    response = client.post(
        reverse("login"), {"username": "returning", "password": PASSWORD, "next": join}
    )
    assert response["Location"] == join
    assert not campaign.memberships.filter(user__username="returning").exists()
    assert "Join as returning" in client.get(join).content.decode()
