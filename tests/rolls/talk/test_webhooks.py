"""The log sent on to a group's chat server (rolls/talk/webhooks.py), against a receiver on this
machine: public entries only (never a secret roll, a whisper, a GM-only line or a hidden
difficulty), Discord's format or plain JSON, retries with the state the GM sees, the address
rules, a receiver that hangs for 30 s delaying neither a roll's answer nor its push; and the
attacks of #37: a name that rebinds to 127.0.0.1, a receiver dripping its answer a byte at a
time, and that receiver holding up another campaign's deliveries."""

import json
import socket
import threading
import time
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from asgiref.sync import sync_to_async
from django.urls import reverse
from django.utils import timezone

from rolls.models import TableTalk, WebhookDelivery
from rolls.services import roll_announce
from rolls.talk import webhooks
from tests.factories import CampaignFactory, MembershipFactory
from tests.rolls.conftest import fresh_key
from tests.table_sockets import joined, until


class Receiver(ThreadingHTTPServer):
    """A chat server's webhook on 127.0.0.1: it keeps what it is sent, answers with the next
    of ``answers`` (then 204), and ``hang`` seconds late when told to."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.got: list[dict] = []
        self.answers: list[int] = []
        self.hang = 0.0
        self.arrived = threading.Event()  # a post came in (before any hang)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook?wait=true"


class Handler(BaseHTTPRequestHandler):
    server: Receiver

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers["Content-Length"]))
        self.server.arrived.set()
        if self.server.hang:
            time.sleep(self.server.hang)
        self.server.got.append(json.loads(body))
        status = self.server.answers.pop(0) if self.server.answers else 204
        self.send_response(status)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def receiver(settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    server = Receiver()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture
def hooked(campaign, receiver):
    TableTalk.objects.create(campaign=campaign, webhook_url=receiver.url)
    return campaign


def post(client, name, campaign, data):
    return client.post(reverse(f"rolls:{name}", args=[campaign.pk]), data, HTTP_HX_REQUEST="true")


def roll(client, campaign, **extra):
    data = {"kind": "situational", "label": "Weather", "key": fresh_key(), **extra}
    return post(client, "roll", campaign, data)


@pytest.mark.django_db
def test_only_public_entries_are_sent_in_discords_format(
    hooked, receiver, owner, member, client_for
):
    gm, player = client_for(owner), client_for(member)
    roll(player, hooked, label="Weather")
    roll(gm, hooked, label="Ambush", secret="on")
    post(player, "say", hooked, {"line": "hello @gm-owner", "key": fresh_key()})
    post(player, "say", hooked, {"line": "/w gm a secret plan", "key": fresh_key()})
    roll_announce(campaign=hooked, lines=["The vault opens."], players=True)
    roll_announce(campaign=hooked, lines=["The cult stirs."], players=False)
    assert WebhookDelivery.objects.count() == 3
    webhooks.send_due()
    contents = [got["content"] for got in receiver.got]
    assert len(contents) == 3
    assert contents[0].startswith("Weather: ")
    assert contents[1] == "player-member (out of character): hello @gm-owner"
    assert contents[2] == "The vault opens."
    assert all(got["allowed_mentions"] == {"parse": []} for got in receiver.got)
    sent = json.dumps(receiver.got)
    assert "Ambush" not in sent and "secret plan" not in sent and "cult" not in sent


@pytest.mark.django_db
def test_plain_json_is_the_entry_as_a_players_export_gives_it(hooked, receiver, member, client_for):
    TableTalk.objects.filter(campaign=hooked).update(webhook_format="json")
    roll(client_for(member), hooked, label="Weather")
    webhooks.send_due()
    (got,) = receiver.got
    assert got["campaign"] == hooked.name
    assert (got["entry"]["label"], got["entry"]["kind"]) == ("Weather", "situational")
    assert "visibility" not in got["entry"]  # what a GM's export alone says


@pytest.mark.django_db
def test_a_failure_is_retried_in_order_and_the_gm_sees_the_state(
    hooked, receiver, owner, member, client_for
):
    receiver.answers = [500]
    player = client_for(member)
    roll(player, hooked, label="First")
    roll(player, hooked, label="Second")
    webhooks.send_due()
    first, second = WebhookDelivery.objects.order_by("pk")
    assert (first.attempts, first.sent_at) == (1, None)
    assert first.last_error == "the receiver answered 500"
    assert second.attempts == 0  # held back, so the chat never reads out of order
    page = client_for(owner).get(reverse("rolls:talk_settings", args=[hooked.pk])).content.decode()
    assert "the receiver answered 500" in page and "2 entries wait to be sent" in page
    WebhookDelivery.objects.update(next_try_at=first.created_at)  # the retry is due
    webhooks.send_due()
    assert [got["content"].split(":")[0] for got in receiver.got] == ["First", "First", "Second"]
    assert not WebhookDelivery.objects.filter(sent_at=None).exists()
    page = client_for(owner).get(reverse("rolls:talk_settings", args=[hooked.pk])).content.decode()
    assert "Last delivered:" in page and "0 entries wait" in page


@pytest.mark.django_db
def test_after_the_last_retry_an_entry_is_given_up_on(hooked, receiver, member, client_for):
    receiver.answers = [503] * 10
    roll(client_for(member), hooked)
    for _ in range(len(webhooks.RETRY_AFTER) + 1):
        WebhookDelivery.objects.update(next_try_at=WebhookDelivery.objects.get().created_at)
        webhooks.send_due()
    row = WebhookDelivery.objects.get()
    assert row.failed_at is not None and row.attempts == len(webhooks.RETRY_AFTER) + 1


@pytest.mark.django_db(transaction=True)
async def test_a_receiver_that_hangs_30_s_delays_no_answer_and_no_push(
    hooked, receiver, settings, campaign, cookies, client_for, owner, member
):
    settings.WEBHOOK_TIMEOUT = 1
    receiver.hang = 30.0
    player = await joined(campaign, cookies["member"])
    client = await sync_to_async(client_for)(member)
    for label in ("First", "Second"):
        started = time.monotonic()
        answer = await sync_to_async(roll)(client, campaign, label=label)
        frames = await until(player, f"<strong>{label}</strong>")
        assert answer.status_code == 200
        assert time.monotonic() - started < 3  # the sender is stuck on the hanging receiver
        assert frames
        # The next roll once the sender is posting (and holds no row): the tests' in-memory
        # SQLite refuses a write while another connection reads the same table ("database
        # table is locked"), which a file in WAL mode, as served, never does.
        assert await sync_to_async(receiver.arrived.wait)(5)
    # The sender gives up on the hanging answer after WEBHOOK_TIMEOUT and says so.
    for _ in range(100):
        first = await WebhookDelivery.objects.order_by("pk").afirst()
        if first.last_error:
            break
        await sync_to_async(time.sleep)(0.1)
    assert first.last_error == "no answer within 1 s" and first.sent_at is None
    await player.disconnect()
    # The thread is stopped before the test's tables are emptied under it.
    await sync_to_async(webhooks.sender.stop)()


@pytest.mark.parametrize(
    "url, allow, problem",
    [
        ("http://93.184.216.34/hook", False, "only https addresses"),
        ("https://127.0.0.1/hook", False, "is a private address"),
        ("https://10.1.2.3/hook", False, "is a private address"),
        ("https://[::1]/hook", False, "is a private address"),
        ("https://93.184.216.34/hook", False, None),
        ("http://127.0.0.1:9/hook", True, None),
        ("ftp://127.0.0.1/hook", True, "only https addresses"),
    ],
)
def test_only_https_to_public_addresses_unless_the_operator_allows(url, allow, problem, settings):
    settings.WEBHOOKS_ALLOW_PRIVATE = allow
    found = webhooks.address_problem(url)
    assert (found is None) if problem is None else (problem in found)


@pytest.mark.django_db
def test_only_gms_set_the_webhook_and_a_private_address_is_refused(
    campaign, owner, member, outsider, client_for, observer
):
    url = reverse("rolls:talk_settings", args=[campaign.pk])
    assert client_for(outsider).get(url).status_code == 404
    assert client_for(member).get(url).status_code == 403
    assert client_for(observer).post(url, {"dice_in_hand": "on"}).status_code == 403
    gm = client_for(owner)
    refused = gm.post(url, {"webhook_url": "https://127.0.0.1/x", "webhook_format": "discord"})
    assert refused.status_code == 422 and "private address" in refused.content.decode()
    saved = gm.post(
        url,
        {"webhook_url": "https://93.184.216.34/x", "webhook_format": "json", "dice_in_hand": "on"},
    )
    assert saved.status_code == 302
    talk = TableTalk.objects.get(campaign=campaign)
    assert (talk.webhook_url, talk.webhook_format, talk.dice_in_hand) == (
        "https://93.184.216.34/x",
        "json",
        True,
    )


@pytest.mark.django_db
def test_a_row_another_process_holds_is_left_to_it(hooked, receiver, member, client_for):
    roll(client_for(member), hooked, label="Held")
    held_until = timezone.now() + timedelta(minutes=1)
    WebhookDelivery.objects.update(lease_until=held_until)  # another process's sender has it
    webhooks.send_due()
    assert not receiver.got
    WebhookDelivery.objects.update(lease_until=timezone.now() - timedelta(seconds=1))  # it died
    webhooks.send_due()
    assert [got["content"].split(":")[0] for got in receiver.got] == ["Held"]


@pytest.mark.django_db
def test_what_waits_for_an_address_the_gm_changed_is_not_sent_there(
    hooked, receiver, owner, member, client_for
):
    receiver.answers = [500]
    roll(client_for(member), hooked, label="Stuck")
    webhooks.send_due()  # it failed once and waits for its retry
    url = reverse("rolls:talk_settings", args=[hooked.pk])
    client_for(owner).post(url, {"webhook_url": "", "webhook_format": "discord"})
    row = WebhookDelivery.objects.get()
    assert row.failed_at is not None and row.last_error == "the webhook's address was changed"
    WebhookDelivery.objects.update(next_try_at=row.created_at)
    webhooks.send_due()
    assert len(receiver.got) == 1  # the first try only


class Listener:
    """A TCP port on 127.0.0.1 that counts who connects to it: what sits inside the server's
    own network, which a webhook must never reach. Speaking no TLS, it is a TLS error to a
    client that gets through, as an open port was in #37."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.connected = 0
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.connected += 1
            conn.close()


class Dripper:
    """A receiver on 127.0.0.1 that takes the request, then answers a byte every ``every``
    seconds for ``lasting`` seconds: no read ever waits long, the answer never ends."""

    def __init__(self, every: float = 1.0, lasting: float = 12.0) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.every, self.lasting = every, lasting
        self.requests = 0
        threading.Thread(target=self._accept, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"

    def _accept(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._drip, args=(conn,), daemon=True).start()

    def _drip(self, conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            self.requests += 1
            ends = time.monotonic() + self.lasting
            try:
                conn.sendall(b"HTTP/1.1 200 OK\r\nX-Drip: ")
                while time.monotonic() < ends:
                    conn.sendall(b"x")
                    time.sleep(self.every)
                conn.sendall(b"\r\nContent-Length: 0\r\n\r\n")
            except OSError:
                pass


@pytest.fixture
def listener():
    server = Listener()
    yield server
    server.sock.close()


@pytest.fixture
def dripper():
    server = Dripper()
    yield server
    server.sock.close()


PUBLIC = "93.184.216.34"  # what the name answers when it is checked


@pytest.mark.django_db
def test_a_name_that_rebinds_to_loopback_is_never_connected_to(
    campaign, listener, member, client_for, settings, monkeypatch
):
    """#37: the name answers a public address when asked, then 127.0.0.1. The delivery
    connects to the address it checked or to none, and the GM's page says nothing of what
    sits behind an address it did not reach."""
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    settings.WEBHOOK_TIMEOUT = 1
    TableTalk.objects.create(
        campaign=campaign, webhook_url=f"https://hooks.rebind.test:{listener.port}/hook"
    )
    asked: list[str] = []

    def rebinding(host: str, port: int) -> list[str]:
        asked.append(host)
        return [PUBLIC] if len(asked) == 1 else ["127.0.0.1"]

    monkeypatch.setattr(webhooks, "resolve", rebinding)
    roll(client_for(member), campaign, label="Rebound")
    webhooks.send_due()
    row = WebhookDelivery.objects.get()
    assert listener.connected == 0
    assert asked == ["hooks.rebind.test"]  # looked up once, and that answer was the one used
    assert row.last_error in (
        "could not deliver: no connection, or the receiver broke off",
        "no answer within 1 s",
    )
    # At the next try the name answers 127.0.0.1: refused, and the page says only that.
    WebhookDelivery.objects.update(next_try_at=row.created_at)
    webhooks.send_due()
    row.refresh_from_db()
    assert listener.connected == 0
    assert row.last_error == "refused: not a public address"


@pytest.mark.django_db
def test_a_receiver_dripping_its_answer_is_cut_at_the_deadline(
    campaign, dripper, member, client_for, settings
):
    """#37: a byte every second never lets one read time out; the delivery is cut when its
    whole time (WEBHOOK_TIMEOUT) is up, and tried again later."""
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    settings.WEBHOOK_TIMEOUT = 2
    TableTalk.objects.create(campaign=campaign, webhook_url=dripper.url)
    roll(client_for(member), campaign, label="Dripped")
    started = time.monotonic()
    webhooks.send_due()
    took = time.monotonic() - started
    row = WebhookDelivery.objects.get()
    assert dripper.requests == 1
    assert took < 3, f"the delivery took {took:.1f} s"
    assert (row.last_error, row.sent_at, row.attempts) == ("no answer within 2 s", None, 1)


@pytest.mark.django_db(transaction=True)
def test_a_dripping_receiver_holds_up_no_other_campaigns_deliveries(
    campaign, dripper, receiver, owner, member, client_for, settings
):
    """#37: one campaign's receiver drips its answer; another campaign's entry still
    arrives at once, and the dripping one is cut at its deadline."""
    settings.WEBHOOK_TIMEOUT = 5
    other = CampaignFactory(owner=owner, name="The Salt Road")
    MembershipFactory(campaign=other, user=member)
    TableTalk.objects.create(campaign=campaign, webhook_url=dripper.url)
    TableTalk.objects.create(campaign=other, webhook_url=receiver.url)
    player = client_for(member)
    try:
        roll(player, campaign, label="Dripped")
        for _ in range(50):  # the sender is on the dripping receiver
            if dripper.requests:
                break
            time.sleep(0.1)
        assert dripper.requests == 1
        sent = time.monotonic()
        assert roll(player, other, label="Elsewhere").status_code == 200
        while not receiver.got and time.monotonic() - sent < 15:
            time.sleep(0.01)
        latency = time.monotonic() - sent
        print(f"other campaign's delivery: {latency:.3f} s")
        assert receiver.got, "the other campaign's entry never arrived"
        assert receiver.got[0]["content"].startswith("Elsewhere: ")
        assert latency < 1, f"the other campaign's entry took {latency:.1f} s"
    finally:
        # The threads are stopped before the test's tables are emptied under them.
        webhooks.sender.stop(timeout=settings.WEBHOOK_TIMEOUT + 2)
    dripped = WebhookDelivery.objects.get(campaign=campaign)
    assert dripped.last_error == "no answer within 5 s"
