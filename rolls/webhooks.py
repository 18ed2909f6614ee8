"""A campaign's public log entries sent on to its group's chat server: a webhook in Discord's
format, or plain JSON.

An entry everyone at the table reads as it is (``Roll.public``: no secret roll, whisper,
GM-only line or hidden difficulty) is written to an outbox (``WebhookDelivery``) in the
entry's own transaction, so it is sent exactly when the entry exists. A thread of the process
(``sender``) posts it after the commit, off every request's and socket's way: a receiver that
hangs delays no roll, push or answer. A failure is tried again later (``RETRY_AFTER``), and
the GM's settings page shows the last delivery and the last error. In scaled mode each
process's sender takes rows with a lease, so a row is posted by one process at a time.

Only https addresses whose every address is public are posted to, looked up again at each
delivery and connected to by the address that was checked, unless the operator allows plain
http and private addresses (``WEBHOOKS_ALLOW_PRIVATE``)."""

import http.client
import ipaddress
import json
import logging
import socket
import ssl
import threading
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connections, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from rolls.fragments import roll_summary
from rolls.log_export import visible_roll
from rolls.models import Roll, TableTalk, WebhookDelivery

logger = logging.getLogger(__name__)

# Seconds to wait before each try after a failure; past the last, the entry is given up on.
RETRY_AFTER = (10, 30, 120, 600, 1800, 3600)
LEASE = timedelta(minutes=2)  # a sender's hold on a row it is posting
IDLE_SECONDS = 60  # how often an idle sender looks for rows another process left due
BATCH = 100
DISCORD_LENGTH = 2000  # characters of a Discord message's content


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
        return {"campaign": campaign_name, "entry": visible_roll(entry, gm_view=False)}
    words = roll_summary(entry)
    return {
        "content": words[:DISCORD_LENGTH],
        "username": "FudgeTable",
        "allowed_mentions": {"parse": []},  # "@everyone" in a message pings nobody
    }


def address_problem(url: str) -> str | None:
    """Why ``url`` may not be posted to, in words; None when it may. Looked up now: an address
    that resolves to a private one is refused (a webhook must not reach into the server's
    own network), unless the operator allows it."""
    parts = urlsplit(url)
    allow = settings.WEBHOOKS_ALLOW_PRIVATE
    if parts.scheme != "https" and not (allow and parts.scheme == "http"):
        return _("only https addresses are sent to")
    if not parts.hostname:
        return _("the address names no server")
    try:
        addresses = _addresses(parts.hostname, parts.port or 443)
    except OSError:
        return _("%(host)s does not resolve to an address") % {"host": parts.hostname}
    if not allow and not all(ipaddress.ip_address(a).is_global for a in addresses):
        return _("%(host)s is a private address") % {"host": parts.hostname}
    return None


def _addresses(host: str, port: int) -> list[str]:
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class _Pinned(http.client.HTTPSConnection):
    """HTTPS to the address that was checked, with the name for TLS and Host: a name that
    resolves elsewhere the second time round (DNS rebinding) is never connected to."""

    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


class _PinnedPlain(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, timeout: float) -> None:
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


def post(url: str, body: dict[str, Any]) -> str | None:
    """Posts ``body`` as JSON to ``url``; the error in words, or None when it was taken."""
    problem = address_problem(url)
    if problem:
        return problem
    parts = urlsplit(url)
    https = parts.scheme == "https"
    port = parts.port or (443 if https else 80)
    assert parts.hostname is not None
    try:
        address = _addresses(parts.hostname, port)[0]
    except OSError:
        return _("%(host)s does not resolve to an address") % {"host": parts.hostname}
    timeout = settings.WEBHOOK_TIMEOUT
    kind = _Pinned if https else _PinnedPlain
    connection = kind(parts.hostname, port, address, timeout)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    data = json.dumps(body, ensure_ascii=False).encode()
    headers = {"Content-Type": "application/json", "User-Agent": "FudgeTable webhook"}
    try:
        connection.request("POST", path, body=data, headers=headers)
        response = connection.getresponse()
        response.read(64 * 1024)
    except TimeoutError:
        return _("no answer within %(seconds)d s") % {"seconds": timeout}
    except (OSError, http.client.HTTPException) as error:
        return _("could not deliver: %(error)s") % {"error": str(error)[:200] or type(error)}
    finally:
        connection.close()
    if 200 <= response.status < 300:
        return None
    return _("the receiver answered %(status)d") % {"status": response.status}


def send_due() -> None:
    """Posts every delivery that is due, oldest first, each campaign's in the order written:
    a campaign whose oldest waits for its next try waits whole, so its chat never reads
    out of order."""
    now = timezone.now()
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    pending = WebhookDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True)
    held: set[int] = set()
    for row in pending.order_by("created_at", "pk")[:BATCH]:
        if row.campaign_id in held:
            continue
        if row.next_try_at > now:
            held.add(row.campaign_id)
            continue
        taken = pending.filter(free, pk=row.pk).update(lease_until=now + LEASE)
        if not taken:  # another process's sender has it
            held.add(row.campaign_id)
            continue
        if not _deliver(row):
            held.add(row.campaign_id)


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
    """The process's one webhook thread: woken when an entry for the outbox commits, it posts
    what is due, then sleeps until the next try is due (at most ``IDLE_SECONDS``, so it also
    finds what another process left)."""

    def __init__(self) -> None:
        self._wake = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stopping = False

    def wake(self) -> None:
        with self._lock:
            if self._thread is None or not self._thread.is_alive():
                self._stopping = False
                self._thread = threading.Thread(target=self._run, name="webhooks", daemon=True)
                self._thread.start()
        self._wake.set()

    def stop(self, timeout: float = 5) -> None:
        """Ends the thread once it is done with what it is posting (the tests' teardown)."""
        with self._lock:
            thread, self._stopping = self._thread, True
        self._wake.set()
        if thread is not None:
            thread.join(timeout)

    def _run(self) -> None:
        while not self._stopping:
            self._wake.clear()
            try:
                send_due()
            except Exception:
                logger.exception("webhook sender failed; trying again later")
            finally:
                connections.close_all()
            self._wake.wait(timeout=_next_due_in())


def _next_due_in() -> float:
    try:
        due = (
            WebhookDelivery.objects.filter(sent_at__isnull=True, failed_at__isnull=True)
            .order_by("next_try_at")
            .values_list("next_try_at", flat=True)
            .first()
        )
    except Exception:
        return IDLE_SECONDS
    finally:
        connections.close_all()
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
