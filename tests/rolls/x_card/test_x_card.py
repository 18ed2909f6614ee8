"""The X-card: any member, observers too, taps it; every screen at the table shows that it was
tapped and nobody's screen shows by whom. Nothing is written and nothing is logged."""

import logging

import pytest
from asgiref.sync import sync_to_async
from django.apps import apps
from django.urls import reverse

from campaigns.models import Membership
from characters.services import character_create
from tests.factories import MembershipFactory, UserFactory
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
BANNER = "The X-card was tapped"
USERNAMES = ("gm-owner", "player-member", "table-observer")


@pytest.fixture
def observer(campaign):
    user = UserFactory(username="table-observer")
    MembershipFactory(campaign=campaign, user=user, role=Membership.Role.OBSERVER)
    return user


def tap(client, campaign, data=None, *, follow=False, **headers):
    url = reverse("rolls:x_card", args=[campaign.pk])
    return client.post(url, data or {}, headers=headers, follow=follow)


def row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


@pytest.mark.parametrize("who", ["owner", "member", "observer"])
def test_any_member_may_tap_the_x_card(request, client_for, campaign, observer, who):
    response = tap(client_for(request.getfixturevalue(who)), campaign, **HX)
    assert response.status_code == 200
    text = response.content.decode()
    assert BANNER in text and '<form method="dialog">' in text
    assert not any(name in text for name in USERNAMES)


def test_an_outsider_gets_404_for_the_x_card(client_for, outsider, campaign):
    assert tap(client_for(outsider), campaign, **HX).status_code == 404


def test_the_x_card_takes_only_a_post(client_for, member, campaign):
    url = reverse("rolls:x_card", args=[campaign.pk])
    assert client_for(member).get(url).status_code == 405


def test_a_tap_writes_nothing_and_logs_nothing(client_for, member, campaign, caplog):
    client = client_for(member)
    before = row_counts()
    with caplog.at_level(logging.DEBUG):
        assert tap(client, campaign, **HX).status_code == 200
    assert row_counts() == before
    # The app logs nothing, and nothing logged (a library's debug line) names the tapper.
    ours = ("campaigns", "characters", "rolls", "fudgetable", "django.request", "daphne")
    leaked = [
        record.getMessage()
        for record in caplog.records
        if record.name.startswith(ours) or member.get_username() in record.getMessage()
    ]
    assert leaked == []


def test_without_javascript_a_tap_goes_back_to_the_table_saying_so(client_for, member, campaign):
    response = tap(client_for(member), campaign, follow=True)
    assert response.redirect_chain == [(reverse("rolls:table", args=[campaign.pk]), 302)]
    assert "The X-card was tapped" in response.content.decode()


def test_from_a_sheet_a_tap_goes_back_to_the_sheet(client_for, member, campaign):
    hero = character_create(campaign=campaign, owner=member, name="Louie")
    sheet = reverse("characters:sheet", args=[campaign.pk, hero.pk])
    assert tap(client_for(member), campaign, {"next": sheet}).url == sheet
    unsafe = tap(client_for(member), campaign, {"next": "https://evil.example/"})
    assert unsafe.url == reverse("rolls:table", args=[campaign.pk])


@pytest.mark.parametrize("who", ["owner", "member", "observer"])
def test_the_table_page_always_offers_the_x_card(request, client_for, campaign, observer, who):
    page = client_for(request.getfixturevalue(who)).get(reverse("rolls:table", args=[campaign.pk]))
    assert "x-card-button" in page.content.decode()


def test_the_sheet_page_offers_the_x_card(client_for, owner, member, outsider, campaign):
    hero = character_create(campaign=campaign, owner=member, name="Louie")
    sheet = reverse("characters:sheet", args=[campaign.pk, hero.pk])
    for user in (owner, member):
        assert "x-card-button" in client_for(user).get(sheet).content.decode()
    assert client_for(outsider).get(sheet).status_code == 404


# --- the socket ------------------------------------------------------------------------------


@pytest.fixture
def clients(client_for, owner, member, observer):
    return {"owner": client_for(owner), "member": client_for(member)}


@pytest.mark.django_db(transaction=True)
async def test_every_screen_sees_the_tap_and_nobody_sees_who(clients, campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await until(gm, "player-member")  # the player's arrival
    url = reverse("rolls:x_card", args=[campaign.pk])
    await sync_to_async(clients["member"].post)(url, headers=HX)
    gm_frame = (await until(gm, BANNER))[-1]
    player_frame = (await until(player, BANNER))[-1]
    assert gm_frame == player_frame  # one fragment for everyone: nothing per person
    assert 'id="x-card"' in gm_frame and 'hx-swap-oob="true"' in gm_frame
    assert not any(name in gm_frame for name in USERNAMES)
    await sync_to_async(clients["owner"].post)(url, headers=HX)
    again = (await until(player, BANNER))[-1]
    assert not any(name in again for name in USERNAMES)
    for socket in (gm, player):
        await socket.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_an_outsider_never_hears_the_x_card_and_a_reconnect_does_not_replay_it(
    clients, campaign, cookies
):
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    url = reverse("rolls:x_card", args=[campaign.pk])
    await sync_to_async(clients["member"].post)(url, headers=HX)
    later = socket_for(campaign, cookies["owner"])
    assert (await later.connect())[0]
    state = "".join(await until(later, 'id="presence"'))
    assert BANNER not in state  # nothing was kept to replay
    await later.disconnect()
