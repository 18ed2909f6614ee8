import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_owner_sees_the_campaign_and_its_members(client_for, owner, member, campaign):
    response = client_for(owner).get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert "You are GM here." in body
    assert "player-member" in body


def test_member_sees_the_campaign(client_for, member, campaign):
    response = client_for(member).get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 200
    assert "You are Player here." in response.content.decode()


def test_outsider_gets_a_404_as_if_it_did_not_exist(client_for, outsider, campaign):
    client = client_for(outsider)
    existing = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    missing = client.get(reverse("campaigns:detail", args=[campaign.pk + 1000]))
    assert existing.status_code == missing.status_code == 404


def test_anonymous_visitor_is_sent_to_log_in(client, campaign):
    response = client.get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
