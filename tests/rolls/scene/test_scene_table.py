"""The scene on the table page: who sees what of it (owner, member, observer, outsider), moving
a figure within the rules' limits, the fight's rounds and the rolls made in each phase."""

import pytest

from characters.models import Character
from rolls.scene.ids import shown_id
from rolls.scene.models import Figure
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import area, figure_of, post

pytestmark = pytest.mark.django_db


def move(client, figure, to, **extra):
    data = {"figure": shown_id(figure), "area": shown_id(to), **extra}
    return post(client, figure.scene.campaign, "figure_move", data)


def step(client, scene, name: str, at: str = ""):
    return post(client, scene.campaign, "scene_round", {"step": name, "at": at})


def table_page(client, campaign) -> str:
    response = client.get(f"/campaigns/{campaign.pk}/table/")
    assert response.status_code == 200
    return response.content.decode()


def test_the_gm_sees_the_whole_scene_and_a_player_what_the_players_may(
    scene, client_for, owner, member, observer
):
    gm_page = table_page(client_for(owner), scene.campaign)
    for seen in ("The Mill", "Hall", "Gallery", "Vault", "Jason Free", "Brute", "Lurker"):
        assert seen in gm_page
    assert 'id="scene-tool"' in gm_page
    for who in (member, observer):
        page = table_page(client_for(who), scene.campaign)
        assert "The Mill" in page and "Jason Free" in page and "Brute" in page
        assert "Vault" not in page and "Lurker" not in page and "secret stair" not in page
        assert f'id="area-{shown_id(area(scene, "Vault"))}"' not in page
        assert 'id="scene-tool"' not in page


def test_an_outsider_gets_nothing_of_the_scene(scene, client_for, outsider):
    client = client_for(outsider)
    assert client.get(f"/campaigns/{scene.campaign.pk}/table/").status_code == 404
    response = post(client, scene.campaign, "figure_move", {"figure": 1, "area": 1})
    assert response.status_code == 404


def test_a_player_moves_her_pc_and_the_move_lands_once(scene, client_for, member):
    jason, gallery = figure_of(scene, "Jason Free"), area(scene, "Gallery")
    hall = area(scene, "Hall")
    data = {
        "figure": shown_id(jason),
        "area": shown_id(gallery),
        "seen_in": shown_id(hall),
        "key": "move",
    }
    client = client_for(member)
    assert post(client, scene.campaign, "figure_move", data).status_code == 204
    assert Figure.objects.get(pk=jason.pk).area_id == gallery.pk
    # The same tap again (a resend over HTTP after the socket dropped): nothing moves twice.
    assert post(client, scene.campaign, "figure_move", data).status_code == 204
    # A stale page that still shows him in the Hall moving him elsewhere is told so.
    stale = {**data, "area": shown_id(hall)}
    refused = post(client, scene.campaign, "figure_move", stale)
    assert refused.status_code == 422
    assert "moved meanwhile" in refused.content.decode()


def test_a_player_moves_no_one_but_her_own_and_an_observer_no_one(
    scene, client_for, member, observer
):
    brute, hall = figure_of(scene, "Brute"), area(scene, "Hall")
    refused = post(
        client_for(member),
        scene.campaign,
        "figure_move",
        {"figure": shown_id(brute), "area": shown_id(hall)},
    )
    assert refused.status_code == 422 and "only your own" in refused.content.decode()
    jason = figure_of(scene, "Jason Free")
    gallery = area(scene, "Gallery")
    watched = post(
        client_for(observer),
        scene.campaign,
        "figure_move",
        {"figure": shown_id(jason), "area": shown_id(gallery)},
    )
    assert watched.status_code == 422
    assert Figure.objects.get(pk=jason.pk).area_id == hall.pk


def test_a_player_cannot_reach_a_hidden_npc_or_a_hidden_area(scene, client_for, member):
    client = client_for(member)
    lurker, vault = figure_of(scene, "Lurker"), area(scene, "Vault")
    jason, hall = figure_of(scene, "Jason Free"), area(scene, "Hall")
    assert (
        post(
            client,
            scene.campaign,
            "figure_move",
            {"figure": shown_id(lurker), "area": shown_id(hall)},
        ).status_code
        == 404
    )
    assert (
        post(
            client,
            scene.campaign,
            "figure_move",
            {"figure": shown_id(jason), "area": shown_id(vault)},
        ).status_code
        == 404
    )


def wound(character: Character, level_index: int) -> None:
    """Marks one box of the EZFudge wound track's level (2: Very Hurt, 3: Out of It)."""
    levels = [[] for _ in range(5)]
    levels[level_index] = ["wound"]
    character.tracks = {"wounds": {"levels": levels}}
    character.save(update_fields=["tracks"])


def test_very_hurt_moves_one_area_a_round_and_a_gm_may_move_past_it(
    scene, client_for, owner, member, jason
):
    wound(jason, 2)  # Very Hurt
    client = client_for(member)
    assert step(client_for(owner), scene, "start").status_code == 204
    figure, hall, gallery = (
        figure_of(scene, "Jason Free"),
        area(scene, "Hall"),
        area(scene, "Gallery"),
    )
    assert (
        post(
            client,
            scene.campaign,
            "figure_move",
            {"figure": shown_id(figure), "area": shown_id(gallery)},
        ).status_code
        == 204
    )
    refused = move(client, figure, hall)
    assert refused.status_code == 422
    assert "at most 1 area a round" in refused.content.decode()
    # The GM's override: carried back.
    gm = client_for(owner)
    assert move(gm, figure, hall).status_code == 422
    forced = {"figure": shown_id(figure), "area": shown_id(hall), "override": "1"}
    assert post(gm, scene.campaign, "figure_move", forced).status_code == 204
    # A new round: he may move one area again.
    step(gm, scene, "end")
    step(gm, scene, "start")
    assert (
        post(
            client,
            scene.campaign,
            "figure_move",
            {"figure": shown_id(figure), "area": shown_id(gallery)},
        ).status_code
        == 204
    )


def test_out_of_it_cannot_leave_the_area_on_their_own(scene, client_for, member, jason):
    wound(jason, 3)  # Out of It
    figure, gallery = figure_of(scene, "Jason Free"), area(scene, "Gallery")
    refused = post(
        client_for(member),
        scene.campaign,
        "figure_move",
        {"figure": shown_id(figure), "area": shown_id(gallery)},
    )
    assert refused.status_code == 422
    assert "cannot leave the area on their own" in refused.content.decode()
    page = table_page(client_for(member), scene.campaign)
    assert "cannot leave" in page  # shown on his figure


def test_rounds_go_through_ezfudges_phases_and_count_each_figures_rolls(
    scene, client_for, owner, member, jason
):
    gm = client_for(owner)
    assert step(client_for(member), scene, "start").status_code == 403
    step(gm, scene, "start")
    scene.refresh_from_db()
    assert (scene.round, scene.phase) == (1, "melee")
    from tests.rolls.conftest import post_roll, roll_form, trait

    body = trait(jason, "Body")
    post_roll(client_for(member), scene.campaign, roll_form(jason, body))
    post_roll(client_for(member), scene.campaign, roll_form(jason, body))
    scene.refresh_from_db()
    assert scene.rolled == {str(jason.pk): 2}
    assert "(2 rolls)" in table_page(gm, scene.campaign)
    for expected in ("ranged", "other", "wounds"):
        post(
            gm,
            scene.campaign,
            "scene_round",
            {"step": "next", "at": f"{scene.round}-{scene.phase}"},
        )
        scene.refresh_from_db()
        assert scene.phase == expected and scene.rolled == {}
    # A tap on "Next phase" sent twice steps once.
    at = {"step": "next", "at": "1-wounds"}
    post(gm, scene.campaign, "scene_round", at)
    post(gm, scene.campaign, "scene_round", at)
    scene.refresh_from_db()
    assert (scene.round, scene.phase) == (2, "melee")
