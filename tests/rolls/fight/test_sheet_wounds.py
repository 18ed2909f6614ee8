"""A wound marked on a sheet is a line in the table's log and its session's recap: marked by the
GM or by the player themself, pushed to every screen for a PC, to the GMs' alone for an NPC;
clearing a box or a tap that changes nothing writes nothing; an outsider's tap is refused."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import character_create
from rolls.models import Roll
from tests.rolls.conftest import set_rules
from tests.table_sockets import gm_and_player

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
HURT = 3  # EZFudge's wound boxes down the sheet: Scratch 0-2, Hurt 3-4, Very Hurt 5, ...
GMS_LINE = "Wound marked on Dorothy: Hurt (by the GM, on the sheet)."


@pytest.fixture
def ez_hero(campaign, member):
    set_rules(campaign, "ezfudge")
    return character_create(campaign=campaign, owner=member, name="Dorothy")


@pytest.fixture
def ez_villain(campaign):
    set_rules(campaign, "ezfudge")
    return character_create(campaign=campaign, owner=None, name="Wicked Witch", kind="npc")


def tap(client, character, box: str, command: str = "track-box", **data):
    url = reverse("characters:command", args=[character.campaign_id, character.pk, command])
    return client.post(url, {"track": "wounds", "box": box, **data}, headers=HX)


def lines(campaign) -> list[Roll]:
    return list(Roll.objects.filter(campaign=campaign, snapshot__has_key="wound").order_by("pk"))


def log_text(client, campaign) -> str:
    page = client.get(reverse("rolls:log", args=[campaign.pk])).text
    return page[page.index('class="roll-log"') :]


def recap(client, campaign) -> str:
    return client.get(reverse("rolls:recap", args=[campaign.pk, 1])).text


def test_a_gms_wound_on_a_pc_is_in_the_log_and_the_recap_for_the_gm_and_the_player(
    client_for, owner, member, campaign, ez_hero
):
    gm = client_for(owner)
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    assert tap(gm, ez_hero, f"{HURT}:mark").status_code == 200
    [entry] = lines(campaign)
    assert entry.label == GMS_LINE
    assert entry.kind == Roll.Kind.ANNOUNCEMENT and not entry.secret
    assert entry.character == ez_hero and entry.session.number == 1
    assert entry.snapshot["wound"]["taken"] == [
        {"row": "Hurt", "boxes": 1, "stuns": 0, "names": []}
    ]
    for reader in (gm, client_for(member)):
        assert GMS_LINE in log_text(reader, campaign)
        page = recap(reader, campaign)
        assert GMS_LINE in page and ">0 rolls · 1 wound marked</p>" in page


def test_the_players_own_mark_is_logged_too_naming_them(
    client_for, owner, member, campaign, ez_hero
):
    player = client_for(member)
    assert tap(player, ez_hero, "2:mark").status_code == 200  # the third Scratch box: all three
    [entry] = lines(campaign)
    assert entry.label == (
        "Wound marked on Dorothy: Scratch (3 boxes) (by player-member, on the sheet)."
    )
    assert entry.roller == member
    assert entry.label in log_text(client_for(owner), campaign)


def test_a_stun_circled_says_so(client_for, owner, campaign, ez_hero):
    tap(client_for(owner), ez_hero, f"{HURT}:mark", stun="on")
    assert [e.label for e in lines(campaign)] == [
        "Wound marked on Dorothy: Hurt circled as a stun (by the GM, on the sheet)."
    ]


def test_clearing_a_box_or_tapping_what_is_already_so_writes_nothing(
    client_for, owner, campaign, ez_hero
):
    gm = client_for(owner)
    tap(gm, ez_hero, f"{HURT}:mark")
    tap(gm, ez_hero, f"{HURT}:mark")  # a second device's stale tap, or a double tap
    tap(gm, ez_hero, f"{HURT}:clear")
    assert [e.label for e in lines(campaign)] == [GMS_LINE]


def test_an_outsider_gets_a_404_and_nothing_is_marked_or_written(
    client_for, outsider, campaign, ez_hero
):
    assert tap(client_for(outsider), ez_hero, f"{HURT}:mark").status_code == 404
    ez_hero.refresh_from_db()
    assert {box for row in ez_hero.tracks["wounds"]["levels"] for box in row} == {"clear"}
    assert lines(campaign) == []


def test_a_refused_tap_writes_nothing(client_for, owner, campaign, ez_hero):
    answer = tap(client_for(owner), ez_hero, "0:mark", stun="on")  # a stun Scratch: no effect
    assert "has no effect" in answer.text
    assert lines(campaign) == []


def test_an_npcs_wound_stays_with_the_gms(client_for, owner, member, campaign, ez_villain):
    gm, player = client_for(owner), client_for(member)
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    condition = {"track": "condition", "name": "Melting", "effect": 2}
    url = reverse("characters:command", args=[campaign.pk, ez_villain.pk, "track-condition"])
    assert gm.post(url, condition, headers=HX).status_code == 200
    [entry] = lines(campaign)
    assert entry.secret
    assert entry.label == (
        "Wound marked on Wicked Witch: Condition: Melting (2 boxes) (by the GM, on the sheet)."
    )
    assert entry.label in log_text(gm, campaign) and entry.label in recap(gm, campaign)
    assert "1 wound marked" in recap(gm, campaign)
    for page in (log_text(player, campaign), recap(player, campaign)):
        assert "Wicked Witch" not in page and "Melting" not in page
    assert "wound marked" not in recap(player, campaign)
    # Even revealed, an NPC's tracks are no player's to read, so its wounds are not either.
    met = character_create(campaign=campaign, owner=None, name="Glinda", kind="npc")
    met.revealed = True
    met.save(update_fields=["revealed"])
    tap(gm, met, "0:mark", track="condition")
    assert [e.secret for e in lines(campaign)] == [True, True]
    assert "Glinda" not in log_text(player, campaign)


@pytest.mark.django_db(transaction=True)
async def test_the_line_is_pushed_to_the_gm_and_the_player_but_an_npcs_to_the_gm_alone(
    campaign, cookies, client_for, owner, ez_hero, ez_villain
):
    gm_socket, player_socket = await gm_and_player(campaign, cookies)
    gm = await sync_to_async(client_for)(owner)
    await sync_to_async(tap)(gm, ez_villain, "0:mark", track="condition")
    npc_line = "Wound marked on Wicked Witch: Condition (by the GM, on the sheet)."
    await _until(gm_socket, npc_line)
    await sync_to_async(tap)(gm, ez_hero, f"{HURT}:mark")
    await _until(gm_socket, GMS_LINE)
    # The player's frames, up to the PC's line, said nothing of the NPC's.
    frames = await _until(player_socket, GMS_LINE)
    assert not any("Wicked Witch" in frame for frame in frames)
    for socket in (gm_socket, player_socket):
        await socket.disconnect()


async def _until(socket, marker: str) -> list[str]:
    frames = []
    for _ in range(40):
        frames.append(await socket.receive_from(timeout=5))
        if marker in frames[-1]:
            return frames
    raise AssertionError(f"{marker!r} never came; got {frames!r}")
