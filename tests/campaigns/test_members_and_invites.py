"""Session zero, invite links, roles, leaving, archiving and deleting."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign, Invite, Membership
from campaigns.services import invite_create
from tests.factories import PASSWORD, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


# --- session zero ---------------------------------------------------------------------


def test_owner_edits_session_zero(client_for, owner, campaign):
    url = reverse("campaigns:session_zero", args=[campaign.pk])
    client = client_for(owner)
    assert "Save session zero" in client.get(url).content.decode()
    response = client.post(
        url,
        {
            "lines": "No harm to children",
            "veils": "Torture",
            "safety_tools": ["x-card", "lines-and-veils"],
            "agreed_options": "Incapacitated at the last box",
            "version": 1,
        },
    )
    assert response.status_code == 302
    campaign.session_zero.refresh_from_db()
    assert campaign.session_zero.safety_tools == ["lines-and-veils", "x-card"]
    assert campaign.session_zero.version == 2


def test_member_reads_session_zero_but_cannot_edit_it(client_for, member, campaign):
    campaign.session_zero.lines = "No spiders"
    campaign.session_zero.save()
    url = reverse("campaigns:session_zero", args=[campaign.pk])
    client = client_for(member)
    body = client.get(url).content.decode()
    assert "No spiders" in body
    assert "Save session zero" not in body
    response = client.post(url, {"lines": "", "veils": "", "agreed_options": "", "version": 1})
    assert response.status_code == 403
    campaign.session_zero.refresh_from_db()
    assert campaign.session_zero.lines == "No spiders"


def test_outsider_gets_404_for_session_zero(client_for, outsider, campaign):
    url = reverse("campaigns:session_zero", args=[campaign.pk])
    assert client_for(outsider).get(url).status_code == 404


def test_a_stale_session_zero_save_is_refused(client_for, owner, campaign):
    url = reverse("campaigns:session_zero", args=[campaign.pk])
    client = client_for(owner)
    fields = {"veils": "", "agreed_options": "", "version": 1}
    client.post(url, {**fields, "lines": "First"})
    response = client.post(url, {**fields, "lines": "Second"})
    assert response.status_code == 409
    campaign.session_zero.refresh_from_db()
    assert campaign.session_zero.lines == "First"


# --- invites --------------------------------------------------------------------------


def test_owner_makes_and_revokes_an_invite_link(client_for, owner, campaign):
    client = client_for(owner)
    url = reverse("campaigns:invites", args=[campaign.pk])
    response = client.post(url, {"role": "player", "expires_in_days": 7, "max_uses": 3})
    assert response.status_code == 302
    invite = Invite.objects.get(campaign=campaign)
    assert len(invite.token) >= 40
    assert invite.max_uses == 3
    assert f"/join/{invite.token}/" in client.get(url).content.decode()

    client.post(reverse("campaigns:invite_revoke", args=[campaign.pk, invite.pk]))
    invite.refresh_from_db()
    assert invite.revoked_at is not None


def test_member_cannot_make_invites(client_for, member, campaign):
    client = client_for(member)
    url = reverse("campaigns:invites", args=[campaign.pk])
    assert client.get(url).status_code == 403
    assert client.post(url, {"role": "player"}).status_code == 403
    assert not Invite.objects.exists()


def test_outsider_gets_404_for_invites(client_for, outsider, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    client = client_for(outsider)
    assert client.get(reverse("campaigns:invites", args=[campaign.pk])).status_code == 404
    url = reverse("campaigns:invite_revoke", args=[campaign.pk, invite.pk])
    assert client.post(url).status_code == 404
    invite.refresh_from_db()
    assert invite.revoked_at is None


def test_an_outsider_with_the_link_joins_as_the_invites_role(client_for, outsider, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner, role="observer")
    client = client_for(outsider)
    join = reverse("join", args=[invite.token])
    assert "Join as outsider" in client.get(join).content.decode()
    response = client.post(join)
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.memberships.get(user=outsider).role == "observer"
    invite.refresh_from_db()
    assert invite.uses == 1


def test_a_newcomer_signs_up_from_the_link_and_lands_in_the_campaign(client, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    client.get(reverse("join", args=[invite.token]))
    response = client.post(
        reverse("signup"),
        {
            "username": "newbie",
            "password1": "a-long-fudge-phrase",
            "password2": "a-long-fudge-phrase",
        },
    )
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.memberships.filter(user__username="newbie", role="player").exists()


def test_a_returning_player_logs_in_from_the_link_and_lands_in_the_campaign(
    client, owner, campaign
):
    UserFactory(username="returning")
    invite = invite_create(campaign=campaign, created_by=owner)
    client.get(reverse("join", args=[invite.token]))
    response = client.post(reverse("login"), {"username": "returning", "password": PASSWORD})
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"revoked_at": timezone.now()}, "revoked"),
        ({"expires_at": timezone.now() - timedelta(minutes=1)}, "expired"),
        ({"max_uses": 1, "uses": 1}, "used up"),
    ],
)
def test_an_unusable_link_says_why_and_joins_nobody(
    client_for, outsider, owner, campaign, changes, message
):
    invite = invite_create(campaign=campaign, created_by=owner)
    Invite.objects.filter(pk=invite.pk).update(**changes)
    client = client_for(outsider)
    join = reverse("join", args=[invite.token])
    page = client.get(join)
    assert page.status_code == 410
    assert message in page.content.decode()
    client.post(join)
    assert not campaign.memberships.filter(user=outsider).exists()


def test_an_unknown_token_is_a_404(client_for, outsider):
    assert client_for(outsider).get(reverse("join", args=["nope"])).status_code == 404


def test_joining_twice_keeps_the_first_role_and_counts_once(client_for, member, owner, campaign):
    invite = invite_create(campaign=campaign, created_by=owner, role="observer")
    client_for(member).post(reverse("join", args=[invite.token]))
    assert campaign.memberships.get(user=member).role == "player"
    invite.refresh_from_db()
    assert invite.uses == 0


# --- roles, removing, leaving ----------------------------------------------------------


def test_owner_makes_a_player_a_co_gm(client_for, owner, member, campaign):
    membership = campaign.memberships.get(user=member)
    url = reverse("campaigns:member_role", args=[campaign.pk, membership.pk])
    response = client_for(owner).post(url, {"role": "gm"}, headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert 'id="members"' in response.content.decode()
    membership.refresh_from_db()
    assert membership.role == "gm"


def test_a_co_gm_cannot_make_more_gms_or_demote_the_owner(client_for, owner, member, campaign):
    co_gm = campaign.memberships.get(user=member)
    co_gm.role = Membership.Role.GM
    co_gm.save()
    player = MembershipFactory(campaign=campaign).pk
    client = client_for(member)
    client.post(reverse("campaigns:member_role", args=[campaign.pk, player]), {"role": "gm"})
    assert Membership.objects.get(pk=player).role == "player"
    owner_membership = campaign.memberships.get(user=owner)
    client.post(
        reverse("campaigns:member_role", args=[campaign.pk, owner_membership.pk]),
        {"role": "player"},
    )
    owner_membership.refresh_from_db()
    assert owner_membership.role == "gm"


def test_member_cannot_change_roles_or_remove_people(client_for, owner, member, campaign):
    other = MembershipFactory(campaign=campaign)
    client = client_for(member)
    url = reverse("campaigns:member_role", args=[campaign.pk, other.pk])
    assert client.post(url, {"role": "observer"}).status_code == 403
    url = reverse("campaigns:member_remove", args=[campaign.pk, other.pk])
    assert client.post(url).status_code == 403
    assert Membership.objects.filter(pk=other.pk, role="player").exists()


def test_outsider_gets_404_for_member_commands(client_for, outsider, member, campaign):
    target = campaign.memberships.get(user=member)
    client = client_for(outsider)
    role_url = reverse("campaigns:member_role", args=[campaign.pk, target.pk])
    assert client.post(role_url, {"role": "gm"}).status_code == 404
    remove_url = reverse("campaigns:member_remove", args=[campaign.pk, target.pk])
    assert client.post(remove_url).status_code == 404


def test_owner_removes_a_player(client_for, owner, member, campaign):
    target = campaign.memberships.get(user=member)
    client_for(owner).post(reverse("campaigns:member_remove", args=[campaign.pk, target.pk]))
    assert not campaign.memberships.filter(user=member).exists()


def test_a_membership_of_another_campaign_is_a_404(client_for, owner, campaign):
    elsewhere = MembershipFactory()
    url = reverse("campaigns:member_remove", args=[campaign.pk, elsewhere.pk])
    assert client_for(owner).post(url).status_code == 404
    assert Membership.objects.filter(pk=elsewhere.pk).exists()


def test_member_leaves_but_the_owner_cannot(client_for, owner, member, campaign):
    response = client_for(member).post(reverse("campaigns:leave", args=[campaign.pk]))
    assert response["Location"] == reverse("dashboard")
    assert not campaign.memberships.filter(user=member).exists()
    client_for(owner).post(reverse("campaigns:leave", args=[campaign.pk]))
    assert campaign.memberships.filter(user=owner).exists()


def test_outsider_cannot_leave_what_they_are_not_in(client_for, outsider, campaign):
    assert (
        client_for(outsider).post(reverse("campaigns:leave", args=[campaign.pk])).status_code == 404
    )


# --- archive and delete ---------------------------------------------------------------


def test_owner_archives_and_the_dashboard_files_it_under_archived(client_for, owner, campaign):
    client = client_for(owner)
    client.post(reverse("campaigns:archive", args=[campaign.pk]), {"archived": "1"})
    campaign.refresh_from_db()
    assert campaign.is_archived
    assert client.get(reverse("dashboard")).context["archived"][0].campaign == campaign
    client.post(reverse("campaigns:archive", args=[campaign.pk]), {"archived": "0"})
    campaign.refresh_from_db()
    assert not campaign.is_archived


def test_delete_needs_the_exact_name(client_for, owner, campaign):
    client = client_for(owner)
    url = reverse("campaigns:delete", args=[campaign.pk])
    response = client.post(url, {"typed_name": "the drowned lighthouse"})
    assert response.status_code == 200
    assert "Type the campaign" in response.content.decode()
    assert Campaign.objects.filter(pk=campaign.pk).exists()
    response = client.post(url, {"typed_name": "The Drowned Lighthouse"})
    assert response["Location"] == reverse("dashboard")
    assert not Campaign.objects.filter(pk=campaign.pk).exists()


def test_member_cannot_archive_or_delete(client_for, member, campaign):
    client = client_for(member)
    assert client.post(reverse("campaigns:archive", args=[campaign.pk])).status_code == 403
    url = reverse("campaigns:delete", args=[campaign.pk])
    assert client.post(url, {"typed_name": campaign.name}).status_code == 403
    assert Campaign.objects.filter(pk=campaign.pk, archived_at=None).exists()


def test_outsider_gets_404_for_archive_and_delete(client_for, outsider, campaign):
    client = client_for(outsider)
    assert client.post(reverse("campaigns:archive", args=[campaign.pk])).status_code == 404
    url = reverse("campaigns:delete", args=[campaign.pk])
    assert client.post(url, {"typed_name": campaign.name}).status_code == 404
