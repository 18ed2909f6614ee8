"""The table speaks its campaign's language: what it pushes, what a socket catching up is sent,
the log's entries on the table page and the webhook's words; a person's own answer and the
page around the log speak theirs. A log entry stores what happened, and its heading's words are
made where it is drawn (docs/architecture.md, "Languages"), and so are the table's own
lines (a countdown completes). The French words are the shipped catalogue's.
"""

import json
from urllib.parse import urlencode

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse
from django.utils import translation

from campaigns.models import Campaign
from fudgetable.asgi import application
from fudgetable.entry_ids import encode
from rolls.entry_words import SAID, entry_label, line_words, said
from rolls.models import Roll
from rolls.talk import webhooks
from rolls.talk.models import TableTalk
from tests.rolls.conftest import fresh_key, trait
from tests.table_sockets import HOST, ORIGIN, joined, socket_for, until

ENGLISH, FRENCH = "Louie vs Marla", "Louie contre Marla"
PARTY_FR = "Le groupe"  # "The party", from the shipped catalogue


@pytest.fixture
def french_table(campaign):
    Campaign.objects.filter(pk=campaign.pk).update(language="fr")
    campaign.refresh_from_db()
    return campaign


@pytest.fixture
def member_client(client_for, member):
    return client_for(member)  # made here: an async test may not touch the database itself


def contest(hero, rival) -> dict:
    """The member's PC against the second player's, as the table's roller posts it."""
    _, marla = rival
    return {
        "kind": "contest",
        "character": hero.pk,
        "trait": trait(hero).pk,
        "opponent": marla.pk,
        "opponent_trait": trait(marla).pk,
        "modifiers": "",
        "opponent_modifiers": "",
        "key": fresh_key(),
    }


def rolled(client, campaign, data):
    return client.post(
        reverse("rolls:roll", args=[campaign.pk]), data, headers={"HX-Request": "true"}
    )


# --- what an entry stores, and how it is drawn ----------------------------------------------


@pytest.mark.django_db
def test_an_entry_keeps_names_and_its_words_follow_the_language_it_is_drawn_in(
    client_for, member, french_table, hero, rival
):
    assert rolled(client_for(member), french_table, contest(hero, rival)).status_code == 200
    roll = Roll.objects.get()
    assert roll.label == "Louie, Marla"  # names, no words of the interface
    assert roll.snapshot[SAID] == said("contest", active="Louie", passive="Marla")
    assert entry_label(roll) == ENGLISH
    with translation.override("fr"):
        assert entry_label(roll) == FRENCH
    # The table's language changed back: the same entry now reads in it, nothing rewritten.
    Campaign.objects.filter(pk=french_table.pk).update(language="en")
    page = client_for(member).get(reverse("rolls:table", args=[french_table.pk]))
    assert ENGLISH in page.content.decode()


@pytest.mark.django_db
def test_an_entry_written_before_draws_its_stored_label(campaign):
    def entry(label: str, snapshot: dict) -> Roll:
        return Roll.objects.create(
            campaign=campaign,
            kind=Roll.Kind.CONTEST,
            label=label,
            snapshot=snapshot,
            idempotency_key=fresh_key(),
        )

    old = entry("Louie vs Marla (Fudge point)", {"sides": []})
    odd = entry("Louie, Marla", {SAID: {"key": "fight", "attacker": "Louie"}})  # no defender
    unknown = entry("Louie, Marla", {SAID: {"key": "a key from a later version"}})
    with translation.override("fr"):
        assert entry_label(old) == "Louie vs Marla (Fudge point)"
        assert entry_label(odd) == entry_label(unknown) == "Louie, Marla"


# --- the table page: the reader's chrome, the table's log -----------------------------------


@pytest.mark.django_db
def test_the_table_page_is_the_readers_and_its_log_the_tables(
    client_for, owner, member, outsider, french_table, hero, rival
):
    answer = rolled(client_for(member), french_table, contest(hero, rival))
    assert ENGLISH in answer.content.decode()  # the roller's own answer: her language
    url = reverse("rolls:table", args=[french_table.pk])
    for person in (owner, member):
        page = client_for(person).get(url).content.decode()
        assert "Characters" in page and "Personnages" not in page  # the reader's chrome
        assert FRENCH in page and ENGLISH not in page  # the table's log
    assert client_for(outsider).get(url).status_code == 404


# --- the socket: pushes and catch-up --------------------------------------------------------


@pytest.mark.django_db(transaction=True)
async def test_a_roll_is_pushed_in_the_tables_language_and_answered_in_the_rollers(
    member_client, cookies, french_table, hero, rival
):
    gm = await joined(french_table, cookies["owner"], "gm-owner")
    player = await joined(french_table, cookies["member"], "player-member")
    await until(gm, "player-member")
    outsider = socket_for(french_table, cookies["outsider"])
    assert not (await outsider.connect())[0]
    data = await sync_to_async(contest)(hero, rival)
    answer = await sync_to_async(rolled)(member_client, french_table, data)
    assert ENGLISH in answer.content.decode() and FRENCH not in answer.content.decode()
    roll = await Roll.objects.aget()
    for socket in (gm, player):
        frame = (await until(socket, f'id="roll-{encode(roll.pk)}"'))[-1]
        assert FRENCH in frame and ENGLISH not in frame
    await gm.disconnect()
    await player.disconnect()


@pytest.mark.django_db(transaction=True)
async def test_a_socket_catching_up_is_sent_the_table_in_its_language(
    member_client, cookies, french_table, hero, rival
):
    data = await sync_to_async(contest)(hero, rival)
    await sync_to_async(rolled)(member_client, french_table, data)
    for cookie in (cookies["owner"], cookies["member"]):
        socket = socket_for(french_table, cookie)
        assert (await socket.connect())[0]
        state = (await until(socket, 'id="roll-log"'))[-1]
        assert FRENCH in state and ENGLISH not in state
        assert PARTY_FR in state  # a shipped word: the rest of the table is in French too
        await socket.disconnect()


# --- the webhook ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_webhook_says_an_entry_in_the_tables_language(
    client_for, member, french_table, hero, rival
):
    rolled(client_for(member), french_table, contest(hero, rival))
    roll = Roll.objects.get()
    discord = webhooks.payload(roll, TableTalk.Format.DISCORD, french_table.name)
    assert discord["content"].startswith(FRENCH) and "contre Marla" in discord["content"]
    plain = webhooks.payload(roll, TableTalk.Format.JSON, french_table.name)
    assert plain["entry"]["label"] == FRENCH
    assert plain["entry"]["snapshot"][SAID]["key"] == "contest"  # what happened, for a program


@pytest.mark.django_db(transaction=True)
async def test_a_roll_sent_over_the_socket_is_answered_in_its_persons_language(
    campaign, cookies, hero, rival
):
    """An English table, and a player whose browser reads French: her answer is French, the
    table's push English."""
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    french_browser = (b"accept-language", b"fr-FR,fr;q=0.9")
    player = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign.pk}/",
        headers=[HOST, ORIGIN, cookies["member"], french_browser],
    )
    assert (await player.connect())[0]
    await until(player, 'id="roll-log"')
    data = await sync_to_async(contest)(hero, rival)
    path = reverse("rolls:roll", args=[campaign.pk])
    command = {"id": 1, "path": path, "body": urlencode(data), "headers": {"HX-Request": "true"}}
    await player.send_to(text_data=json.dumps({"command": command}))
    for _ in range(30):
        frame = await player.receive_from(timeout=5)
        if frame.startswith("{") and json.loads(frame)["answer"] == 1:
            break
    body = json.loads(frame)["body"]
    assert FRENCH in body and ENGLISH not in body
    roll = await Roll.objects.aget()
    pushed = (await until(gm, f'id="roll-{encode(roll.pk)}"'))[-1]
    assert ENGLISH in pushed and FRENCH not in pushed
    await gm.disconnect()
    await player.disconnect()


# --- the table's own lines -------------------------------------------------------------------


@pytest.mark.django_db
def test_a_countdown_completing_is_told_in_the_tables_language(client_for, member, french_table):
    """The line keeps its key and names, not the words of whoever marked the box: the table
    reads it in French, a screen in English reads it in English, and its label stays English
    for a version that cannot read the key."""
    from rolls.countdowns.services import countdown_create, countdown_mark

    clock = countdown_create(campaign=french_table, name="The tide", boxes=1, outcome="Flood")
    with translation.override("en"):  # the GM's own page speaks English
        countdown_mark(countdown=clock)
    told = Roll.objects.get(kind=Roll.Kind.ANNOUNCEMENT)
    assert told.label == "The tide is complete. Flood"
    assert told.snapshot["lines"] == [said("countdown-complete", name="The tide", outcome="Flood")]
    with translation.override("fr"):
        assert entry_label(told) == "The tide est terminé. Flood"
    page = client_for(member).get(reverse("rolls:table", args=[french_table.pk]))
    assert "The tide est terminé. Flood" in page.content.decode()


def test_a_healing_line_is_drawn_in_the_language_of_the_screen():
    line = said(
        "healed", name="Dorothy", action="A week of rest", track="Wounds", before=2, after=1
    )
    with translation.override("en"):
        assert line_words(line) == "Dorothy: A week of rest (Wounds): 2 boxes taken, now 1."
    with translation.override("fr"):
        assert line_words(line) == (
            "Dorothy : Une semaine de repos (Blessures) : 2 cases cochées, maintenant 1."
        )
