"""The one audience rule, swept over the scene: every part of it a person may or may not see (a
hidden area and its notes, an NPC the players have not met and one they have, a card kept for
the GMs, one shown to a chosen player, one shown to everyone, the backdrop) by every path that
shows the scene (the frames each socket receives and their numbers, a reconnecting socket's
table state, the table page, the exports, the campaign backup, the picture's address) for every
role (the owner, a co-GM, the player a card names, a player it does not, an observer, an
outsider). Each part carries a word of its own; and every id of a part a path shows is one
pages show (no database number, no count), naming a part its reader may see."""

import re

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse

from campaigns.models import Membership
from rolls.scene import cards as scene_cards
from rolls.scene.models import Card
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import parts_named, picture_bytes
from tests.rolls.talk.test_talk_socket import _cookie
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)

GMS = {"gm", "cogm"}
MEMBERS = {"gm", "cogm", "alice", "bob", "watcher"}
ROLES = [*sorted(MEMBERS), "outsider"]
READERS = {
    "The secret stair": GMS,  # the hidden Vault's notes
    "Lurker": GMS,  # an NPC the players have not met, standing in the Vault
    "Brute": MEMBERS,  # one they have met
    "Ashgrove": GMS,  # a card kept for the GMs
    "Moonwell": {"alice", *GMS},  # a card shown to alice alone
    "Cinderfall": MEMBERS,  # a card shown to everyone
}
CARDS = ("Ashgrove", "Moonwell", "Cinderfall")
NUMBER = re.compile(r'id="table-seq" data-seq="(\d+)"')


@pytest.fixture
def table(scene, owner, member, observer, outsider, client_for):
    cogm, bob = UserFactory(username="co-gm"), UserFactory(username="bob")
    MembershipFactory(campaign=scene.campaign, user=cogm, role=Membership.Role.GM)
    MembershipFactory(campaign=scene.campaign, user=bob)
    users = {
        "gm": owner,
        "cogm": cogm,
        "alice": member,
        "bob": bob,
        "watcher": observer,
        "outsider": outsider,
    }
    return {
        role: {"user": user, "client": client_for(user), "cookie": _cookie(user)}
        for role, user in users.items()
    }


def _cards(scene, table) -> None:
    """The GM's cards, made and shown as the table page's forms do."""
    gm = Membership.objects.get(campaign=scene.campaign, user=table["gm"]["user"])
    made = {
        title: scene_cards.card_create(membership=gm, scene=scene, title=title, text="")
        for title in ("Ashgrove", "Moonwell", "Cinderfall")
    }
    alice = table["alice"]["user"].pk
    scene_cards.card_reveal(
        membership=gm, card=made["Moonwell"], shown=Card.Shown.SOME, people=[alice]
    )
    scene_cards.card_reveal(membership=gm, card=made["Cinderfall"], shown=Card.Shown.EVERYONE)


def _misread(path: str, role: str, text: str) -> list[str]:
    """What ``text`` shows that ``role`` may not see, or lacks of what the path must show."""
    wrong = []
    for word, readers in READERS.items():
        if path == "backup":
            readers = readers if role in GMS else set()  # only a GM takes the campaign home
        # The frames carry the cards' changes alone, and the log the cards' showing: neither
        # need show the rest, and neither may show anything to a person outside its audience.
        must_show = path not in ("frames", "log.md", "log.json") or (
            path == "frames" and word in CARDS
        )
        shows = word in text
        if (shows and role not in readers) or (must_show and not shows and role in readers):
            wrong.append(f"{path} {'shows' if shows else 'lacks'} {word!r} for {role}")
    return wrong


def _parts_seen(scene) -> dict[str, dict[str, set[int]]]:
    """The database ids of the scene's parts each role may see."""
    cards = dict(Card.objects.filter(scene=scene).values_list("title", "pk"))
    every = {
        "area": set(scene.areas.values_list("pk", flat=True)),
        "figure": set(scene.figures.values_list("pk", flat=True)),
        "card": set(cards.values()),
        "scene": {scene.pk},
    }
    seen = {role: every for role in GMS}
    for role in MEMBERS - GMS:
        seen[role] = {
            "area": set(scene.areas.filter(hidden=False).values_list("pk", flat=True)),
            "figure": set(
                scene.figures.exclude(character__name="Lurker").values_list("pk", flat=True)
            ),
            "card": {pk for title, pk in cards.items() if role in READERS.get(title, MEMBERS)},
            "scene": set(),
        }
    return seen


def _miscounted(path: str, role: str, text: str, seen: dict[str, set[int]]) -> list[str]:
    """The ids of the scene's parts ``text`` shows that are not ones ``role`` may read: a
    database id shown as it is (a count), or one naming a part they may not see."""
    named, unread = parts_named(text)
    wrong = [f"{path} shows {role} the id {shown}, which pages never show" for shown in unread]
    for kind, pks in named.items():
        if pks - seen[kind]:
            wrong.append(f"{path} names {role} the {kind}s {sorted(pks - seen[kind])}")
    return wrong


def _pages(campaign, person) -> dict[str, str]:
    urls = {
        "table": reverse("rolls:table", args=[campaign.pk]),
        "log.md": reverse("rolls:log_markdown", args=[campaign.pk]),
        "log.json": reverse("rolls:log_json", args=[campaign.pk]),
        "backup": reverse("campaign_export", args=[campaign.pk]),
    }
    read = {}
    for path, url in urls.items():
        answer = person["client"].get(url)
        body = b"".join(answer.streaming_content) if answer.streaming else answer.content
        read[path] = body.decode() if answer.status_code == 200 else ""
    return read


async def test_every_path_shows_each_part_of_the_scene_to_its_audience_alone(scene, table):
    campaign = scene.campaign
    sockets = {role: await joined(campaign, table[role]["cookie"]) for role in sorted(MEMBERS)}
    await sync_to_async(_cards)(scene, table)
    gm = await sync_to_async(Membership.objects.get)(campaign=campaign, user=table["gm"]["user"])
    await sync_to_async(scene_cards.card_create)(
        membership=gm, scene=scene, title="ENDMARK", text="", shown=Card.Shown.EVERYONE
    )
    frames = {role: await until(socket, "ENDMARK", tries=60) for role, socket in sockets.items()}
    for socket in sockets.values():
        await socket.disconnect()

    wrong = []
    seen = await sync_to_async(_parts_seen)(scene)
    for role in sorted(MEMBERS):
        wrong += _misread("frames", role, "".join(frames[role]))
        wrong += _miscounted("frames", role, "".join(frames[role]), seen[role])
        # Nothing a player may not see moves their count: their numbers run without a gap.
        numbers = [int(n) for frame in frames[role] for n in NUMBER.findall(frame)]
        if numbers != list(range(numbers[0], numbers[0] + len(numbers))):
            wrong.append(f"frames' numbers skip for {role}: {numbers}")
    players_seen = [int(n) for frame in frames["bob"] for n in NUMBER.findall(frame)]
    # bob sees Cinderfall shown with its line in the log, and ENDMARK: nothing of the card
    # kept for the GMs nor of the one shown to alice, not even a number.
    if len(players_seen) != 3:
        wrong.append(f"bob's screen got {len(players_seen)} numbered frames: {players_seen}")
    for role in ROLES:
        if role in MEMBERS:
            socket = socket_for(campaign, table[role]["cookie"])
            assert (await socket.connect())[0]
            state = "".join(await until(socket, 'id="roll-log"'))
            wrong += _misread("catch-up", role, state)
            wrong += _miscounted("catch-up", role, state, seen[role])
            await socket.disconnect()
        for path, text in (await sync_to_async(_pages)(campaign, table[role])).items():
            wrong += _misread(path, role, text)
            if role in MEMBERS:
                wrong += _miscounted(path, role, text, seen[role])
    assert not wrong, "\n".join(wrong)


def test_the_backdrop_is_served_to_whoever_sees_the_scene_and_only_while_it_shows(scene, table):
    from rolls.scene import pictures
    from rolls.scene import services as scenes

    picture = pictures.picture_create(
        campaign=scene.campaign, uploaded_by_id=table["gm"]["user"].pk, data=picture_bytes()
    )
    scenes.scene_update(
        scene=scene, title=scene.title, description="", player_cards=False, backdrop=picture
    )
    url = reverse("rolls:picture", args=[scene.campaign.pk, picture.token])
    assert not str(picture.token).isdigit()  # the address carries no count
    served = {role: table[role]["client"].get(url).status_code for role in ROLES}
    assert served == {**dict.fromkeys(MEMBERS, 200), "outsider": 404}
    scenes.scene_switch(campaign=scene.campaign, scene=None)  # off the table
    served = {role: table[role]["client"].get(url).status_code for role in ROLES}
    assert served == {
        **dict.fromkeys(GMS, 200),
        **dict.fromkeys(MEMBERS - GMS, 404),
        "outsider": 404,
    }
