"""The sheet page costs a fixed handful of queries, however much is written on the sheet."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters import services
from tests.characters.full_sheet import SIZES, full_sheet
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

MOST_QUERIES = 10
RULESETS = ["fudge-lite", "ezfudge", "peupfudge"]


@pytest.fixture(params=RULESETS)
def table(request):
    """A GM, the player who owns the sheet, and an outsider, at a campaign of each ruleset."""
    gm = UserFactory(username="sheet-gm")
    player = UserFactory(username="sheet-player")
    campaign = CampaignFactory(owner=gm, ruleset=request.param)
    MembershipFactory(campaign=campaign, user=player)
    return campaign, gm, player, UserFactory(username="sheet-outsider")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_owner_loads_a_full_sheet_in_at_most_10_queries(
    table, size, client_for, django_assert_max_num_queries
):
    campaign, _, player, _ = table
    character = full_sheet(
        services.character_create(campaign=campaign, owner=player, name="Crowded"), size
    )
    client = client_for(player)
    url = reverse("characters:sheet", args=[campaign.pk, character.pk])

    with django_assert_max_num_queries(MOST_QUERIES):
        response = client.get(url)

    assert response.status_code == 200
    assert response.context["editable"]
    assert len(response.context["items"]) == SIZES[size][3]
    assert "Item 0" in response.text and f"Detail {SIZES[size][4] - 1}" in response.text


@pytest.mark.parametrize("size", list(SIZES))
def test_the_gm_loads_a_full_sheet_in_at_most_10_queries(
    table, size, client_for, django_assert_max_num_queries
):
    campaign, gm, player, _ = table
    character = full_sheet(
        services.character_create(campaign=campaign, owner=player, name="Crowded"), size
    )
    client = client_for(gm)
    url = reverse("characters:sheet", args=[campaign.pk, character.pk])

    with django_assert_max_num_queries(MOST_QUERIES):
        response = client.get(url)

    assert response.status_code == 200


def test_a_crowded_sheet_costs_no_more_queries_than_a_bare_one(table, client_for):
    campaign, _, player, _ = table
    client = client_for(player)
    counts = []
    for size in SIZES:
        character = full_sheet(
            services.character_create(campaign=campaign, owner=player, name=size), size
        )
        url = reverse("characters:sheet", args=[campaign.pk, character.pk])
        client.get(url)  # the first request may touch the session; count a steady one
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1] <= MOST_QUERIES


def test_an_outsider_gets_a_404_without_the_sheet_being_loaded(
    table, client_for, django_assert_max_num_queries
):
    campaign, _, player, outsider = table
    character = full_sheet(
        services.character_create(campaign=campaign, owner=player, name="Crowded"), "large"
    )
    client = client_for(outsider)
    url = reverse("characters:sheet", args=[campaign.pk, character.pk])

    with django_assert_max_num_queries(3):  # session, user, membership
        response = client.get(url)

    assert response.status_code == 404
