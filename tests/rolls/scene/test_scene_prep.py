"""The GMs' pages for preparing scenes: owner, member, observer and outsider; a scene made with
its backdrop, its areas, ranges, figures and cards, and shown to the table, which sees it."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from rolls.models import Roll
from rolls.scene.ids import shown_id
from rolls.scene.models import Area, Figure, Scene
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import picture_bytes

pytestmark = pytest.mark.django_db


def test_only_gms_prepare_scenes(scene, client_for, owner, member, observer, outsider):
    urls = [
        reverse("rolls:scenes", args=[scene.campaign.pk]),
        reverse("rolls:scene_edit", args=[scene.campaign.pk, scene.pk]),
    ]
    for url in urls:
        assert client_for(owner).get(url).status_code == 200
        assert client_for(member).get(url).status_code == 403
        assert client_for(observer).get(url).status_code == 403
        assert client_for(outsider).get(url).status_code == 404
        assert client_for(member).post(url, {"action": "delete"}).status_code == 403
    assert Scene.objects.filter(pk=scene.pk).exists()


def test_a_gm_prepares_a_scene_and_shows_it(ez, jason, client_for, owner, member):
    gm = client_for(owner)
    backdrop = SimpleUploadedFile("map.png", picture_bytes((800, 400)), content_type="image/png")
    made = gm.post(
        reverse("rolls:scenes", args=[ez.pk]), {"title": "The Ford", "backdrop": backdrop}
    )
    scene = Scene.objects.get(title="The Ford")
    edit = reverse("rolls:scene_edit", args=[ez.pk, scene.pk])
    assert made.status_code == 302 and made["Location"] == edit
    assert scene.backdrop.width == 800
    for name in ("Near bank", "Far bank"):
        gm.post(edit, {"action": "area-new", "name": name, "light": "good", "cover": "none"})
    near, far = Area.objects.filter(scene=scene).order_by("pk")
    assert (near.column, far.column) == (1, 5)  # placed next in line
    gm.post(edit, {"action": "ranges", f"range-{shown_id(near)}-{shown_id(far)}": "M"})
    gm.post(edit, {"action": "figures-add", "character": [jason.pk], "area": shown_id(near)})
    gm.post(edit, {"action": "card-new", "title": "Tracks", "shown": "gm", "area": shown_id(far)})
    refused = gm.post(edit, {"action": "area-new", "name": "Bad", "light": "neon", "cover": "none"})
    assert refused.status_code == 302
    assert "Light:" in gm.get(edit).content.decode()  # the refusal, in words
    shown = gm.post(edit, {"action": "show"})
    assert shown.status_code == 302
    scene.refresh_from_db()
    assert scene.current and scene.ranges == {f"{near.pk}-{far.pk}": "M"}
    assert Figure.objects.get(scene=scene).area == near
    table = client_for(member).get(f"/campaigns/{ez.pk}/table/").content.decode()
    assert "The Ford" in table and "Near bank" in table and "Tracks" not in table
    assert Roll.objects.filter(label="Scene: The Ford").exists()


def test_a_hidden_area_holds_no_one_the_players_see(scene, client_for, owner):
    hall = scene.areas.get(name="Hall")
    edit = reverse("rolls:scene_edit", args=[scene.campaign.pk, scene.pk])
    gm = client_for(owner)
    gm.post(
        edit,
        {
            "action": "area-save",
            "area": shown_id(hall),
            "name": "Hall",
            "light": "dim",
            "cover": "none",
            "hidden": "on",
        },
    )
    hall.refresh_from_db()
    assert not hall.hidden
    assert "move them out first" in gm.get(edit).content.decode()


def test_removing_a_scene_takes_its_areas_cards_and_pictures(scene, client_for, owner):
    edit = reverse("rolls:scene_edit", args=[scene.campaign.pk, scene.pk])
    assert client_for(owner).post(edit, {"action": "delete"}).status_code == 302
    assert not Scene.objects.exists() and not Area.objects.exists()
