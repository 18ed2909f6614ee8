"""A campaign's public log entries sent on to its group's chat server: a webhook in Discord's
format, or plain JSON.

An entry everyone at the table reads as it is (``Roll.public``: no secret roll, whisper,
GM-only line or hidden difficulty) is written to an outbox (``WebhookDelivery``) in the
entry's own transaction, so it is sent exactly when the entry exists. Threads of the process
(``sender``) post it after the commit, off every request's and socket's way: a receiver that
hangs delays no roll, push or answer, and no other campaign's deliveries; each delivery ends
within ``WEBHOOK_TIMEOUT`` all told. A failure is tried again later (``RETRY_AFTER``), and
the GM's settings page shows the last delivery and the last error. In scaled mode each
process's sender takes rows with a lease, so a row is posted by one process at a time.

Only https addresses whose every address is public are posted to, looked up once at each
delivery and connected to at the very addresses that were checked, unless the operator allows
plain http and private addresses (``WEBHOOKS_ALLOW_PRIVATE``)."""

import contextlib
import http.client
import ipaddress
import json
import logging
import queue
import socket
import ssl
import threading
import time
from collections.abc import Collection
from datetime import datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connections, transaction
from django.db.models import OuterRef, Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from campaigns.selectors import table_language
from rolls.fragments import roll_summary
from rolls.log.export import visible_roll
from rolls.models import Roll
from rolls.talk.models import TableTalk, WebhookDelivery

logger = logging.getLogger(__name__)

# Seconds to wait before each try after a failure; past the last, the entry is given up on.
RETRY_AFTER = (10, 30, 120, 600, 1800, 3600)
LEASE = timedelta(minutes=2)  # a sender's hold on a row it is posting
IDLE_SECONDS = 60  # how often an idle sender looks for rows another process left due
BATCH = 100
DISCORD_LENGTH = 2000  # characters of a Discord message's content
WORKERS = 4  # campaigns a process posts to at once


def entry_written(entry: Roll) -> None:
    """Called in the transaction that writes ``entry``: puts it in the outbox if it is public
    and the campaign sends its log on, and wakes this process's sender once it commits."""
    if not entry.public:
        return
    talk = TableTalk.objects.filter(campaign_id=entry.campaign_id).exclude(webhook_url="").first()
    if talk is None:
        return
    WebhookDelivery.objects.create(
        campaign_id=entry.campaign_id,
        url=talk.webhook_url,
        payload=payload(entry, talk.webhook_format, talk.campaign.name),
    )
    transaction.on_commit(sender.wake)


def payload(entry: Roll, fmt: str, campaign_name: str) -> dict[str, Any]:
    """What the receiver gets: Discord's message (its words, no pings), or the entry as the
    log's JSON export gives it to a player."""
    if fmt == TableTalk.Format.JSON:
        with table_language(entry.campaign):
            return {"campaign": campaign_name, "entry": visible_roll(entry, gm_view=False)}
    with table_language(entry.campaign):  # the group reads the table's log, as the table does
        words = roll_summary(entry)
    return {
        "content": words[:DISCORD_LENGTH],
        "username": "FudgeTable",
        "allowed_mentions": {"parse": []},  # "@everyone" in a message pings nobody
    }


class _Refused(Exception):
    """A url that is not posted to, with why in words; ``private`` when it names an address
    inside a network rather than a public one."""

    def __init__(self, words: str, *, private: bool = False) -> None:
        super().__init__(words)
        self.words, self.private = words, private


def resolve(host: str, port: int) -> list[str]:
    """The addresses ``host`` names now. A delivery asks once and connects only to what this
    answer said (the tests put a rebinding resolver in its place)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def _public(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_global
    except ValueError:
        return False


def _lookup(url: str) -> tuple[str, int, bool, list[str]]:
    """The host, port, whether https, and the addresses ``url`` may be connected to, looked up
    once; raises ``_Refused`` when it may not be posted to."""
    parts = urlsplit(url)
    allow = settings.WEBHOOKS_ALLOW_PRIVATE
    if parts.scheme != "https" and not (allow and parts.scheme == "http"):
        raise _Refused(_("only https addresses are sent to"))
    host = parts.hostname
    if not host:
        raise _Refused(_("the address names no server"))
    https = parts.scheme == "https"
    try:
        port = parts.port or (443 if https else 80)
    except ValueError:
        raise _Refused(_("the address's port is not a number")) from None
    unresolved = _("%(host)s does not resolve to an address") % {"host": host}
    try:
        addresses = resolve(host, port)
    except (OSError, UnicodeError):
        raise _Refused(unresolved) from None
    if not addresses:
        raise _Refused(unresolved)
    if not allow and not all(_public(a) for a in addresses):
        raise _Refused(_("%(host)s is a private address") % {"host": host}, private=True)
    return host, port, https, addresses


def address_problem(url: str) -> str | None:
    """Why ``url`` may not be posted to, in words; None when it may (the settings form asks).
    An address that resolves to a private one is refused (a webhook must not reach into the
    server's own network), unless the operator allows it."""
    try:
        _lookup(url)
    except _Refused as refused:
        return refused.words
    return None


class _Deadline:
    """The end of one delivery's whole time: connecting, TLS, sending and the answer. A
    socket's timeout bounds each read, and a receiver dripping a byte a second never lets one
    run out; so at the deadline a timer shuts the socket under whatever waits on it."""

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self.cut = False
        self._lock = threading.Lock()
        self._sock: socket.socket | None = None
        self._timer = threading.Timer(seconds, self._cut)
        self._timer.daemon = True
        self._timer.start()

    def left(self) -> float:
        return max(0.0, self.at - time.monotonic())

    def passed(self) -> bool:
        return self.cut or time.monotonic() >= self.at

    def watch(self, sock: socket.socket) -> None:
        with self._lock:
            self._sock = sock
        if self.cut:
            self._cut()

    def _cut(self) -> None:
        with self._lock:
            self.cut = True
            if self._sock is not None:
                # The plain socket's shutdown: a TLS socket's own would unwrap it under the
                # thread that reads it.
                with contextlib.suppress(OSError):
                    socket.socket.shutdown(self._sock, socket.SHUT_RDWR)

    def end(self) -> None:
        """Called before the socket closes, so the timer never shuts a number reused since."""
        self._timer.cancel()
        with self._lock:
            self._sock = None


class _Pinned(http.client.HTTPConnection):
    """HTTP(S) to the addresses that were checked, with the name for TLS (SNI, the
    certificate) and Host: a name that answers elsewhere when asked again (DNS rebinding) is
    never asked again."""

    def __init__(
        self, host: str, port: int, https: bool, addresses: list[str], deadline: _Deadline
    ) -> None:
        super().__init__(host, port, timeout=max(deadline.left(), 0.001))
        self.default_port = 443 if https else 80  # Host: names the port only when not this
        self.tls = ssl.create_default_context() if https else None
        self.addresses, self.deadline = addresses, deadline

    def connect(self) -> None:
        sock = self._reach()
        if self.tls is not None:
            sock = self.tls.wrap_socket(
                sock, server_hostname=self.host, do_handshake_on_connect=False
            )
            self.deadline.watch(sock)  # the plain socket was handed over to this one
            sock.do_handshake()
        self.sock = sock

    def _reach(self) -> socket.socket:
        failed: OSError = ConnectionError()
        for address in self.addresses:
            if self.deadline.passed():
                raise TimeoutError
            try:
                sock = socket.create_connection((address, self.port), self.deadline.left())
            except OSError as error:
                failed = error
                continue
            self.deadline.watch(sock)
            return sock
        raise failed


def post(url: str, body: dict[str, Any]) -> str | None:
    """Posts ``body`` as JSON to ``url`` within ``WEBHOOK_TIMEOUT`` all told; the error in
    words, or None when it was taken. The words never tell what sits behind an address that
    was not reached (closed, open, speaking something else): the GM's page would otherwise
    be a port scanner."""
    seconds = settings.WEBHOOK_TIMEOUT
    deadline = _Deadline(seconds)
    try:
        host, port, https, addresses = _lookup(url)
    except _Refused as refused:
        deadline.end()
        return _("refused: not a public address") if refused.private else refused.words
    connection = _Pinned(host, port, https, addresses, deadline)
    parts = urlsplit(url)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    data = json.dumps(body, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "FudgeTable webhook"}
    try:
        connection.request("POST", path, body=data, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)
        if deadline.cut:  # a cut socket reads as an answer's end: what came is not one
            raise TimeoutError
    except (OSError, http.client.HTTPException):
        if deadline.passed():
            return _("no answer within %(seconds)d s") % {"seconds": seconds}
        return _("could not deliver: no connection, or the receiver broke off")
    finally:
        deadline.end()
        connection.close()
    if 200 <= response.status < 300:
        return None
    return _("the receiver answered %(status)d") % {"status": response.status}


def _pending() -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True)


def _free(now: datetime) -> Q:
    return Q(lease_until__isnull=True) | Q(lease_until__lt=now)


def due_campaigns(*, besides: Collection[int] = ()) -> list[int]:
    """The campaigns whose oldest waiting delivery is due and held by no sender, oldest
    first: a campaign whose oldest waits for its next try waits whole, so its chat never
    reads out of order."""
    now = timezone.now()
    oldest = _pending().filter(campaign_id=OuterRef("campaign_id")).order_by("created_at", "pk")
    heads = (
        _pending()
        .filter(_free(now), pk=Subquery(oldest.values("pk")[:1]), next_try_at__lte=now)
        .exclude(campaign_id__in=besides)
        .order_by("created_at", "pk")
    )
    return list(heads.values_list("campaign_id", flat=True)[:BATCH])


def send_campaign(campaign_id: int) -> None:
    """Posts a campaign's due deliveries in the order written, each under a lease (in scaled
    mode another process's sender may hold one), until one fails or is not due."""
    for _turn in range(BATCH):
        now = timezone.now()
        row = _pending().filter(campaign_id=campaign_id).order_by("created_at", "pk").first()
        if row is None or row.next_try_at > now:
            return
        # Longer than a delivery can take, so no other process posts it while this one does.
        lease = LEASE + timedelta(seconds=settings.WEBHOOK_TIMEOUT)
        taken = _pending().filter(_free(now), pk=row.pk).update(lease_until=now + lease)
        if not taken or not _deliver(row):
            return


def send_due() -> None:
    """Posts every delivery that is due, campaign after campaign, on this thread."""
    for campaign_id in due_campaigns():
        send_campaign(campaign_id)


def _deliver(row: WebhookDelivery) -> bool:
    error = post(row.url, row.payload)
    now = timezone.now()
    row.attempts += 1
    row.lease_until = None
    if error is None:
        row.sent_at = now
    else:
        logger.warning("webhook of campaign %s: %s", row.campaign_id, error)
        row.last_error, row.last_error_at = error[:300], now
        if row.attempts > len(RETRY_AFTER):
            row.failed_at = now
        else:
            row.next_try_at = now + timedelta(seconds=RETRY_AFTER[row.attempts - 1])
    row.save(
        update_fields=[
            "attempts",
            "lease_until",
            "sent_at",
            "last_error",
            "last_error_at",
            "failed_at",
            "next_try_at",
        ]
    )
    return error is None


class Sender:
    """The process's webhook threads: one finds the campaigns with deliveries due (woken when
    an entry for the outbox commits, else when the next try is due, at most ``IDLE_SECONDS``
    so it also finds what another process left), and ``WORKERS`` post them, one campaign to a
    worker at a time, so each campaign's go in order and a slow receiver holds only its own.
    Every delivery ends by ``WEBHOOK_TIMEOUT``, so a campaign waits for a free worker at most
    that long for each ``WORKERS`` slow receivers ahead of it."""

    def __init__(self, workers: int = WORKERS) -> None:
        self.workers = workers
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._queue: queue.SimpleQueue[int | None] = queue.SimpleQueue()
        self._busy: set[int] = set()  # campaigns queued or being posted to
        self._stopping = threading.Event()

    def wake(self) -> None:
        with self._lock:
            if not self._threads or not self._threads[0].is_alive():
                self._start()
        self._wake.set()

    def _start(self) -> None:
        # Each start's threads hold their own queue, set and flag: a thread of an earlier
        # start that outlived ``stop``'s wait never takes work meant for the new ones.
        self._stopping = threading.Event()
        self._queue = queue.SimpleQueue()
        self._busy = set()
        own = (self._queue, self._busy, self._stopping)
        self._threads = [threading.Thread(target=self._run, args=own, name="webhooks", daemon=True)]
        self._threads += [
            threading.Thread(target=self._work, args=own[:2], name=f"webhooks-{n}", daemon=True)
            for n in range(self.workers)
        ]
        for thread in self._threads:
            thread.start()

    def stop(self, timeout: float = 5) -> None:
        """Ends the threads once they are done with what they are posting (the tests'
        teardown)."""
        with self._lock:
            threads = self._threads
            self._stopping.set()
            for _worker in threads[1:]:
                self._queue.put(None)
        self._wake.set()
        ends = time.monotonic() + timeout
        for thread in threads:
            thread.join(max(0.0, ends - time.monotonic()))

    def _run(
        self, jobs: "queue.SimpleQueue[int | None]", busy_now: set[int], stopping: threading.Event
    ) -> None:
        while not stopping.is_set():
            self._wake.clear()
            wait: float = IDLE_SECONDS
            try:
                with self._lock:
                    busy = set(busy_now)
                for campaign_id in due_campaigns(besides=busy):
                    with self._lock:
                        if stopping.is_set():
                            return
                        busy_now.add(campaign_id)
                        busy.add(campaign_id)
                    jobs.put(campaign_id)
                wait = _next_due_in(besides=busy)
            except Exception:
                logger.exception("webhook sender failed; trying again later")
            finally:
                connections.close_all()
            self._wake.wait(timeout=wait)

    def _work(self, jobs: "queue.SimpleQueue[int | None]", busy_now: set[int]) -> None:
        while (campaign_id := jobs.get()) is not None:
            try:
                send_campaign(campaign_id)
            except Exception:
                logger.exception("webhook sender failed; trying again later")
            finally:
                connections.close_all()
                with self._lock:
                    busy_now.discard(campaign_id)
                self._wake.set()  # more may have come for it while it posted


def _next_due_in(*, besides: Collection[int] = ()) -> float:
    due = (
        _pending()
        .exclude(campaign_id__in=besides)
        .order_by("next_try_at")
        .values_list("next_try_at", flat=True)
        .first()
    )
    if due is None:
        return IDLE_SECONDS
    return min(IDLE_SECONDS, max(0.5, (due - timezone.now()).total_seconds()))


sender = Sender()


def talk_settings_save(
    *, talk: TableTalk, dice_in_hand: bool, webhook_url: str, webhook_format: str
) -> TableTalk:
    """Saves a campaign's table talk settings, and in the same transaction gives up on what
    waits for a webhook address they no longer name."""
    talk.dice_in_hand = dice_in_hand
    talk.webhook_url = webhook_url
    talk.webhook_format = webhook_format
    with transaction.atomic():
        talk.save()
        _address_changed(talk)
    return talk


def _address_changed(talk: TableTalk) -> None:
    """What waits for an address the GM has since changed or removed is not sent there: it
    is given up on, and says why."""
    now = timezone.now()
    waiting = WebhookDelivery.objects.filter(
        campaign_id=talk.campaign_id, sent_at__isnull=True, failed_at__isnull=True
    )
    waiting.exclude(url=talk.webhook_url).update(
        failed_at=now, last_error=_("the webhook's address was changed"), last_error_at=now
    )


def state(talk: TableTalk) -> dict[str, Any]:
    """What the GM's settings page shows of the webhook: the last delivery, the last error,
    and how many entries wait."""
    rows = WebhookDelivery.objects.filter(campaign_id=talk.campaign_id)
    return {
        "last_sent": rows.filter(sent_at__isnull=False).order_by("-sent_at").first(),
        "last_error": rows.exclude(last_error="").order_by("-last_error_at").first(),
        "waiting": rows.filter(sent_at__isnull=True, failed_at__isnull=True).count(),
        "given_up": rows.filter(failed_at__isnull=False).count(),
    }
