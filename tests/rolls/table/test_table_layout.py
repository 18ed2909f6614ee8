"""Which tools and views each person's table page has, by role and by the table's rules; and
the page that carries them, for the owner, a member, an observer and an outsider."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from rolls.table import layout as table_layout
from tests.rolls.conftest import set_rules

pytestmark = pytest.mark.django_db


def membership(campaign, user) -> Membership:
    return Membership.objects.select_related("campaign").get(campaign=campaign, user=user)


def keys(tabs) -> list[str]:
    return [tab.key for tab in tabs]


def test_a_gm_has_every_tool_and_a_player_the_ones_to_play_with(campaign, owner, member, observer):
    ruleset = campaign_ruleset(campaign)
    gm_tools = keys(table_layout.tools(membership(campaign, owner), ruleset))
    assert gm_tools[:4] == ["roll", "call", "countdowns", "challenges"]
    assert gm_tools[-4:] == ["contest", "scenes", "npcs", "moves"]
    assert keys(table_layout.tools(membership(campaign, member), ruleset)) == [
        "roll",
        "countdowns",
        "challenges",
        "contest",
    ]
    assert keys(table_layout.tools(membership(campaign, observer), ruleset)) == [
        "countdowns",
        "challenges",
    ]


def test_the_fight_is_a_tool_where_the_rules_have_a_wound_track(campaign, owner):
    set_rules(campaign, ruleset="ezfudge")
    gm = membership(campaign, owner)
    assert "fight" in keys(table_layout.tools(gm, campaign_ruleset(gm.campaign)))


def test_each_role_has_its_views_and_the_newest_entry_in_the_first(
    campaign, owner, member, observer
):
    gm, player, watcher = (membership(campaign, u) for u in (owner, member, observer))
    assert keys(table_layout.views(gm)) == ["table", "scene", "tools", "log"]
    assert keys(table_layout.views(player)) == ["play", "scene", "table", "log"]
    assert keys(table_layout.views(watcher)) == ["table", "scene", "log"]
    assert table_layout.places(player)["roll"] == "play"
    assert table_layout.places(player)["countdowns"] == "table"
    assert table_layout.places(gm)["countdowns"] == "tools"
    # The scene is a view of its own for everyone, its GMs' tool in Tools.
    assert table_layout.places(player)["scene"] == table_layout.places(gm)["scene"] == "scene"
    assert table_layout.places(gm)["scenes"] == "tools"
    for person in (gm, player, watcher):
        first = table_layout.views(person)[0].key
        assert table_layout.places(person)["log"] == f"log {first}"


def test_the_page_carries_each_persons_tabs_and_views(
    client_for, owner, member, outsider, campaign, hero
):
    url = reverse("rolls:table", args=[campaign.pk])
    gm = client_for(owner).get(url).content.decode()
    player = client_for(member).get(url).content.decode()
    assert 'data-tool-tab="call"' in gm and 'data-tool-tab="call"' not in player
    assert 'data-view-tab="tools"' in gm and 'data-view-tab="play"' in player
    sheet = reverse("characters:sheet", args=[campaign.pk, hero.pk])
    assert f'href="{sheet}" class="view-tab"' in player
    assert 'data-tool="countdowns" data-view="table"' in player
    assert 'data-tool="countdowns" data-view="tools"' in gm
    assert client_for(outsider).get(url).status_code == 404


def test_a_player_without_a_pc_is_pointed_to_making_one(client_for, member, campaign):
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert reverse("characters:create", args=[campaign.pk]) in page
    assert "Make your character" in page
