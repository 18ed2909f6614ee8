"""Pictures people upload: re-encoded with nothing but their pixels, refused in words when they
are not pictures (an SVG, a page), too big or a decompression bomb, and served to the members
who may see what shows them; nobody else learns they exist."""

import io
import struct
import zlib

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from rolls.scene import pictures
from rolls.scene.models import Card, Picture
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import picture_bytes, post

pytestmark = pytest.mark.django_db

SVG = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'


def png_bomb(side: int = 30_000) -> bytes:
    """A PNG that claims ``side`` x ``side`` pixels (900 million) in a few kilobytes."""
    row = b"\x00" + b"\x00" * side
    body = zlib.compress(row * 64, 9)  # the first rows; the header is what counts

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
    )


def card_with(client, campaign, data: bytes, name: str = "p.png"):
    upload = SimpleUploadedFile(name, data, content_type="image/png")
    form = {"title": "A picture", "shown": "everyone", "picture": upload}
    return post(client, campaign, "card_create", form)


def test_a_photo_is_kept_upright_small_and_without_its_metadata():
    exif = Image.Exif()
    exif[0x0112] = 6  # the camera was turned: rotate 90 degrees to show it upright
    exif[0x010F] = "Secret Camera Co"
    photo = io.BytesIO()
    Image.new("RGB", (4000, 3000), (10, 200, 10)).save(photo, "JPEG", exif=exif, comment=b"home")
    kept = pictures.reencode(photo.getvalue())
    image = Image.open(io.BytesIO(kept.data))
    assert image.format == "WEBP"
    assert (kept.width, kept.height) == (1536, 2048) == image.size  # upright, at most 2048
    assert not image.getexif() and "exif" not in image.info and "icc_profile" not in image.info
    assert b"Secret Camera" not in kept.data and b"home" not in kept.data


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (SVG, "an SVG is refused"),
        (b"<html><body>hello</body></html>", "not a picture"),
        (b"GIF89a" + b"\x00" * 20, "not a picture"),
        (png_bomb(), "too many pixels"),
        (picture_bytes()[:60], "cut short"),
    ],
    ids=["svg", "page", "broken-gif", "bomb", "cut-short"],
)
def test_what_is_not_a_safe_picture_is_refused_in_words(scene, client_for, owner, data, words):
    answer = card_with(client_for(owner), scene.campaign, data)
    assert answer.status_code == 422
    assert words in answer.content.decode()
    assert not Picture.objects.exists() and not Card.objects.filter(title="A picture").exists()


def test_an_oversized_file_is_refused_before_it_is_read(scene, client_for, owner):
    big = b"\xff\xd8" + b"\x00" * (pictures.MAX_UPLOAD + 10)
    answer = card_with(client_for(owner), scene.campaign, big, "huge.jpg")
    assert answer.status_code == 422 and "over 10 MB" in answer.content.decode()


def test_a_campaigns_pictures_have_a_ceiling(scene, owner, monkeypatch):
    monkeypatch.setattr(pictures, "MAX_STORED", 10)
    with pytest.raises(pictures.PictureRefused, match="fill their"):
        pictures.picture_create(
            campaign=scene.campaign, uploaded_by_id=owner.pk, data=picture_bytes()
        )


def test_a_picture_is_served_to_whoever_may_see_its_card(
    scene, client_for, owner, member, other, observer, outsider
):
    assert card_with(client_for(owner), scene.campaign, picture_bytes()).status_code == 204
    card = Card.objects.get(title="A picture")
    url = f"/campaigns/{scene.campaign.pk}/table/pictures/{card.picture.token}/"
    for who in (owner, member, observer):
        answer = client_for(who).get(url)
        assert answer.status_code == 200 and answer["Content-Type"] == "image/webp"
        assert "private" in answer["Cache-Control"]
    assert client_for(outsider).get(url).status_code == 404
    # Kept for the GMs again, then shown to one player: the others no longer load it.
    card.shown, card.people = Card.Shown.SOME, [member.pk]
    card.save()
    assert client_for(member).get(url).status_code == 200
    assert client_for(other).get(url).status_code == 404
    assert client_for(owner).get(url).status_code == 200
    again = client_for(owner).get(url, headers={"If-None-Match": f'"{card.picture.digest}"'})
    assert again.status_code == 304


def test_a_backdrop_is_the_players_only_while_its_scene_is_shown(
    scene, client_for, owner, member, observer, outsider
):
    backdrop = pictures.picture_create(
        campaign=scene.campaign, uploaded_by_id=owner.pk, data=picture_bytes()
    )
    ahead = scene.campaign.scenes.create(title="Later", backdrop=backdrop)
    url = f"/campaigns/{scene.campaign.pk}/table/pictures/{backdrop.token}/"
    assert client_for(member).get(url).status_code == 404
    assert client_for(owner).get(url).status_code == 200
    from rolls.scene import services as scenes

    scenes.scene_switch(campaign=scene.campaign, scene=ahead)
    for who in (member, observer):
        assert client_for(who).get(url).status_code == 200
    assert client_for(outsider).get(url).status_code == 404
    # Off the table again: what it shows is the GMs' again, though the players saw it once.
    scenes.scene_switch(campaign=scene.campaign, scene=scene)
    assert client_for(member).get(url).status_code == 404
    assert client_for(owner).get(url).status_code == 200


def test_a_backdrop_put_on_a_scene_off_the_table_is_not_served_to_players(
    scene, client_for, owner, member, observer, outsider
):
    """The Later scene was shown, then put away; the GM gives it a new backdrop for next
    time. Its address carries no count: neighbouring ids lead nowhere."""
    from rolls.scene import services as scenes

    later = scenes.scene_create(campaign=scene.campaign, title="Later")
    scenes.scene_switch(campaign=scene.campaign, scene=later)
    scenes.scene_switch(campaign=scene.campaign, scene=scene)
    gm = client_for(owner)
    edit = reverse("rolls:scene_edit", args=[scene.campaign.pk, later.pk])
    upload = SimpleUploadedFile("bay.png", picture_bytes(), content_type="image/png")
    data = {"action": "save", "title": "Later", "description": "", "backdrop": upload}
    assert gm.post(edit, data).status_code in (200, 302, 204)
    later.refresh_from_db()
    backdrop = later.backdrop
    assert backdrop is not None and len(backdrop.token) >= 20 and not backdrop.token.isdigit()
    base = f"/campaigns/{scene.campaign.pk}/table/pictures/"
    for who in (member, observer):
        assert client_for(who).get(f"{base}{backdrop.token}/").status_code == 404
    assert gm.get(f"{base}{backdrop.token}/").status_code == 200
    assert client_for(outsider).get(f"{base}{backdrop.token}/").status_code == 404
    assert gm.get(f"{base}{backdrop.pk}/").status_code == 404  # its id names nothing
    # Shown to the table: the board names it by its token, and the players load it.
    scenes.scene_switch(campaign=scene.campaign, scene=later)
    page = client_for(member).get(reverse("rolls:table", args=[scene.campaign.pk]))
    assert f"{base}{backdrop.token}/" in page.content.decode()
    assert client_for(member).get(f"{base}{backdrop.token}/").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_every_kept_picture_a_token_of_its_own(owner):
    """Pictures kept before tokens were served by id: each gets its own random token."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    before, after = [("rolls", "0010_scenes_and_table_talk")], [("rolls", "0011_picture_token")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    campaign = old.get_model("campaigns", "Campaign").objects.create(name="Old", owner_id=owner.pk)
    for _ in range(3):
        old.get_model("rolls", "Picture").objects.create(
            campaign_id=campaign.pk,
            data=b"x",
            content_type="image/webp",
            width=1,
            height=1,
            size=1,
            digest="d",
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    tokens = list(new.get_model("rolls", "Picture").objects.values_list("token", flat=True))
    assert len(set(tokens)) == 3 and all(len(token) >= 20 for token in tokens)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
