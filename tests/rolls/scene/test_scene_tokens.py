"""Figures are tokens: the initials in the owner's colour, the wound the character is in (the
track's own words, EZFudge "Wound Track": only the highest level counts), a PC's Fudge points;
knocked over when Out of It ("cannot leave your current area"). A wound marked on a sheet
redraws the token at once on every screen that sees it, and nowhere else."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from campaigns.selectors import campaign_ruleset
from rolls.scene.ids import shown_id
from rolls.scene.selectors import wound_words
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import HTMX, area, figure_of
from tests.table_sockets import joined, until

# EZFudge's wound track: Scratch 3 boxes, Hurt 2, Very Hurt 1, Out of It 1, Near Death 1.
HURT, OUT_OF_IT = 3, 6


def mark(client, character, track: str, box: int) -> None:
    url = reverse("characters:command", args=[character.campaign_id, character.pk, "track-box"])
    answer = client.post(url, {"track": track, "box": f"{box}:mark"}, headers=HTMX)
    assert answer.status_code == 200


@pytest.mark.django_db
def test_the_worst_wound_is_named_in_the_tracks_words(scene, jason, brute, client_for, owner):
    gm = client_for(owner)
    ruleset = campaign_ruleset(scene.campaign)
    assert wound_words(jason, ruleset) == ""
    mark(gm, jason, "wounds", 0)
    jason.refresh_from_db()
    assert wound_words(jason, ruleset) == "Scratch"
    mark(gm, jason, "wounds", HURT)
    jason.refresh_from_db()
    assert wound_words(jason, ruleset) == "Hurt"  # the highest level only
    # An NPC's boxes: how full the track is, then its consequence when full.
    mark(gm, brute, "condition", 0)
    brute.refresh_from_db()
    assert wound_words(brute, ruleset) == "Condition 1/4"
    for box in (1, 2, 3):
        mark(gm, brute, "condition", box)
    brute.refresh_from_db()
    assert wound_words(brute, ruleset) == "Incapacitated"


@pytest.mark.django_db
def test_a_token_shows_initials_the_wound_and_fudge_points(scene, jason, client_for, owner, member):
    jason.fudge_points = 3
    jason.save(update_fields=["fudge_points"])
    mark(client_for(owner), jason, "wounds", HURT)
    page = client_for(member).get(reverse("rolls:table", args=[scene.campaign.pk])).content.decode()
    figure = page[page.index(f'id="figure-{shown_id(figure_of(scene, "Jason Free"))}"') :]
    figure = figure[: figure.index("</li>")]
    assert '>JF</span><span class="figure-name">Jason Free</span>' in figure
    assert 'class="token token-c' in figure and "token-c0" not in figure  # a player's colour
    assert '<span class="figure-state">Hurt</span>' in figure
    assert '3<span class="visually-hidden"> Fudge points' in figure
    assert "figure-down" not in figure
    # The Brute, an NPC: no owner's colour, no Fudge points shown.
    brute = page[page.index(f'id="figure-{shown_id(figure_of(scene, "Brute"))}"') :]
    brute = brute[: brute.index("</li>")]
    assert "token-c0" in brute and "Fudge points" not in brute


@pytest.mark.django_db(transaction=True)
async def test_a_wound_marked_on_a_sheet_redraws_the_token_where_it_is_seen(
    scene, jason, client_for, owner, cookies
):
    campaign = await sync_to_async(lambda: scene.campaign)()
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    her = await joined(campaign, cookies["member"], "player-member")
    await until(gm, "player-member")
    hall = await sync_to_async(area)(scene, "Hall")

    await sync_to_async(mark)(gm_client, jason, "wounds", OUT_OF_IT)
    for socket in (gm, her):
        frame = (await until(socket, f'id="area-{shown_id(hall)}"'))[-1]
        assert '<span class="figure-state">Out of It</span>' in frame
        assert "figure-down" in frame  # knocked over: "cannot leave your current area"

    # The party strip follows the token; read it, so that what comes next is the Lurker's.
    for socket in (gm, her):
        while not await socket.receive_nothing(timeout=0.3):
            await socket.receive_from()

    # The Lurker, whom the players have not met, in the hidden Vault: the GMs' board alone.
    lurker = await sync_to_async(lambda: figure_of(scene, "Lurker").character)()
    await sync_to_async(mark)(gm_client, lurker, "condition", 0)
    # The token's frame, whether the log's line about it comes before or after it.
    frame = (await until(gm, "Condition 1/3"))[-1]
    assert "Lurker" in frame
    assert await her.receive_nothing(timeout=0.3)
    await gm.disconnect()
    await her.disconnect()


@pytest.mark.django_db
def test_an_outsider_sees_no_token(scene, client_for, outsider):
    page = client_for(outsider).get(reverse("rolls:table", args=[scene.campaign.pk]))
    assert page.status_code == 404
