"""Contests of many at the table (Peupfudge 2 :73, its race out of the cave :189-203): the GM
or a player rolls three or more sides, PCs and NPCs mixed, into one log entry with each side
in its place; a GM's secret contest never reaches a player; bad sides are refused in words."""

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.services import character_create
from fudgetable.entry_ids import encode
from rolls.backup.restore import campaign_restore
from rolls.backup.write import campaign_to_json
from rolls.entry_words import entry_label
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, set_rules, trait
from tests.rolls.fight_setup import LoadedDice
from tests.table_sockets import joined, until

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


@pytest.fixture
def cave(campaign, member, rival, villain):
    """Example 4's racers at a Peupfudge table: Gromanno (the member's PC, Fitness 2), Nyrv
    (an NPC, Fitness 5) and Polthova (the second player's PC, Fitness 8)."""
    set_rules(campaign, "peupfudge")
    gromanno = character_create(campaign=campaign, owner=member, name="Gromanno")
    nyrv = character_create(campaign=campaign, owner=None, name="Nyrv", kind="npc")
    _, polthova = rival
    polthova.name = "Polthova"
    polthova.save(update_fields=["name"])
    return {
        "gromanno": trait(gromanno, "Fitness", level=2),
        "nyrv": trait(nyrv, "Fitness", level=5),
        "polthova": trait(polthova, "Fitness", level=8),
    }


def race_form(cave, **extra) -> dict:
    # :191-195 A: Gromanno's "Old running shoes" +1, Nyrv's "Poor low-light vision" -1.
    return {
        "label": "Race out of the cave",
        "side_1": cave["gromanno"].pk,
        "modifiers_1": "+1",
        "side_2": cave["nyrv"].pk,
        "modifiers_2": "-1",
        "side_3": cave["polthova"].pk,
        "modifiers_3": "",
        "key": fresh_key(),
        **extra,
    }


def load(monkeypatch, *faces: int) -> None:
    from fudgetable.rules.dice import base as dice_base

    monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice(list(faces)))


# :196-199 "They all roll 3dF. Gromanno's player rolls a 0 for him, the GM rolls a +2 for Nyrv,
# and Polthova's player rolls a -3 for him."
CAVE_DICE = (1, -1, 0, 1, 1, 0, -1, -1, -1)


def post(client, campaign, data, *, htmx: bool = True):
    return client.post(
        reverse("rolls:contest_many", args=[campaign.pk]), data, headers=HX if htmx else {}
    )


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def test_the_gm_runs_the_race_out_of_the_cave_and_nyrv_wins(
    client_for, owner, member, campaign, cave, monkeypatch
):
    load(monkeypatch, *CAVE_DICE)
    response = post(client_for(owner), campaign, race_form(cave))
    assert response.status_code == 200
    assert "Rolled: Race out of the cave: Nyrv wins" in response.content.decode()
    race = Roll.objects.get()
    assert race.kind == Roll.Kind.CONTEST and race.character is None
    assert entry_label(race) == "Race out of the cave: Nyrv wins"
    sides = race.snapshot["sides"]
    # :200-202 "Gromanno: 2 + 1 + 0 = 3", "Nyrv: 5 - 1 + 2 = 6", "Polthova: 8 + 0 - 3 = 5",
    # in one entry, best first.
    assert [(s["name"], s["result"], s["place"]) for s in sides] == [
        ("Nyrv", 6, 1),
        ("Polthova", 5, 2),
        ("Gromanno", 3, 3),
    ]
    assert [s["roll"] for s in sides] == [2, -3, 0]
    assert [s["method_label"] for s in sides] == ["3 Fudge dice"] * 3
    assert race.snapshot["winners"] == ["Nyrv"] and race.snapshot["relative_degree"] == 1
    assert 0 < sides[0]["chance_percent"] < sides[1]["chance_percent"]
    player_page = table(client_for(member), campaign)
    assert "Race out of the cave: Nyrv wins" in player_page
    entry = player_page[player_page.index(f'id="roll-{encode(race.pk)}"') :]
    assert entry.index("Nyrv:") < entry.index("Polthova:") < entry.index("Gromanno:")
    assert "Spend a Fudge point" not in entry[: entry.index("</li>")]


def test_equal_best_results_are_a_tie_at_a_peupfudge_table(
    client_for, owner, campaign, cave, monkeypatch
):
    # :73 "When the L + A + R of multiple characters is equal, this should be interpreted as a
    # tie rather than as a success for any of the tied characters."
    load(monkeypatch, 1, 1, 1, 1, 1, 0, 0, 0, -1)  # 2 + 1 + 3 = 6, 5 - 1 + 2 = 6, 8 - 2 - 1 = 5
    post(client_for(owner), campaign, race_form(cave, modifiers_3="-2"))
    race = Roll.objects.get()
    assert entry_label(race) == "Race out of the cave: Gromanno and Nyrv tie: nobody wins"
    assert race.snapshot["outcome"] == "tie" and race.snapshot["winners"] == []
    assert [s["place"] for s in race.snapshot["sides"]] == [1, 1, 3]


def test_a_player_races_the_pcs_and_the_gm_s_npcs_stay_the_gm_s(
    client_for, member, campaign, cave, monkeypatch
):
    third = character_create(campaign=campaign, owner=None, name="Tolk")
    tolk = trait(third, "Fitness", level=4)
    player = client_for(member)
    with_npc = post(player, campaign, race_form(cave))
    assert "Side 2 names no trait you may enter." in with_npc.content.decode()
    assert "Nyrv" not in with_npc.content.decode()  # a player is never offered an NPC's trait
    load(monkeypatch, *CAVE_DICE)
    race = post(player, campaign, race_form(cave, side_2=tolk.pk, secret="1"))
    assert race.status_code == 200
    made = Roll.objects.get()
    assert not made.secret  # a player's contest is never secret
    # Tolk 4 + 2 = 6 ahead of Polthova 8 - 3 = 5 and Gromanno 2 + 1 + 0 = 3.
    assert [s["name"] for s in made.snapshot["sides"]] == ["Tolk", "Polthova", "Gromanno"]


def test_a_player_s_contest_has_one_of_their_own(client_for, member, rival, campaign, cave):
    others = character_create(campaign=campaign, owner=None, name="Orphan PC")
    data = race_form(cave, side_1=trait(others, "Fitness", level=1).pk)
    data["side_2"] = trait(
        character_create(campaign=campaign, owner=None, name="Stray"), "Fitness"
    ).pk
    response = post(client_for(member), campaign, data)
    assert "One of the sides is a character of yours." in response.content.decode()
    assert not Roll.objects.exists()


@pytest.mark.parametrize(("who", "status"), [("observer", 403), ("outsider", 404)])
def test_observers_and_outsiders_roll_no_contest(client_for, campaign, cave, who, status, request):
    response = post(client_for(request.getfixturevalue(who)), campaign, race_form(cave))
    assert response.status_code == status
    assert not Roll.objects.exists()


def test_an_observer_is_not_offered_the_card(client_for, owner, observer, campaign, cave):
    assert 'id="contest-many"' not in table(client_for(observer), campaign)
    page = table(client_for(owner), campaign)
    assert 'id="contest-many"' in page and "Nyrv (NPC)" in page


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"side_3": ""}, "A contest of many has from 3 to 6 sides."),
        ({"side_2": "", "modifiers_2": ""}, "A contest of many has from 3 to 6 sides."),
        ({"side_4": "CAVE_GROMANNO"}, "Each side is a different character."),
        ({"modifiers_1": "lots"}, "Write modifiers as whole numbers"),
        ({"modifiers_4": "+2"}, "Pick who rolls on this side, or clear its modifiers."),
        ({"modifiers_1": "+11"}, "Each modifier is a whole number from -10 to +10."),
        ({"side_1": "999999"}, "Side 1 names no trait you may enter."),
        ({"side_1": "first"}, "Enter a whole number."),
        ({"label": "x" * 121}, "at most 120 characters"),
        ({"key": "short"}, "at least 8 characters"),
    ],
)
def test_bad_sides_are_refused_with_a_message_and_nothing_rolled(
    client_for, owner, campaign, cave, changes, message
):
    data = race_form(cave)
    data.update({k: cave["gromanno"].pk if v == "CAVE_GROMANNO" else v for k, v in changes.items()})
    client = client_for(owner)
    htmx = post(client, campaign, data)
    assert htmx.status_code == 200 and message in htmx.content.decode()
    assert 'id="contest-many"' in htmx.content.decode()
    plain = post(client, campaign, data, htmx=False)
    assert plain.status_code == 302
    assert message in client.get(plain["Location"]).content.decode()
    assert not Roll.objects.exists()


def test_a_trait_of_another_campaign_is_refused(client_for, owner, campaign, cave):
    from tests.factories import CampaignFactory

    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    stranger = character_create(campaign=elsewhere, owner=owner, name="Stranger")
    data = race_form(cave, side_2=trait(stranger, "Fitness", level=9).pk)
    assert "Side 2 names no trait" in post(client_for(owner), campaign, data).content.decode()
    assert not Roll.objects.exists()


def test_odds_first_says_each_side_s_chance_and_rolls_nothing(client_for, owner, campaign, cave):
    response = post(client_for(owner), campaign, race_form(cave, odds="1"))
    body = response.content.decode()
    assert "Chances of winning, before the dice" in body
    assert "Polthova: <strong>9" in body and "Nobody (a tie at the top)" in body
    assert not Roll.objects.exists()
    client = client_for(owner)
    plain = post(client, campaign, race_form(cave, odds="1"), htmx=False)
    assert "Chances of winning: Gromanno" in client.get(plain["Location"]).content.decode()
    assert not Roll.objects.exists()


def test_a_resent_form_rolls_once_and_a_plain_post_comes_back_with_the_result(
    client_for, owner, campaign, cave, monkeypatch
):
    load(monkeypatch, *CAVE_DICE)
    data = race_form(cave)
    client = client_for(owner)
    first = post(client, campaign, data, htmx=False)
    assert first.status_code == 302
    assert "Race out of the cave: Nyrv wins" in client.get(first["Location"]).content.decode()
    post(client, campaign, data)
    assert Roll.objects.count() == 1


def test_a_secret_contest_is_the_gm_s_alone(client_for, owner, member, campaign, cave):
    post(client_for(owner), campaign, race_form(cave, label="Xylocarp chase", secret="1"))
    race = Roll.objects.get()
    assert race.secret
    player_page = table(client_for(member), campaign)
    assert "Xylocarp" not in player_page and "The GM rolled (secret)" in player_page
    assert "Xylocarp chase" in table(client_for(owner), campaign)
    log = client_for(member).get(reverse("rolls:log_json", args=[campaign.pk])).content.decode()
    assert "Xylocarp" not in log and "Nyrv" not in log


def test_a_contest_of_many_comes_back_from_a_backup(owner, campaign, client_for):
    racers = [
        trait(character_create(campaign=campaign, owner=None, name=name, kind=kind), "Running", 1)
        for name, kind in (("Ada", "pc"), ("Nyrv", "npc"), ("Bo", "pc"))
    ]
    data = {f"side_{n}": racer.pk for n, racer in enumerate(racers, start=1)}
    post(client_for(owner), campaign, {**data, "label": "Race", "key": fresh_key()})
    restored = campaign_restore(owner=owner, data=campaign_to_json(campaign)).campaign
    again = Roll.objects.get(campaign=restored)
    assert entry_label(again) == entry_label(Roll.objects.get(campaign=campaign))
    names = {s["name"]: s["character"] for s in again.snapshot["sides"]}
    assert names["Nyrv"] == restored.characters.get(name="Nyrv").pk
    assert client_for(owner).get(reverse("rolls:table", args=[restored.pk])).status_code == 200


@pytest.mark.django_db(transaction=True)
async def test_every_socket_gets_the_contest_and_a_player_never_a_secret_one(
    campaign, cookies, client_for, owner, cave
):
    gm_client = await sync_to_async(client_for)(owner)
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    secret = await sync_to_async(race_form)(cave, label="Quillfeather pursuit", secret="1")
    await sync_to_async(post)(gm_client, campaign, secret)
    public = await sync_to_async(race_form)(cave, label="Marker race")
    await sync_to_async(post)(gm_client, campaign, public)
    gm_seen = "".join(await until(gm, "Marker race"))
    assert "Quillfeather pursuit" in gm_seen
    seen = "".join(await until(player, "Marker race"))
    assert "Quillfeather" not in seen and "The GM rolled (secret)" in seen
    assert "Polthova:" in seen
    await gm.disconnect()
    await player.disconnect()
