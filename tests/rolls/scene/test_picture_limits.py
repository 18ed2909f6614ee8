"""What a picture may cost the server (issue 37): at most UPLOADS_PER_HOUR a person, and what
costs nothing (the count, the file's size, the campaign's room) checked before a pixel is
decoded. The attack itself, against a real server, is in test_pixel_bomb_daphne.py."""

import io

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from rolls.scene import pictures
from rolls.scene import services as scenes
from rolls.scene.models import Card, Picture, Scene
from tests.rolls.scene.test_scene_pictures import SVG, png_bomb
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import picture_bytes, post

pytestmark = pytest.mark.django_db

PEOPLE = ["owner", "member"]


def card_with(client, campaign, data: bytes | None, title: str = "A picture"):
    form: dict[str, object] = {"title": title, "shown": "everyone"}
    if data is not None:
        form["picture"] = SimpleUploadedFile("p.png", data, content_type="image/png")
    return post(client, campaign, "card_create", form)


@pytest.fixture
def open_to_players(scene):
    scenes.scene_set_player_cards(scene=scene, allow=True)
    return scene


@pytest.fixture
def limited(settings):
    settings.RATELIMIT_ENABLE = True
    settings.UPLOADS_PER_HOUR = 2
    cache.clear()
    yield
    cache.clear()


@pytest.mark.parametrize("person", PEOPLE)
def test_a_person_sends_at_most_so_many_pictures_an_hour(
    open_to_players, limited, client_for, person, request
):
    client = client_for(request.getfixturevalue(person))
    campaign = open_to_players.campaign
    for number in range(2):
        assert card_with(client, campaign, picture_bytes(), f"Card {number}").status_code == 204
    kept = Picture.objects.count()
    answer = card_with(client, campaign, picture_bytes(), "One too many")
    assert answer.status_code == 422
    assert "You may send 2 pictures an hour; try again later." in answer.content.decode()
    assert Picture.objects.count() == kept
    assert not Card.objects.filter(title="One too many").exists()
    # A card without a picture costs nothing to draw and is not counted.
    assert card_with(client, campaign, None, "Words only").status_code == 204


def test_a_gms_backdrops_count_with_their_cards(open_to_players, limited, client_for, owner):
    gm = client_for(owner)
    campaign = open_to_players.campaign
    for number in range(2):
        assert card_with(gm, campaign, picture_bytes(), f"Card {number}").status_code == 204
    upload = SimpleUploadedFile("bay.png", picture_bytes(), content_type="image/png")
    url = reverse("rolls:scenes", args=[campaign.pk])
    page = gm.post(url, {"title": "The Bay", "backdrop": upload}, follow=True).content.decode()
    assert "You may send 2 pictures an hour" in page
    assert not Scene.objects.filter(title="The Bay").exists()


def test_an_outsiders_picture_is_never_read_nor_counted(scene, limited, client_for, outsider):
    for _ in range(3):
        answer = card_with(client_for(outsider), scene.campaign, picture_bytes())
        assert answer.status_code == 404
    assert not Picture.objects.exists()


@pytest.fixture
def full(scene, owner, monkeypatch):
    """The campaign's pictures fill their room: one kept picture is all it takes."""
    kept = pictures.picture_create(
        campaign=scene.campaign, uploaded_by_id=owner.pk, data=picture_bytes()
    )
    monkeypatch.setattr(pictures, "MAX_STORED", kept.size)
    return scene


@pytest.mark.parametrize("person", PEOPLE)
@pytest.mark.parametrize("data", [SVG, png_bomb(), picture_bytes()], ids=["svg", "bomb", "png"])
def test_a_full_campaign_refuses_a_picture_before_reading_a_pixel_of_it(
    full, client_for, person, request, data
):
    """Refused for the campaign's room whatever the file is, even one that is no picture:
    nothing of it was read."""
    scenes.scene_set_player_cards(scene=full, allow=True)
    answer = card_with(client_for(request.getfixturevalue(person)), full.campaign, data)
    assert answer.status_code == 422
    assert "This campaign's pictures fill their" in answer.content.decode()
    assert Picture.objects.count() == 1


def test_a_large_photo_is_decoded_smaller_and_still_comes_upright_and_whole():
    """A JPEG is decoded at a fraction of its size where that still covers what is kept."""
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: rotate 90 degrees to show it upright
    photo = io.BytesIO()
    source = Image.new("RGB", (7200, 5400), (10, 200, 10))
    source.paste((200, 10, 10), (0, 0, 3600, 5400))  # the left half red
    source.save(photo, "JPEG", exif=exif, quality=90)
    kept = pictures.reencode(photo.getvalue())
    image = Image.open(io.BytesIO(kept.data)).convert("RGB")
    assert (kept.width, kept.height) == (1536, 2048) == image.size
    # Turned a quarter clockwise: the left half (red) is now the top.
    assert image.getpixel((768, 100))[0] > 150 and image.getpixel((768, 1948))[1] > 150
