"""A shot takes its range from the shooter's and the target's areas, and its light and cover
from the target's (still changeable on the shot); a hidden area is not named in its entry."""

import pytest

from rolls.models import Roll
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of

pytestmark = pytest.mark.django_db


def shoot(client, campaign, data):
    return client.post(f"/campaigns/{campaign.pk}/table/fight/ranged/", data, headers=HTMX)


def last_shot(campaign) -> dict:
    return Roll.objects.filter(campaign=campaign, snapshot__has_key="fight").latest("pk").snapshot


def test_a_shot_takes_its_range_from_the_areas_and_the_targets_light_and_cover(
    scene, client_for, owner, brute, crossbow, jason
):
    data = ranged_form(brute, role(brute, "Fighter"), crossbow, jason)  # noqa: F405
    data.update(range="scene", light="scene", cover="scene")
    assert shoot(client_for(owner), scene.campaign, data).status_code == 200
    fight = last_shot(scene.campaign)["fight"]
    # Gallery to Hall: Long (+3); the Hall is dim (+1) and open (+0).
    assert fight["difficulty"] == 4
    assert "Long (L) +3" in fight["conditions"] and "Dim light +1" in fight["conditions"]
    assert "Gallery to Hall: Long (L)" in fight["conditions"]


def test_the_gm_may_still_pick_the_range(scene, client_for, owner, brute, crossbow, jason):
    data = ranged_form(brute, role(brute, "Fighter"), crossbow, jason)  # noqa: F405
    data.update(range="T", light="scene", cover="scene")
    shoot(client_for(owner), scene.campaign, data)
    fight = last_shot(scene.campaign)["fight"]
    assert fight["difficulty"] == 1  # Touch (0) + dim light (1)


def test_a_shot_from_the_areas_needs_both_in_them(scene, client_for, owner, brute, crossbow, jason):
    figure_of(scene, "Jason Free").delete()
    data = ranged_form(brute, role(brute, "Fighter"), crossbow, jason, range="scene")  # noqa: F405
    answer = shoot(client_for(owner), scene.campaign, data).content.decode()
    assert "must both stand in areas" in answer
    assert not Roll.objects.filter(snapshot__has_key="fight").exists()


def test_a_hidden_area_is_not_named_in_the_shot(scene, client_for, owner, brute, crossbow, jason):
    figure = figure_of(scene, "Brute")
    figure.area = area(scene, "Vault")
    figure.save()
    data = ranged_form(brute, role(brute, "Fighter"), crossbow, jason, range="scene")  # noqa: F405
    shoot(client_for(owner), scene.campaign, data)
    assert "Vault" not in last_shot(scene.campaign)["fight"]["conditions"]


def test_the_fight_panel_offers_the_areas_when_a_scene_is_shown(scene, client_for, owner):
    page = client_for(owner).get(f"/campaigns/{scene.campaign.pk}/table/").content.decode()
    assert "From the areas: the shooter" in page
