"""Messages are part of the append-only log wherever it goes: the Markdown and JSON exports,
the session's recap, and the campaign's backup and restore (whispers to their own people
alone, the dice-in-hand setting with them, the webhook's address never)."""

import json

import pytest
from django.urls import reverse

from rolls.backup.restore import campaign_restore
from rolls.backup.write import campaign_to_json
from rolls.models import Roll, TableTalk, Whispered
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db


def say(client, campaign, line, **extra):
    url = reverse("rolls:say", args=[campaign.pk])
    client.post(url, {"line": line, "key": fresh_key(), **extra}, headers={"HX-Request": "true"})


@pytest.fixture
def talked(campaign, owner, member, client_for, rival):
    second, _ = rival
    client_for(owner).post(reverse("rolls:session_start", args=[campaign.pk]))
    say(client_for(owner), campaign, "Welcome, *heroes*.")
    say(client_for(member), campaign, "/w gm I pocket the key")
    say(client_for(second), campaign, "/me yawns")
    TableTalk.objects.create(
        campaign=campaign, dice_in_hand=True, webhook_url="https://discord.example/api/x"
    )
    return campaign


def test_the_exports_hold_the_messages_each_reader_may_read(talked, member, client_for, rival):
    second, _ = rival
    mine = client_for(member).get(reverse("rolls:log_markdown", args=[talked.pk])).content
    theirs = client_for(second).get(reverse("rolls:log_markdown", args=[talked.pk])).content
    assert "gm-owner (out of character): Welcome, \\*heroes\\*." in mine.decode()
    assert "I pocket the key (whispered to the GMs)" in mine.decode()
    assert (
        "I pocket the key" not in theirs.decode() and "\\* second-player yawns" in theirs.decode()
    )
    as_json = json.loads(
        client_for(member).get(reverse("rolls:log_json", args=[talked.pk])).content
    )
    texts = [entry["snapshot"].get("text") for entry in as_json["rolls"]]
    assert texts == ["yawns", "I pocket the key", "Welcome, *heroes*."]


def test_the_recap_shows_the_talk_in_order(talked, owner, client_for):
    recap = client_for(owner).get(reverse("rolls:recap", args=[talked.pk, 1])).content.decode()
    assert recap.index("Welcome") < recap.index("pocket the key") < recap.index("yawns")


def test_a_backup_keeps_whispers_to_their_people_and_restores_them(talked, owner, member):
    backup = campaign_to_json(talked)
    whisper = next(entry for entry in backup["log"] if entry["visibility"] == "whisper")
    assert whisper["whisper_to"] == ["gm-owner", "player-member"]
    assert backup["table_talk"] == {"dice_in_hand": True}
    assert "discord.example" not in json.dumps(backup)  # the webhook's address is a key
    restored = campaign_restore(owner=owner, data=json.loads(json.dumps(backup))).campaign
    entry = Roll.objects.get(campaign=restored, visibility="whisper")
    heard = Whispered.objects.filter(entry=entry)
    assert set(heard.values_list("user_id", "seq")) == {(owner.pk, None), (member.pk, None)}
    assert TableTalk.objects.get(campaign=restored).dice_in_hand
    again = campaign_to_json(restored)
    assert [e["whisper_to"] for e in again["log"] if "whisper_to" in e] == [whisper["whisper_to"]]


def test_a_backup_whose_message_cannot_show_is_refused(talked, owner):
    backup = json.loads(json.dumps(campaign_to_json(talked)))
    backup["log"][0]["snapshot"] = {"style": "say"}  # no words, no speaker
    with pytest.raises(Exception, match="not an entry this table can show"):
        campaign_restore(owner=owner, data=backup)
