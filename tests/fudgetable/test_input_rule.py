"""The one input rule (fudgetable/input_rule.py) at each door a text comes in by: a form, a
query string, a character file, a campaign backup, the settings' JSON. Each of the issue's
bad values is refused in words with nothing saved, where before it was a 500 or a campaign
whose backup would not restore."""

import copy
import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from fudgetable.input_rule import json_problems
from fudgetable.json_reader import MOST_LISTED, Reader
from rolls.models import Roll
from tests.campaigns.test_campaign_settings import as_saved, refused, settings_data
from tests.characters.test_exchange import exported, full_sheet
from tests.rolls.backup.test_campaign_backup import backed_up, row_counts
from tests.rolls.conftest import rival, villain  # noqa: F401
from tests.rolls.contest_many.test_contest_many import cave, post, race_form  # noqa: F401 (a fixture)

pytestmark = pytest.mark.django_db

CONTROL = "holds a control character (such as a NUL byte)"
SURROGATE = "holds a broken character (half of a surrogate pair)"
HX = {"HX-Request": "true"}


def as_file(document: str) -> dict:
    return {"file": SimpleUploadedFile("backup.json", document.encode())}


def test_the_rule_names_each_place_in_a_document():
    document = {
        "name": "Zan\x00zibar",
        "log": [{"label": "ok"}, {"snapshot": {"dice": [1, float("inf")], "bad\ud800": 1}}],
        "id": 10**18,
        "fine": ["tab\there", "line\nbreak", "\r\n", "\u2028", 10**18 - 1, 1.5, True, None],
        "c1": "next\x85line",
    }
    assert list(json_problems(document)) == [
        f"name: {CONTROL}",
        "log[1].snapshot.dice[1]: is not a finite number",
        f"log[1].snapshot: a key {SURROGATE}",
        "id: is a number of more than 18 digits",
        f"c1: {CONTROL}",
    ]


def test_a_document_full_of_bad_values_lists_the_first_hundred_and_counts_the_rest():
    reader = Reader("a campaign backup")
    reader.clean({"log": ["\x00"] * 500})
    assert len(reader.problems) == MOST_LISTED + 1
    assert reader.problems[0] == f"log[0]: {CONTROL}"
    assert reader.problems[-1] == f"and {500 - MOST_LISTED} more"


@pytest.mark.parametrize("person", ["owner", "member", "outsider"])
def test_a_20_digit_trait_id_in_a_contest_of_many_is_refused_in_words(
    client_for, campaign, person, request
):
    """It was a 500 on SQLite: the database could not even look the id up."""
    client = client_for(request.getfixturevalue(person))
    racers = request.getfixturevalue("cave")
    response = post(client, campaign, race_form(racers, side_2="9" * 20))
    assert response.status_code == 400
    assert response.content.decode() == (
        "What you sent was not saved: “side_2” is a number of more than 18 digits. "
        "Take it out and send it again."
    )
    assert not Roll.objects.exists()


def test_the_largest_id_a_form_takes_is_an_ordinary_refusal(client_for, owner, campaign, request):
    racers = request.getfixturevalue("cave")
    response = post(client_for(owner), campaign, race_form(racers, side_2="9" * 18))
    assert response.status_code == 200
    assert "Side 2 names no trait you may enter." in response.content.decode()
    assert not Roll.objects.exists()


@pytest.mark.parametrize("person", ["owner", "member", "outsider"])
def test_gm_moves_with_a_nul_byte_are_refused_and_the_backup_still_restores(
    client_for, campaign, person, request, owner
):
    """Saved, they made the campaign's own backup unrestorable (and a 500 on PostgreSQL)."""
    client = client_for(request.getfixturevalue(person))
    url = reverse("campaigns:gm_moves", args=[campaign.pk])
    moves = campaign.gm_moves
    response = client.post(url, {"moves": "Reveal an unwelcome truth\nSeparate\x00them"})
    assert response.status_code == 400
    assert "“moves” holds a control character" in response.content.decode()
    assert "Your browser's Back button returns to the form" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.gm_moves == moves
    gm = client_for(owner)
    backup = gm.get(reverse("campaign_export", args=[campaign.pk])).content.decode()
    assert gm.post(reverse("campaign_restore"), as_file(backup)).status_code == 302


def test_a_query_string_is_held_to_the_rule_too(client_for, owner, campaign):
    response = client_for(owner).get(
        reverse("rolls:log", args=[campaign.pk]), {"character": "\x07"}, headers=HX
    )
    assert response.status_code == 400
    assert response["Content-Type"] == "text/plain; charset=utf-8"


@pytest.mark.parametrize(
    ("value", "problem"),
    [("\ud800", SURROGATE), ("Bribe\x00", CONTROL), (float("inf"), "is not a finite number")],
    ids=["surrogate", "nul", "infinity"],
)
def test_a_backup_with_a_bad_value_in_a_log_entry_is_refused_with_its_place(
    client_for, owner, campaign, value, problem
):
    """A lone surrogate, or Infinity, in a log entry was a 500; on SQLite a surrogate was
    restored, and the campaign's export.json and log.json answered 500 from then on."""
    client = client_for(owner)
    client.post(
        reverse("rolls:roll", args=[campaign.pk]), {"kind": "reaction", "key": "k" * 10}, headers=HX
    )
    backup = backed_up(campaign)
    backup["log"][0]["snapshot"]["label"] = value
    before = row_counts()
    response = client.post(reverse("campaign_restore"), as_file(json.dumps(backup)))
    assert response.status_code == 400
    assert response.context["problems"] == [f"log[0].snapshot.label: {problem}"]
    assert row_counts() == before


def test_a_character_file_with_a_lone_surrogate_is_refused_with_its_place(
    client_for, owner, campaign
):
    data = exported(full_sheet(campaign, None, kind="npc"))
    data["traits"][0]["name"] = "Stealth\ud800"
    response = client_for(owner).post(
        reverse("characters:import", args=[campaign.pk]), {"text": json.dumps(data)}
    )
    assert response.status_code == 200
    assert response.context["problems"] == [f"traits[0].name: {SURROGATE}"]


def test_the_settings_json_is_held_to_the_rule(client_for, owner, campaign):
    saved = as_saved(campaign)
    data = settings_data(campaign, advanced='{"default_difficulty": NaN}')
    response = client_for(owner).post(reverse("campaigns:settings", args=[campaign.pk]), data)
    errors = refused(response, campaign, saved)
    assert errors["advanced"] == ["default_difficulty: is not a finite number"]


def test_tabs_and_line_breaks_are_text(client_for, owner, campaign):
    url = reverse("campaigns:gm_moves", args=[campaign.pk])
    assert client_for(owner).post(url, {"moves": "One\r\nTwo\tthree"}).status_code == 302
    campaign.refresh_from_db()
    assert campaign.gm_moves == ["One", "Two\tthree"]


def test_a_clean_backup_is_not_touched_by_the_rule(client_for, owner, campaign):
    backup = backed_up(campaign)
    assert list(json_problems(copy.deepcopy(backup))) == []
