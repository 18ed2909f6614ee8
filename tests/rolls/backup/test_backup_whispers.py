"""A GM's campaign backup holds what the GMs read at the table and no more: a whisper between
players (its people include no GM) is left out, text and all, for the owner and a co-GM alike;
a whisper to the GMs, to one GM, or from a GM stays with its people. Only GMs download a backup
at all, and a restore brings no whisper between players back, even from a file made before
they were left out."""

import json

import pytest
from django.urls import reverse

from campaigns.models import Membership
from rolls.backup.restore import campaign_restore
from rolls.models import Roll
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.backup.test_campaign_backup import backed_up, join_everyone, without_time
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db

SECRET = "split the loot behind the GMs' backs"


def say(client, campaign, line, **extra):
    url = reverse("rolls:say", args=[campaign.pk])
    response = client.post(
        url, {"line": line, "key": fresh_key(), **extra}, headers={"HX-Request": "true"}
    )
    assert response.status_code < 300, response.content[:300]


@pytest.fixture
def co_gm(campaign):
    user = UserFactory(username="co-gm")
    MembershipFactory(campaign=campaign, user=user, role=Membership.Role.GM)
    return user


@pytest.fixture
def whispered(campaign, owner, member, co_gm, rival, client_for):
    second, _ = rival
    say(client_for(owner), campaign, "Welcome to the Lighthouse.")
    say(client_for(member), campaign, f"/w second-player {SECRET}")
    say(client_for(second), campaign, "/w gm I want to betray Louie")
    say(client_for(member), campaign, "/w co-gm psst, a question")
    say(client_for(owner), campaign, "the ring is fake", to=[str(member.pk)])
    assert Roll.objects.filter(campaign=campaign, visibility="whisper").count() == 4
    return campaign


def download(client, campaign):
    return client.get(reverse("campaign_export", args=[campaign.pk]))


def whispers_in(backup: dict) -> dict[str, list[str]]:
    return {
        entry["snapshot"]["text"]: entry["whisper_to"]
        for entry in backup["log"]
        if entry["visibility"] == "whisper"
    }


KEPT = {
    "I want to betray Louie": ["co-gm", "gm-owner", "second-player"],
    "psst, a question": ["co-gm", "player-member"],
    "the ring is fake": ["gm-owner", "player-member"],
}


@pytest.mark.parametrize("who", ["owner", "co_gm"])
def test_a_gms_backup_leaves_whispers_between_players_out(whispered, client_for, who, request):
    response = download(client_for(request.getfixturevalue(who)), whispered)
    assert response.status_code == 200
    assert SECRET not in response.content.decode()
    backup = json.loads(response.content)
    assert whispers_in(backup) == KEPT
    texts = [entry["snapshot"]["text"] for entry in backup["log"]]
    assert texts == ["Welcome to the Lighthouse.", *KEPT]
    assert [entry["ref"] for entry in backup["log"]] == [1, 2, 3, 4]  # no gap tells of it


def test_players_observers_and_outsiders_get_no_backup(
    whispered, client_for, member, rival, observer, outsider
):
    second, _ = rival
    for player in (member, second, observer):
        assert download(client_for(player), whispered).status_code == 403
    assert download(client_for(outsider), whispered).status_code == 404


def test_a_restored_backup_has_no_whisper_between_players(whispered, owner):
    backup = backed_up(whispered)
    done = campaign_restore(owner=owner, data=backup)
    restored = Roll.objects.filter(campaign=done.campaign)
    assert not [roll for roll in restored if SECRET in json.dumps(roll.snapshot)]
    assert done.entries == 4
    join_everyone(done.campaign, backup)
    again = backed_up(done.campaign)
    assert without_time(again) == without_time(backup)
    assert whispers_in(again) == KEPT


def test_a_file_made_before_they_were_left_out_restores_without_them(whispered, owner, member):
    backup = backed_up(whispered)
    last = backup["log"][-1]["time"]
    older = {**backup["log"][1], "ref": 9, "time": last}
    older["whisper_to"] = ["player-member", "second-player"]
    older["snapshot"] = {**older["snapshot"], "text": SECRET, "to": ["second-player"]}
    following = {**backup["log"][0], "ref": 10, "follows": 9, "time": last}
    backup["log"] += [older, following]
    done = campaign_restore(owner=owner, data=backup)
    restored = list(Roll.objects.filter(campaign=done.campaign).order_by("pk"))
    assert len(restored) == 5 and not [r for r in restored if SECRET in json.dumps(r.snapshot)]
    assert restored[-1].follows_id is None
