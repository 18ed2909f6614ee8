"""The spotlight: the GM moves it to a PC or to nobody, players raise and lower a hand, every
screen shows the holder and who is waiting, and only GMs see the controls and each PC's
share of the session (which the recap then shows to everyone)."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Membership
from characters.services import character_create
from rolls.models import PlaySession, Spotlight, SpotlightSpan
from rolls.sessions import services as sessions
from rolls.spotlight import services as spotlight
from rolls.table.state import table_state
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
GM_ONLY = ("Move it to", "Share of the spotlight", "/table/spotlight/move/")


@pytest.fixture
def hero(campaign, member):
    return character_create(campaign=campaign, owner=member, name="Louie")


@pytest.fixture
def rival(campaign):
    user = UserFactory(username="second-player")
    MembershipFactory(campaign=campaign, user=user)
    return user, character_create(campaign=campaign, owner=user, name="Marla")


@pytest.fixture
def observer(campaign):
    user = UserFactory(username="table-observer")
    MembershipFactory(campaign=campaign, user=user, role=Membership.Role.OBSERVER)
    return user


@pytest.fixture
def session(campaign):
    return sessions.session_start(campaign=campaign)


def url(name: str, campaign) -> str:
    return reverse(f"rolls:{name}", args=[campaign.pk])


def move(client, campaign, character="", **headers):
    return client.post(url("spotlight_move", campaign), {"character": character}, headers=headers)


def holder(campaign):
    current = Spotlight.objects.filter(campaign=campaign).first()
    return current.character if current else None


# --- moving the spotlight ------------------------------------------------------------------


def test_the_gm_moves_the_spotlight_to_a_pc(client_for, owner, campaign, hero, session):
    response = move(client_for(owner), campaign, hero.pk, **HX)
    assert response.status_code == 200
    assert "The spotlight is on <strong>Louie</strong>" in response.content.decode()
    assert holder(campaign) == hero
    span = SpotlightSpan.objects.get()
    assert (span.session, span.character, span.ended_at) == (session, hero, None)


def test_a_player_may_not_move_the_spotlight(client_for, member, campaign, hero):
    assert move(client_for(member), campaign, hero.pk, **HX).status_code == 403
    assert not Spotlight.objects.filter(campaign=campaign, character__isnull=False).exists()


def test_an_outsider_gets_404_for_moving_the_spotlight(client_for, outsider, campaign, hero):
    assert move(client_for(outsider), campaign, hero.pk, **HX).status_code == 404


def test_moving_it_to_nobody_ends_the_stretch(client_for, owner, campaign, hero, session):
    gm = client_for(owner)
    move(gm, campaign, hero.pk, **HX)
    response = move(gm, campaign, "", **HX)
    assert "Nobody holds the spotlight." in response.content.decode()
    assert holder(campaign) is None
    assert SpotlightSpan.objects.get().ended_at is not None


def test_each_move_ends_one_stretch_and_starts_the_next(
    client_for, owner, campaign, hero, rival, session
):
    gm = client_for(owner)
    move(gm, campaign, hero.pk)
    move(gm, campaign, rival[1].pk)
    first, second = SpotlightSpan.objects.order_by("pk")
    assert first.character == hero and first.ended_at == second.started_at
    assert second.character == rival[1] and second.ended_at is None


def test_without_a_session_the_spotlight_moves_but_no_time_is_counted(
    client_for, owner, campaign, hero
):
    response = move(client_for(owner), campaign, hero.pk, **HX)
    assert "counted while a session runs" in response.content.decode()
    assert holder(campaign) == hero and not SpotlightSpan.objects.exists()


@pytest.mark.parametrize("character", ["999999", "abc", "9" * 18])
def test_an_unknown_character_is_refused_in_words(client_for, owner, campaign, character):
    response = move(client_for(owner), campaign, character, **HX)
    assert response.status_code == 422 and "not in this campaign" in response.content.decode()
    assert response["Content-Type"].startswith("text/plain")  # the page's notice shows it
    assert holder(campaign) is None


def test_an_id_longer_than_any_is_refused_at_the_door_in_words(client_for, owner, campaign):
    response = move(client_for(owner), campaign, "9" * 23, **HX)
    assert response.status_code == 400 and "more than 18 digits" in response.content.decode()
    assert response["Content-Type"].startswith("text/plain")
    assert holder(campaign) is None


def test_an_npc_or_another_campaigns_pc_is_refused(client_for, owner, campaign, hero):
    npc = character_create(campaign=campaign, owner=None, name="Zanzibar Quell", kind="npc")
    elsewhere = CampaignFactory(owner=owner)
    stranger = character_create(campaign=elsewhere, owner=owner, name="Stranger")
    gm = client_for(owner)
    for character in (npc, stranger):
        assert move(gm, campaign, character.pk, **HX).status_code == 422
    assert holder(campaign) is None


def test_without_javascript_a_move_redirects_to_the_table(client_for, owner, campaign, hero):
    response = move(client_for(owner), campaign, hero.pk)
    assert response.status_code == 302 and response.url == reverse(
        "rolls:table", args=[campaign.pk]
    )
    response = client_for(owner).post(
        url("spotlight_move", campaign), {"character": "nope"}, follow=True
    )
    assert "not in this campaign" in response.content.decode()


# --- hands -----------------------------------------------------------------------------------


def test_a_player_raises_and_lowers_a_hand(client_for, member, campaign, hero):
    player = client_for(member)
    response = player.post(url("hand_raise", campaign), headers=HX)
    assert response.status_code == 200 and "Lower my hand" in response.content.decode()
    assert Spotlight.objects.get(campaign=campaign).hands == [member.pk]
    response = player.post(url("hand_lower", campaign), headers=HX)
    assert response.status_code == 200 and "Raise my hand" in response.content.decode()
    assert Spotlight.objects.get(campaign=campaign).hands == []


@pytest.mark.parametrize("verb", ["hand_raise", "hand_lower"])
def test_the_gm_hands_out_the_spotlight_rather_than_raising_a_hand(
    client_for, owner, campaign, verb
):
    assert client_for(owner).post(url(verb, campaign), headers=HX).status_code == 403


@pytest.mark.parametrize("verb", ["hand_raise", "hand_lower"])
def test_an_outsider_gets_404_for_a_hand(client_for, outsider, campaign, verb):
    assert client_for(outsider).post(url(verb, campaign), headers=HX).status_code == 404


@pytest.mark.parametrize("verb", ["hand_raise", "hand_lower"])
def test_an_observer_may_not_raise_or_lower_a_hand(client_for, observer, campaign, verb):
    assert client_for(observer).post(url(verb, campaign), headers=HX).status_code == 403
    assert not Spotlight.objects.filter(campaign=campaign).exclude(hands=[]).exists()


def test_hands_wait_in_the_order_they_went_up_and_once_each(
    client_for, owner, member, campaign, hero, rival
):
    second, _ = rival
    for user in (second, member, second):
        client_for(user).post(url("hand_raise", campaign))
    response = client_for(owner).get(url("spotlight", campaign), headers=HX)
    text = response.content.decode()
    assert text.index("second-player (Marla)") < text.index("player-member (Louie)")
    assert text.count("second-player") == 1


def test_the_spotlight_lowers_its_new_holders_hand(client_for, owner, member, campaign, hero):
    client_for(member).post(url("hand_raise", campaign))
    move(client_for(owner), campaign, hero.pk)
    assert Spotlight.objects.get(campaign=campaign).hands == []


def test_a_hand_of_someone_who_left_no_longer_waits(client_for, member, campaign):
    client_for(member).post(url("hand_raise", campaign))
    Membership.objects.filter(campaign=campaign, user=member).delete()
    assert spotlight.spotlight_state(campaign, gm_view=True).waiting == []


def test_each_persons_table_state_brings_their_own_hand_control(
    client_for, owner, member, observer, campaign
):
    client_for(member).post(url("hand_raise", campaign))
    states = {
        user: table_state(Membership.objects.get(campaign=campaign, user=user), seq=1)[0]
        for user in (owner, member, observer)
    }
    assert '<form id="hand" hx-swap-oob="true"' in states[member]
    assert "Lower my hand" in states[member]
    for user in (owner, observer):
        assert '<div id="hand" hx-swap-oob="true" hidden>' in states[user]
        assert "my hand" not in states[user]


def test_without_javascript_a_hand_redirects_to_the_table(client_for, member, campaign):
    response = client_for(member).post(url("hand_raise", campaign))
    assert response.status_code == 302
    assert Spotlight.objects.get(campaign=campaign).hands == [member.pk]


# --- what each person sees -------------------------------------------------------------------


def test_everyone_sees_the_holder_and_the_waiting_but_only_gms_the_controls(
    client_for, owner, member, outsider, observer, campaign, hero, session
):
    client_for(member).post(url("hand_raise", campaign))
    move(client_for(owner), campaign, hero.pk)
    client_for(member).post(url("hand_raise", campaign))
    table = reverse("rolls:table", args=[campaign.pk])
    gm_page = client_for(owner).get(table).content.decode()
    for text in ("The spotlight is on <strong>Louie</strong>", "player-member (Louie)", *GM_ONLY):
        assert text in gm_page
    for user in (member, observer):
        page = client_for(user).get(table).content.decode()
        assert "The spotlight is on <strong>Louie</strong>" in page
        assert "player-member (Louie)" in page
        assert not any(text in page for text in GM_ONLY)
    assert "Lower my hand" in client_for(member).get(table).content.decode()
    assert "my hand" not in client_for(observer).get(table).content.decode()
    assert "my hand" not in gm_page
    assert client_for(outsider).get(table).status_code == 404


def test_the_section_view_serves_each_its_own_version(
    client_for, owner, member, outsider, campaign
):
    gm = client_for(owner).get(url("spotlight", campaign), headers=HX).content.decode()
    player = client_for(member).get(url("spotlight", campaign), headers=HX).content.decode()
    assert all(text in gm for text in GM_ONLY[:1])
    assert 'id="spotlight"' in player and not any(text in player for text in GM_ONLY)
    assert client_for(outsider).get(url("spotlight", campaign), headers=HX).status_code == 404
    assert client_for(member).get(url("spotlight", campaign)).status_code == 302


def test_the_gm_sees_each_pcs_share_of_the_session(
    client_for, owner, campaign, hero, rival, session
):
    now = timezone.now()
    SpotlightSpan.objects.create(
        session=session,
        character=hero,
        started_at=now - timedelta(minutes=30),
        ended_at=now - timedelta(minutes=10),
    )
    SpotlightSpan.objects.create(
        session=session, character=rival[1], started_at=now - timedelta(minutes=10)
    )
    shares = {
        share.name: (share.percent, share.held) for share in spotlight.session_shares(session)
    }
    assert shares == {"Louie": (67, "20 min"), "Marla": (33, "10 min")}
    page = client_for(owner).get(url("spotlight", campaign), headers=HX).content.decode()
    assert "Louie: <strong>67%</strong>" in page and "Marla: <strong>33%</strong>" in page


def test_a_pc_who_never_held_it_has_a_share_of_0(client_for, owner, campaign, hero, rival, session):
    move(client_for(owner), campaign, hero.pk)
    shares = {share.name: share.percent for share in spotlight.session_shares(session)}
    assert shares["Marla"] == 0


# --- the end of a session and its recap ------------------------------------------------------


def test_ending_the_session_closes_the_stretch_and_clears_the_spotlight(
    client_for, owner, member, campaign, hero, session
):
    gm = client_for(owner)
    move(gm, campaign, hero.pk)
    client_for(member).post(url("hand_raise", campaign))
    gm.post(reverse("rolls:session_end", args=[campaign.pk]))
    session.refresh_from_db()
    span = SpotlightSpan.objects.get()
    assert span.ended_at == session.ended_at
    current = Spotlight.objects.get(campaign=campaign)
    assert (current.character, current.hands) == (None, [])


def test_the_recap_shows_the_shares_to_every_member(
    client_for, owner, member, outsider, campaign, hero, rival, session
):
    now = timezone.now()
    for character, minutes in ((hero, 45), (rival[1], 15)):
        SpotlightSpan.objects.create(
            session=session,
            character=character,
            started_at=now - timedelta(minutes=minutes),
            ended_at=now,
        )
    sessions.session_end(session=session)
    recap = reverse("rolls:recap", args=[campaign.pk, session.number])
    for user in (owner, member):
        page = client_for(user).get(recap).content.decode()
        assert "Louie: <strong>75%</strong>" in page and "Marla: <strong>25%</strong>" in page
    assert client_for(outsider).get(recap).status_code == 404


def test_a_later_session_counts_only_its_own_time(client_for, owner, campaign, hero, session):
    gm = client_for(owner)
    move(gm, campaign, hero.pk)
    sessions.session_end(session=session)
    later = sessions.session_start(campaign=campaign)
    assert PlaySession.objects.count() == 2
    assert [s.seconds for s in spotlight.session_shares(later)] == [0]


def test_each_command_announces_its_event_with_a_gm_version(monkeypatch, campaign, member, hero):
    events = []

    def publish(campaign_id, event, *, everyone, gm=None):
        events.append((event, "Move it to" in everyone, "Move it to" in gm))

    monkeypatch.setattr(spotlight.live, "publish", publish)
    spotlight.hand_raise(campaign=campaign, user=member)
    spotlight.hand_lower(campaign=campaign, user=member)
    spotlight.spotlight_move(campaign=campaign, character=hero)
    assert events == [
        ("hand.raised", False, True),
        ("hand.lowered", False, True),
        ("spotlight.moved", False, True),
    ]
