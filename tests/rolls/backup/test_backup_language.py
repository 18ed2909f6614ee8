"""A backup keeps the table's language and the GM's words for the ladder, and a backup made
before them restores with English and the rules' words."""

import json

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from campaigns.models import Campaign
from rolls.backup.restore import campaign_restore
from rolls.backup.write import campaign_to_json
from rolls.models import Roll
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db


def backed_up(campaign: Campaign) -> dict:
    return json.loads(json.dumps(campaign_to_json(campaign)))


@pytest.fixture
def french(campaign: Campaign) -> Campaign:
    campaign.language = "fr"
    campaign.ladder_words = {"Good": "Solide", "Superb": "Héroïque"}
    campaign.save()
    return campaign


def test_the_language_and_the_words_go_there_and_back(french, owner, member, client_for):
    client_for(member).post(
        reverse("rolls:say", args=[french.pk]),
        {"line": "/r 4dF vs Solide", "key": fresh_key()},
        headers={"HX-Request": "true"},
    )
    backup = backed_up(french)
    assert (backup["language"], backup["ladder_words"]) == ("fr", french.ladder_words)
    restored = campaign_restore(owner=owner, data=backup).campaign
    assert (restored.language, restored.ladder_words) == ("fr", french.ladder_words)
    assert Roll.objects.get(campaign=restored).snapshot["difficulty"] == 2
    log = client_for(owner).get(reverse("rolls:log", args=[restored.pk])).content.decode()
    assert "Solide (+2)" in log
    again = backed_up(restored)
    assert (again["language"], again["ladder_words"]) == ("fr", french.ladder_words)


def test_a_backup_from_before_them_restores_in_english_with_the_rules_words(french, owner):
    backup = backed_up(french)
    del backup["language"], backup["ladder_words"]
    restored = campaign_restore(owner=owner, data=backup).campaign
    assert (restored.language, restored.ladder_words) == ("en", {})


@pytest.mark.parametrize(
    ("language", "words", "problem"),
    [
        ("fr", {"Good": "+2"}, "ladder_words.Good:"),
        ("fr", {"Good": "Solid", "Great": "solid"}, "names another rung too"),
        ("fr", {"Good": "x" * 31}, "at most 30 characters"),
        ("fr", ["Solid"], "ladder_words: must be an object"),
        ("klingon", {}, "language: must be one of"),
    ],
)
def test_a_bad_language_or_word_restores_nothing(french, owner, language, words, problem):
    backup = backed_up(french)
    backup["language"], backup["ladder_words"] = language, words
    count = Campaign.objects.count()
    with pytest.raises(ValidationError) as refused:
        campaign_restore(owner=owner, data=backup)
    assert any(problem in message for message in refused.value.messages)
    assert Campaign.objects.count() == count
