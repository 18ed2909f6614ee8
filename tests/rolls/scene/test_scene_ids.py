"""The scene's parts go by ids that carry no count (``rolls.scene.ids``): what the table page
and the table's socket show each person names the areas, figures and cards they may see by ids
that read back to those parts, never by the database's numbers; moves and pins sent back with
those ids work over HTTP and over the socket; an id the server did not make for that kind of
part (forged, mistyped, another kind's, a database number) names nothing: a 404."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from rolls.scene import cards as scene_cards
from rolls.scene.ids import shown_id
from rolls.scene.models import Area, Card, Figure, Scene
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import area, figure_of, parts_named, post
from tests.rolls.table.test_socket_commands import answer_to, command
from tests.table_sockets import joined, until


def _gm_cards(scene, owner) -> tuple[Card, Card]:
    """A card kept for the GMs, and one pinned to the Hall and shown to everyone full screen."""
    gm = scene.campaign.memberships.get(user=owner)
    kept = scene_cards.card_create(membership=gm, scene=scene, title="Kept", text="")
    pinned = scene_cards.card_create(membership=gm, scene=scene, title="Pinned", text="")
    scene_cards.card_reveal(
        membership=gm, card=pinned, shown=Card.Shown.EVERYONE, area=area(scene, "Hall")
    )
    pinned.refresh_from_db()
    scene_cards.handout_show(membership=gm, card=pinned)
    return kept, pinned


def _raw_ids(page: str) -> list[str]:
    """The ways a page named a part by its database id before."""
    shown = []
    for kind, model in (("area", Area), ("figure", Figure), ("card", Card)):
        for pk in model.objects.values_list("pk", flat=True):
            shown += [
                marker
                for marker in (f'id="{kind}-{pk}"', f'data-{kind}="{pk}"', f'data-pin="{pk}"')
                if marker in page
            ]
    return shown


@pytest.mark.django_db
def test_each_page_names_the_parts_its_person_sees_by_ids_that_read_back_to_them(
    scene, client_for, owner, member, observer
):
    kept, pinned = _gm_cards(scene, owner)
    hall, gallery, vault = (area(scene, name) for name in ("Hall", "Gallery", "Vault"))
    jason, brute, lurker = (figure_of(scene, n) for n in ("Jason Free", "Brute", "Lurker"))
    players_see = {
        "area": {hall.pk, gallery.pk},
        "figure": {jason.pk, brute.pk},
        "card": {pinned.pk},
        "scene": set(),
    }
    gms_see = {
        "area": {hall.pk, gallery.pk, vault.pk},
        "figure": {jason.pk, brute.pk, lurker.pk},
        "card": {kept.pk, pinned.pk},
        "scene": {scene.pk},
    }
    table = reverse("rolls:table", args=[scene.campaign.pk])
    for who, sees in ((owner, gms_see), (member, players_see), (observer, players_see)):
        page = client_for(who).get(table).content.decode()
        named, unread = parts_named(page)
        assert unread == [] and _raw_ids(page) == [], who
        assert named == sees, who
        # The pin and the box it points to carry the same id: scene.js finds one by the other.
        assert f'data-pin="{shown_id(hall)}"' in page and f'id="area-{shown_id(hall)}"' in page
    prep = reverse("rolls:scene_edit", args=[scene.campaign.pk, scene.pk])
    named, unread = parts_named(client_for(owner).get(prep).content.decode())
    assert unread == [] and named["area"] == gms_see["area"] and named["card"] == gms_see["card"]


@pytest.mark.django_db
def test_a_move_and_a_pin_named_by_shown_ids_land_for_the_gm_and_the_player(
    scene, client_for, owner, member, outsider
):
    campaign = scene.campaign
    jason, hall, gallery = (
        figure_of(scene, "Jason Free"),
        area(scene, "Hall"),
        area(scene, "Gallery"),
    )
    move = {"figure": shown_id(jason), "area": shown_id(gallery), "seen_in": shown_id(hall)}
    assert post(client_for(outsider), campaign, "figure_move", move).status_code == 404
    assert Figure.objects.get(pk=jason.pk).area_id == hall.pk
    assert post(client_for(member), campaign, "figure_move", move).status_code == 204
    assert Figure.objects.get(pk=jason.pk).area_id == gallery.pk
    back = {"figure": shown_id(jason), "area": shown_id(hall), "seen_in": shown_id(gallery)}
    assert post(client_for(owner), campaign, "figure_move", back).status_code == 204
    assert Figure.objects.get(pk=jason.pk).area_id == hall.pk

    kept, _ = _gm_cards(scene, owner)
    pin = {"shown": "everyone", "area": shown_id(gallery)}
    assert post(client_for(member), campaign, "card_reveal", pin, kept.pk).status_code == 403
    assert post(client_for(outsider), campaign, "card_reveal", pin, kept.pk).status_code == 404
    assert Card.objects.get(pk=kept.pk).area_id is None
    assert post(client_for(owner), campaign, "card_reveal", pin, kept.pk).status_code == 204
    assert Card.objects.get(pk=kept.pk).area_id == gallery.pk
    made = {"title": "Chalk mark", "shown": "gm", "area": shown_id(hall)}
    assert post(client_for(owner), campaign, "card_create", made).status_code == 204
    assert Card.objects.get(title="Chalk mark").area_id == hall.pk


def _forged(shown: str) -> str:
    return ("A" if shown[0] != "A" else "B") + shown[1:]


@pytest.mark.django_db
def test_an_id_the_server_did_not_make_for_that_part_is_a_404_and_changes_nothing(
    scene, client_for, owner, member
):
    campaign = scene.campaign
    jason, hall, gallery = (
        figure_of(scene, "Jason Free"),
        area(scene, "Hall"),
        area(scene, "Gallery"),
    )
    figure, to = shown_id(jason), shown_id(gallery)
    for wrong in (
        {"figure": _forged(figure), "area": to},
        {"figure": shown_id(gallery), "area": to},  # an area's id where a figure's goes
        {"figure": str(jason.pk), "area": to},  # the database's own number
        {"figure": figure, "area": shown_id(jason)},
        {"figure": figure, "area": str(gallery.pk)},
        {"figure": figure, "area": to, "seen_in": _forged(shown_id(hall))},
    ):
        for who in (owner, member):
            assert post(client_for(who), campaign, "figure_move", wrong).status_code == 404, wrong
    assert Figure.objects.get(pk=jason.pk).area_id == hall.pk
    # Nothing named at all is the form's refusal, in words.
    refused = post(client_for(member), campaign, "figure_move", {"area": to})
    assert refused.status_code == 422 and "Pick who moves" in refused.content.decode()

    gm = client_for(owner)
    kept, _ = _gm_cards(scene, owner)
    url = reverse("rolls:card_reveal", args=[campaign.pk, kept.pk])
    for other in (shown_id(hall), str(kept.pk), _forged(shown_id(kept))):
        wrong_url = url.replace(shown_id(kept), other)
        assert gm.post(wrong_url, {"shown": "everyone"}).status_code == 404
    bad_pin = {"shown": "everyone", "area": _forged(shown_id(hall))}
    assert post(gm, campaign, "card_reveal", bad_pin, kept.pk).status_code == 404
    assert Card.objects.get(pk=kept.pk).shown == Card.Shown.GM  # nothing half-saved
    made = {"title": "Forged", "shown": "gm", "area": str(hall.pk)}
    assert post(gm, campaign, "card_create", made).status_code == 404
    assert not Card.objects.filter(title="Forged").exists()
    assert post(gm, campaign, "scene_switch", {"scene": str(scene.pk)}).status_code == 404
    assert Scene.objects.get(pk=scene.pk).current

    prep = reverse("rolls:scene_edit", args=[campaign.pk, scene.pk])
    assert gm.get(prep.replace(shown_id(scene), str(scene.pk))).status_code == 404
    saved = {"action": "area-delete", "area": str(hall.pk)}
    assert gm.post(prep, saved).status_code == 404 and Area.objects.filter(pk=hall.pk).exists()
    ranges = {"action": "ranges", f"range-{hall.pk}-{gallery.pk}": "S"}
    gm.post(prep, ranges)
    assert "A range names two areas." in gm.get(prep).content.decode()
    assert Scene.objects.get(pk=scene.pk).ranges == scene.ranges


@pytest.mark.django_db(transaction=True)
async def test_over_the_socket_moves_and_pins_go_by_shown_ids_and_frames_show_no_other(
    scene, client_for, owner, member, cookies
):
    campaign, jason, hall, gallery, lurker, kept = await sync_to_async(_socket_table)(scene, owner)
    brute = await Figure.objects.filter(character__name="Brute").values_list("pk", flat=True).aget()
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    await until(gm, "player-member")
    move_url = reverse("rolls:figure_move", args=[campaign.pk])

    # The GM moves the hidden NPC, then pins the card to the Gallery and shows it, over the
    # socket; she moves her PC over hers, named as her page names them.
    moved = {"figure": shown_id(lurker), "area": shown_id(hall)}
    await command(gm, move_url, moved, number=1)
    assert (await answer_to(gm, 1))["status"] == 204
    pin = {"shown": "everyone", "area": shown_id(gallery)}
    await command(gm, reverse("rolls:card_reveal", args=[campaign.pk, kept.pk]), pin, number=2)
    assert (await answer_to(gm, 2))["status"] == 204
    frames = await until(her, "Kept")
    move = {"figure": shown_id(jason), "area": shown_id(gallery), "seen_in": shown_id(hall)}
    await command(her, move_url, move, number=3)
    assert (await answer_to(her, 3))["status"] == 204
    frames += await until(her, f'#figures-{shown_id(gallery)}"')

    named, unread = parts_named("".join(frames))
    assert unread == []
    # Her frames name the card and her PC, moved into the Gallery (the Brute there is not
    # drawn again); never the hidden Lurker.
    assert named["card"] == {kept.pk} and named["figure"] == {jason.pk}
    assert brute not in named["figure"]
    assert named["area"] == {gallery.pk} and named["scene"] == set()
    assert f'data-pin="{shown_id(gallery)}"' in "".join(frames)

    # An id her page never showed names nothing, over the socket as over HTTP.
    for number, wrong in enumerate(
        (
            {"figure": shown_id(gallery), "area": shown_id(hall)},
            {"figure": str(jason.pk), "area": str(hall.pk)},
            {"figure": _forged(shown_id(jason)), "area": shown_id(hall)},
        ),
        start=4,
    ):
        await command(her, move_url, wrong, number=number)
        assert (await answer_to(her, number))["status"] == 404
    await command(her, reverse("rolls:card_reveal", args=[campaign.pk, kept.pk]), pin, number=7)
    assert (await answer_to(her, 7))["status"] == 403
    assert (await Figure.objects.aget(pk=jason.pk)).area_id == gallery.pk
    for socket in (gm, her):
        await socket.disconnect()


def _socket_table(scene, owner):
    gm = scene.campaign.memberships.get(user=owner)
    kept = scene_cards.card_create(membership=gm, scene=scene, title="Kept", text="")
    found = (figure_of(scene, "Jason Free"), area(scene, "Hall"), area(scene, "Gallery"))
    return (scene.campaign, *found, figure_of(scene, "Lurker"), kept)
