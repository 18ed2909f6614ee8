"""One audience rule, swept: every kind of log entry (a message, a whisper between players, a
whisper to the GMs, a GM's secret roll, a GM's note on each) by every path that reads the log
(the frames each socket receives, a reconnecting socket's catch-up, the table and log pages,
the exports, the recap, the campaign backup, notes posted on an entry) by every role (the owner,
a co-GM, a player a whisper names, a player it does not, an observer, an outsider). Each entry
carries a word of its own; a path shows a word to exactly the people the entry's audience
names, and to nobody else, not even as a number."""

import json
import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from characters.models import Trait
from characters.services import npc_create
from rolls.models import Roll
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key
from tests.rolls.talk.test_talk_socket import _cookie
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

GMS = {"gm", "cogm"}
MEMBERS = {"gm", "cogm", "alice", "bob", "carol", "watcher"}
ROLES = [*sorted(MEMBERS), "outsider"]

# Each entry's word and who reads it. carol whispers to alice; bob whispers to the GMs.
READERS = {
    "Bellflower": MEMBERS,  # a message to the table
    "Quicksilver": {"carol", "alice"},  # a whisper between players: not the GMs
    "Marigold": {"bob", *GMS},  # a whisper to the GMs
    "Poisoncraft": GMS,  # a GM's secret roll of an NPC's trait
    "Hollyhock": set(),  # a GM's note tried on the message: notes go on rolls
    "Thornback": set(),  # a GM's note tried on the whisper to the GMs: the same
    "Larkspur": GMS,  # a GM's note on the secret roll
    "Wolfsbane": set(),  # a GM's note tried on the whisper between players: refused
}


@pytest.fixture
def table(campaign, owner, member, outsider, client_for):
    cogm, bob, carol, watcher = (
        UserFactory(username=name) for name in ("co-gm", "bob", "carol", "watcher")
    )
    MembershipFactory(campaign=campaign, user=cogm, role="gm")
    MembershipFactory(campaign=campaign, user=bob)
    MembershipFactory(campaign=campaign, user=carol)
    MembershipFactory(campaign=campaign, user=watcher, role="observer")
    users = {
        "gm": owner,
        "cogm": cogm,
        "alice": member,
        "bob": bob,
        "carol": carol,
        "watcher": watcher,
        "outsider": outsider,
    }
    return {
        role: {"user": user, "client": client_for(user), "cookie": _cookie(user)}
        for role, user in users.items()
    }


def _say(person, campaign, line, **extra):
    url = reverse("rolls:say", args=[campaign.pk])
    data = {"line": line, "key": fresh_key(), **extra}
    answer = person["client"].post(url, data, headers={"HX-Request": "true"})
    assert "data-sent" in answer.content.decode(), answer.content


def _note(person, campaign, entry: Roll, text: str) -> int:
    url = reverse("rolls:note", args=[campaign.pk, entry.pk])
    answer = person["client"].post(url, {"note": text}, headers={"HX-Request": "true"})
    return answer.status_code


def _play(campaign, table) -> dict[str, int]:
    """Plays the evening: every kind of entry, then the GM's notes. What each note answered."""
    gm = table["gm"]
    gm["client"].post(reverse("rolls:session_start", args=[campaign.pk]))
    npc = npc_create(campaign=campaign, name="Zanzibar Quell")
    Trait.objects.create(character=npc, kind="trait", name="Poisoncraft", level=2)
    _say(gm, campaign, "Bellflower blooms by the gate.")
    _say(
        table["carol"], campaign, "Quicksilver is in the well.", to=[str(table["alice"]["user"].pk)]
    )
    _say(table["bob"], campaign, "/w gm Marigold is my true name")
    _say(gm, campaign, "/gmr Poisoncraft", speaking_as=str(npc.pk))
    entry = {
        word: Roll.objects.get(label__contains=word)
        for word in ("Bellflower", "Quicksilver", "Marigold")
    }
    entry["Poisoncraft"] = Roll.objects.get(visibility=Roll.Visibility.GM)
    return {
        "Hollyhock": _note(gm, campaign, entry["Bellflower"], "Hollyhock"),
        "Thornback": _note(gm, campaign, entry["Marigold"], "Thornback"),
        "Larkspur": _note(gm, campaign, entry["Poisoncraft"], "Larkspur"),
        "Wolfsbane": _note(gm, campaign, entry["Quicksilver"], "Wolfsbane"),
    }


def _pages(campaign, person) -> dict[str, str]:
    """Every page and export that reads the log, as this person gets it ("" when refused)."""
    urls = {
        "table": reverse("rolls:table", args=[campaign.pk]),
        "log": reverse("rolls:log", args=[campaign.pk]),
        "log.md": reverse("rolls:log_markdown", args=[campaign.pk]),
        "log.json": reverse("rolls:log_json", args=[campaign.pk]),
        "recap": reverse("rolls:recap", args=[campaign.pk, 1]),
        "backup": reverse("campaign_export", args=[campaign.pk]),
    }
    read = {}
    for path, url in urls.items():
        answer = person["client"].get(url)
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        read[path] = body.decode() if answer.status_code == 200 else ""
    return read


def _misread(path: str, role: str, text: str) -> list[str]:
    """What ``text`` shows that ``role`` may not read, or lacks that they may."""
    wrong = []
    for word, readers in READERS.items():
        if path == "backup" and role not in GMS:
            readers = set()  # only a GM takes the campaign home
        if path == "backup" and word in ("Quicksilver",):
            readers = set()  # the GMs' backup keeps whispers between players out
        shows = word in text
        if shows != (role in readers):
            wrong.append(f"{path} {'shows' if shows else 'lacks'} {word} for {role}")
    return wrong


async def test_every_path_shows_each_entry_to_its_audience_alone(campaign, table):
    sockets = {role: await joined(campaign, table[role]["cookie"]) for role in sorted(MEMBERS)}
    noted = await sync_to_async(_play)(campaign, table)
    await sync_to_async(_say)(table["gm"], campaign, "ENDMARK")
    frames = {role: await until(socket, "ENDMARK", tries=60) for role, socket in sockets.items()}
    for socket in sockets.values():
        await socket.disconnect()
    assert noted == {"Hollyhock": 404, "Thornback": 404, "Larkspur": 204, "Wolfsbane": 404}

    wrong = []
    for role in ROLES:
        if role in MEMBERS:
            wrong += _misread("frames", role, "".join(frames[role]))
        pages = await sync_to_async(_pages)(campaign, table[role])
        for path, text in pages.items():
            wrong += _misread(path, role, text)
    assert not wrong, "\n".join(wrong)


async def test_a_reconnecting_socket_catches_up_each_entry_for_its_audience_alone(campaign, table):
    await sync_to_async(_play)(campaign, table)
    wrong = []
    for role in sorted(MEMBERS):
        socket = socket_for(campaign, table[role]["cookie"])
        assert (await socket.connect())[0]
        # A page that saw nothing: what it lacks is the whole table state.
        wrong += _misread("catch-up", role, "".join(await until(socket, 'id="roll-log"')))
        await socket.disconnect()
    assert not wrong, "\n".join(wrong)


def test_entry_ids_on_a_players_page_carry_no_order(campaign, table):
    _play(campaign, table)
    page = table["bob"]["client"].get(reverse("rolls:table", args=[campaign.pk])).content
    ids = re.findall(r'<li id="roll-([^"]+)"', page.decode())
    assert ids, "the table shows its entries"
    assert not any(value.isdigit() for value in ids), ids
    exported = json.loads(
        table["bob"]["client"].get(reverse("rolls:log_json", args=[campaign.pk])).content
    )
    assert not any(str(entry["id"]).isdigit() for entry in exported["rolls"])
