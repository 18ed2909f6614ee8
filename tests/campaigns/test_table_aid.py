"""The table aid page: every member reads it, drawn from the campaign's rules as they stand."""

import pytest
from django.urls import reverse

from campaigns.services import campaign_update
from fudgetable.rules.rulesets import resolve
from fudgetable.rules.table_aid import table_aid
from tests.factories import MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_every_member_reads_it_and_an_outsider_gets_nothing(
    client_for, campaign, owner, member, outsider
):
    url = reverse("campaigns:table_aid", args=[campaign.pk])
    watcher = UserFactory(username="watcher")
    MembershipFactory(campaign=campaign, user=watcher, role="observer")
    for person in (owner, member, watcher):
        page = client_for(person).get(url)
        assert page.status_code == 200
        assert "Table aid: The Drowned Lighthouse" in page.content.decode()
    assert client_for(outsider).get(url).status_code == 404
    detail = client_for(member).get(reverse("campaigns:detail", args=[campaign.pk]))
    assert url in detail.content.decode()


def test_its_numbers_follow_the_campaigns_settings(client_for, campaign, owner):
    """No number is the template's: with 3dF and no Fudge points the page says so."""
    overrides = {"dice": "3dF", "opposed_dice": "3dF", "fudge_point_uses": []}
    campaign_update(
        campaign=campaign,
        version=campaign.version,
        name=campaign.name,
        pitch="",
        ruleset="fudge-lite",
        overrides=overrides,
    )
    page = client_for(owner).get(reverse("campaigns:table_aid", args=[campaign.pk]))
    text = page.content.decode()
    (dice,) = table_aid(resolve("fudge-lite", overrides)).dice
    assert "3 Fudge dice" in text and "4 Fudge dice" not in text
    for odds in dice.odds:
        assert f'{odds.percent:.1f}% <span class="meta">({odds.ways}/{odds.out_of})' in text
    assert "(7/27)" in text  # 3dF's 0: 7 ways in 27
    assert "This table plays without Fudge point spends." in text
