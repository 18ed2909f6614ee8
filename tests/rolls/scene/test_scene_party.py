"""The party on the stage (issue #39): the PCs stand in a scene from the moment it is shown (in
the starting area the GM picked on its page, or brought in not placed), the GM's one tap,
"Everyone here", puts every PC not placed yet into an area, and the players are told in the
log and see their tokens arrive. Players get a 403 on the GM's commands, outsiders a 404.
Mooks' tokens carry their number, the same in a box pushed alone as on the whole board."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from characters.models import Character
from characters.services import character_create, npc_duplicate
from rolls.entry_words import line_words
from rolls.models import Roll
from rolls.scene import party
from rolls.scene import services as scenes
from rolls.scene.ids import shown_id
from rolls.scene.models import Figure, Scene
from rolls.scene.selectors import FigureView, figure_view
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import post

pytestmark = pytest.mark.django_db


@pytest.fixture
def ford(ez, jason, other) -> Scene:
    """The Ford, prepared and not shown: the Ford and the Bank, a hidden Cave; Jason Free
    (the member's) and Mia (the other player's) are the campaign's PCs."""
    character_create(campaign=ez, owner=other, name="Mia")
    made = scenes.scene_create(campaign=ez, title="The Ford")
    for name, hidden in (("Ford", False), ("Bank", False), ("Cave", True)):
        scenes.area_create(scene=made, name=name, hidden=hidden)
    return made


def edit(client, scene: Scene, **data):
    url = reverse("rolls:scene_edit", args=[scene.campaign_id, scene.pk])
    return client.post(url, {"action": "save", "title": scene.title, **data})


def where(scene: Scene) -> dict[str, str | None]:
    figures = Figure.objects.filter(scene=scene).select_related("character", "area")
    return {f.character.name: f.area.name if f.area else None for f in figures}


def said(campaign) -> list[str]:
    """The lines the table read in its log, in order (the GMs' own left out)."""
    rows = Roll.objects.filter(campaign=campaign, kind=Roll.Kind.ANNOUNCEMENT).order_by("pk")
    return [
        line
        for roll in rows.filter(visibility=Roll.Visibility.TABLE)
        for line in map(line_words, roll.snapshot["lines"])
    ]


def test_the_gm_picks_where_the_party_starts(ford, client_for, owner, member, outsider):
    ford_area = ford.areas.get(name="Ford")
    page = client_for(owner).get(reverse("rolls:scene_edit", args=[ford.campaign_id, ford.pk]))
    html = page.content.decode()
    start = html[html.index('name="start_area"') :]
    start = start[: start.index("</select>")]
    assert ">Bank</option>" in start
    assert ">Cave</option>" not in start  # a hidden area is not offered: the players see PCs
    assert edit(client_for(member), ford, start_area=shown_id(ford_area)).status_code == 403
    assert edit(client_for(outsider), ford, start_area=shown_id(ford_area)).status_code == 404
    ford.refresh_from_db()
    assert ford.start_area is None
    assert edit(client_for(owner), ford, start_area=shown_id(ford_area)).status_code == 302
    ford.refresh_from_db()
    assert ford.start_area == ford_area
    # A saved page without the field (an older one) leaves it; a blank choice takes it away.
    edit(client_for(owner), ford)
    ford.refresh_from_db()
    assert ford.start_area == ford_area
    edit(client_for(owner), ford, start_area="")
    ford.refresh_from_db()
    assert ford.start_area is None


def test_a_hidden_area_is_refused_in_words_and_nothing_is_saved(ford, client_for, owner):
    gm = client_for(owner)
    answer = edit(gm, ford, start_area=shown_id(ford.areas.get(name="Cave")), description="New")
    assert answer.status_code == 302
    words = [str(message) for message in get_messages(answer.wsgi_request)]
    assert words == ["The players see every PC: they cannot start in a hidden area."]
    ford.refresh_from_db()
    assert ford.start_area is None and ford.description == ""


def test_showing_a_scene_stands_every_pc_in_its_starting_area(ford, jason, client_for, owner):
    bank = ford.areas.get(name="Bank")
    scenes.figure_add(scene=ford, character=jason, area=bank)  # already there: stays
    ford.start_area = ford.areas.get(name="Ford")
    ford.save(update_fields=["start_area"])
    answer = post(client_for(owner), ford.campaign, "scene_switch", {"scene": shown_id(ford)})
    assert answer.status_code == 204
    assert where(ford) == {"Jason Free": "Bank", "Mia": "Ford"}
    assert said(ford.campaign)[-2:] == ["Scene: The Ford", "Mia stands at Ford."]


def test_the_whole_party_is_named_as_the_party(ford):
    ford.start_area = ford.areas.get(name="Ford")
    ford.save(update_fields=["start_area"])
    scenes.scene_switch(campaign=ford.campaign, scene=ford)
    assert where(ford) == {"Jason Free": "Ford", "Mia": "Ford"}
    assert said(ford.campaign)[-1] == "The party stands at Ford."


def test_without_a_starting_area_the_pcs_come_in_not_placed(ford, brute):
    scenes.scene_switch(campaign=ford.campaign, scene=ford)
    assert where(ford) == {"Jason Free": None, "Mia": None}  # NPCs are the GM's to bring
    assert said(ford.campaign)[-1] == "Scene: The Ford"


def test_everyone_here_is_the_gms_one_tap(ford, client_for, owner, member, observer, outsider):
    scenes.scene_switch(campaign=ford.campaign, scene=ford)
    campaign = ford.campaign
    here = {"area": shown_id(ford.areas.get(name="Bank"))}
    gm_page = client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert "data-party-waiting" in gm_page and gm_page.count("Everyone here<") == 2
    player_page = client_for(member).get(reverse("rolls:table", args=[campaign.pk]))
    assert "Everyone here" not in player_page.content.decode()
    assert post(client_for(member), campaign, "party_here", here).status_code == 403
    assert post(client_for(observer), campaign, "party_here", here).status_code == 403
    assert post(client_for(outsider), campaign, "party_here", here).status_code == 404
    assert where(ford) == {"Jason Free": None, "Mia": None}
    # A PC made since the scene was shown is brought in by the same tap.
    character_create(campaign=campaign, owner=member, name="Ossian")
    assert post(client_for(owner), campaign, "party_here", here).status_code == 204
    assert where(ford) == {"Jason Free": "Bank", "Mia": "Bank", "Ossian": "Bank"}
    assert said(campaign)[-1] == "The party stands at Bank."
    gm_page = client_for(owner).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert "data-party-waiting" not in gm_page
    # Nobody left to bring: said in words, nothing told.
    again = post(client_for(owner), campaign, "party_here", here)
    assert again.status_code == 422 and "Every PC stands in an area already." in again.text
    assert said(campaign)[-1] == "The party stands at Bank."


def test_everyone_here_refuses_a_hidden_area_and_a_missing_one(ford, client_for, owner):
    scenes.scene_switch(campaign=ford.campaign, scene=ford)
    gm, campaign = client_for(owner), ford.campaign
    cave = {"area": shown_id(ford.areas.get(name="Cave"))}
    refused = post(gm, campaign, "party_here", cave)
    assert refused.status_code == 422 and "hidden area" in refused.text
    assert post(gm, campaign, "party_here", {}).status_code == 422
    assert post(gm, campaign, "party_here", {"area": "nonsense"}).status_code == 404
    assert where(ford) == {"Jason Free": None, "Mia": None}


def test_only_the_pcs_not_placed_move(ford, jason):
    scenes.scene_switch(campaign=ford.campaign, scene=ford)
    Figure.objects.filter(scene=ford, character=jason).update(area=ford.areas.get(name="Ford"))
    assert party.party_here(scene=ford, area=ford.areas.get(name="Bank")) == ["Mia"]
    assert where(ford) == {"Jason Free": "Ford", "Mia": "Bank"}
    assert said(ford.campaign)[-1] == "Mia stands at Bank."


@pytest.mark.parametrize(
    ("name", "token"),
    [
        ("Jason Free", "JF"),
        ("Bandit", "B"),
        ("Bandit 1", "B1"),
        ("Bandit 12", "B12"),
        ("Goblin Archer 2", "GA2"),
        ("Goblin Archer 3", "GA3"),
        ("Route 66 Gang", "R6"),  # a number inside a name is no mook's
    ],
)
def test_a_mooks_token_carries_its_number(name, token):
    figure = Figure(character=Character(name=name))
    assert FigureView(figure, limit="free", shown=True).initials == token  # type: ignore[arg-type]


def test_copies_of_an_npc_are_told_apart_in_a_box_pushed_alone(scene, brute, client_for, owner):
    """Three Goblin Archers made from one NPC: each token its own number, on the page and in
    the box a move pushes (drawn with only that area's figures)."""
    archer = character_create(campaign=scene.campaign, owner=None, name="Goblin Archer", kind="npc")
    copies = npc_duplicate(npc=archer, count=3)
    gallery = scene.areas.get(name="Gallery")
    for copy in copies:
        scenes.figure_add(scene=scene, character=copy, area=gallery)
    page = client_for(owner).get(reverse("rolls:table", args=[scene.campaign.pk])).content.decode()
    for number in (1, 2, 3):
        assert f'aria-hidden="true">GA{number}</span><span class="figure-name">' in page
    ruleset = campaign_ruleset(scene.campaign)
    alone = [figure_view(f, ruleset).initials for f in gallery.figures.select_related("character")]
    assert sorted(alone) == ["B", "GA1", "GA2", "GA3"]
