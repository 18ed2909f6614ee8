"""The scenes in a campaign's backup: pictures, scenes, areas, ranges, figures, cards (who each
is shown to) and a running round come back with a restore, and the restored campaign backs up
as the same document; a picture in a file that is not one FudgeTable keeps is refused in words;
a player never gets the backup."""

import base64
import io
import json
import struct

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from PIL import Image

from rolls.backup.restore import campaign_restore
from rolls.scene import cards as scene_cards
from rolls.scene import moves as scene_moves
from rolls.scene import pictures
from rolls.scene.models import Card, Figure, Picture, Scene
from tests.rolls.backup.test_campaign_backup import backed_up, join_everyone, without_time
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import area, picture_bytes

pytestmark = pytest.mark.django_db


@pytest.fixture
def prepared(scene, owner, member):
    """The Mill with a backdrop, a card with a picture shown to the member, and a fight in
    its ranged phase."""
    gm = scene.campaign.memberships.get(user=owner)
    backdrop = pictures.picture_create(
        campaign=scene.campaign, uploaded_by_id=owner.pk, data=picture_bytes((300, 200))
    )
    scene.backdrop = backdrop
    scene.save(update_fields=["backdrop"])
    drawing = pictures.picture_create(
        campaign=scene.campaign, uploaded_by_id=owner.pk, data=picture_bytes((50, 50), "JPEG")
    )
    card = scene_cards.card_create(
        membership=gm, scene=scene, title="The ledger", area=area(scene, "Vault"), picture=drawing
    )
    scene_cards.card_reveal(membership=gm, card=card, shown="some", people=[member.pk])
    scene_moves.round_step(scene=scene, step="start")
    scene_moves.round_step(scene=scene, step="next")
    return scene.campaign


def test_a_restored_scene_backs_up_as_the_same_document(prepared, owner, member):
    backup = backed_up(prepared)
    assert len(backup["pictures"]) == 2 and len(backup["scenes"]) == 1
    mill = backup["scenes"][0]
    assert mill["current"] and mill["phase"] == "ranged" and len(mill["areas"]) == 3
    assert mill["cards"][0]["people"] == ["player-member"]
    done = campaign_restore(owner=owner, data=backup)
    join_everyone(done.campaign, backup)
    assert without_time(backed_up(done.campaign)) == without_time(backup)
    restored = Scene.objects.get(campaign=done.campaign)
    assert restored.current and restored.round == 1 and restored.backdrop.width == 300
    assert Figure.objects.filter(scene=restored).count() == 3
    assert Card.objects.get(scene=restored).people == [member.pk]


@pytest.mark.parametrize("bad", ["svg", "png", "not-base64", "huge"])
def test_a_picture_the_table_would_not_keep_is_refused(prepared, owner, bad):
    backup = backed_up(prepared)
    picture = backup["pictures"][0]
    if bad == "svg":
        picture["data"] = base64.b64encode(b"<svg><script>alert(1)</script></svg>").decode()
    elif bad == "png":  # never what the table keeps; an upload takes it, a backup does not
        picture["data"] = base64.b64encode(picture_bytes((300, 200))).decode()
    elif bad == "not-base64":
        picture["data"] = "!!!"
    else:
        picture["width"] = 9999
    before = Picture.objects.count()
    with pytest.raises(ValidationError) as refused:
        campaign_restore(owner=owner, data=json.loads(json.dumps(backup)))
    assert any(message.startswith("pictures[0]") for message in refused.value.messages)
    assert Picture.objects.count() == before


def test_a_scene_pointing_at_nothing_is_refused(prepared, owner):
    backup = backed_up(prepared)
    backup["scenes"][0]["figures"][0]["area"] = 99
    backup["scenes"][0]["ranges"][0]["range"] = "far"  # not one of EZFudge's four
    with pytest.raises(ValidationError) as refused:
        campaign_restore(owner=owner, data=backup)
    text = " ".join(refused.value.messages)
    assert "scenes[0].figures[0].area" in text and "scenes[0].ranges[0].range" in text


def test_only_gms_download_the_backup_with_its_hidden_cards(
    prepared, client_for, owner, member, outsider
):
    url = reverse("campaign_export", args=[prepared.pk])
    assert "The ledger" in client_for(owner).get(url).content.decode()
    assert client_for(member).get(url).status_code == 403
    assert client_for(outsider).get(url).status_code == 404


HTML = b"<html><script>alert(document.cookie)</script></html>"


def chunk(name: bytes, payload: bytes) -> bytes:
    return name + struct.pack("<I", len(payload)) + payload + b"\0" * (len(payload) & 1)


def webp_carrying(extra: str) -> bytes:
    """The backdrop as the table keeps it (300 x 200), with something beside its pixels: a
    chunk of HTML after them (a simple WebP) or before them (an extended one), or EXIF."""
    out = io.BytesIO()
    if extra == "exif":
        exif = Image.Exif()
        exif[0x010F] = "<html>Camera</html>"
        Image.new("RGB", (300, 200), (200, 30, 30)).save(out, "WEBP", exif=exif)
        return out.getvalue()
    Image.new("RGB", (300, 200), (200, 30, 30)).save(out, "WEBP")
    pixels = out.getvalue()[12:]
    if extra == "html-after":
        body = pixels + chunk(b"HTML", HTML)
    else:
        canvas = bytes(4) + (299).to_bytes(3, "little") + (199).to_bytes(3, "little")
        body = chunk(b"VP8X", canvas) + chunk(b"HTML", HTML) + pixels
    return b"RIFF" + struct.pack("<I", len(body) + 4) + b"WEBP" + body


@pytest.mark.parametrize("extra", ["html-after", "html-before", "exif"])
def test_a_restored_picture_is_drawn_again_as_an_upload_is(
    prepared, owner, member, client_for, extra
):
    backup = backed_up(prepared)
    carrying = webp_carrying(extra)
    assert Image.open(io.BytesIO(carrying)).size == (300, 200)  # it is a picture, and shows
    backup["pictures"][0]["data"] = base64.b64encode(carrying).decode()
    done = campaign_restore(owner=owner, data=backup)
    join_everyone(done.campaign, backup)
    restored = Scene.objects.get(campaign=done.campaign)
    url = reverse("rolls:picture", args=[done.campaign.pk, restored.backdrop.token])
    for reader in (owner, member):  # the backdrop of the scene shown to the table
        served = client_for(reader).get(url)
        assert served.status_code == 200 and served["Content-Type"] == "image/webp"
        data = served.content
        assert data != carrying and b"<html>" not in data and b"HTML" not in data
        shown = Image.open(io.BytesIO(data))
        shown.load()
        assert shown.size == (300, 200) and "exif" not in shown.info
    assert restored.backdrop.width == 300 and restored.backdrop.size == len(data)
    # Drawn again once, it is as the table keeps it: its next backup restores it byte for byte.
    again = backed_up(done.campaign)
    second = campaign_restore(owner=owner, data=again).campaign
    kept = Scene.objects.get(campaign=second).backdrop
    assert bytes(kept.data) == data


def test_a_picture_as_the_table_keeps_it_comes_back_byte_for_byte(prepared, owner):
    backup = backed_up(prepared)
    done = campaign_restore(owner=owner, data=backup)
    kept = Picture.objects.filter(campaign=done.campaign).order_by("created_at", "pk")
    assert [base64.b64encode(bytes(p.data)).decode() for p in kept] == [
        p["data"] for p in backup["pictures"]
    ]


def test_the_starting_area_comes_back_with_a_restore(prepared, owner):
    scene = Scene.objects.get(campaign=prepared)
    scene.start_area = area(scene, "Gallery")
    scene.save(update_fields=["start_area"])
    backup = backed_up(prepared)
    mill = backup["scenes"][0]
    gallery = next(row["ref"] for row in mill["areas"] if row["name"] == "Gallery")
    assert mill["start_area"] == gallery
    done = campaign_restore(owner=owner, data=backup)
    restored = Scene.objects.get(campaign=done.campaign)
    assert restored.start_area.name == "Gallery" and restored.start_area.scene == restored
    assert backed_up(done.campaign)["scenes"][0]["start_area"] == gallery
    # A file from before scenes had one restores with none.
    del backup["scenes"][0]["start_area"]
    older = campaign_restore(owner=owner, data=backup)
    assert Scene.objects.get(campaign=older.campaign).start_area is None


@pytest.mark.parametrize("bad", ["hidden", "nowhere"])
def test_a_starting_area_the_table_would_not_keep_is_refused(prepared, owner, bad):
    backup = backed_up(prepared)
    mill = backup["scenes"][0]
    vault = next(row["ref"] for row in mill["areas"] if row["name"] == "Vault")
    mill["start_area"] = vault if bad == "hidden" else 99
    before = Scene.objects.count()
    with pytest.raises(ValidationError) as refused:
        campaign_restore(owner=owner, data=backup)
    assert any("scenes[0].start_area" in message for message in refused.value.messages)
    assert Scene.objects.count() == before
