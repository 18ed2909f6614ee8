"""Load on the live table: T tables x M sockets, rolls posted over HTTP, pushes timed.

    .venv/bin/python -m tests.benchmarks.live_table --tables 100 --sockets 8 --rate 0.5 \\
        --duration 60 [--debug] [--py-spy PATH --profile-out stacks.txt]

One daphne process on the embedded default (a throwaway SQLite file, the in-memory channel
layer), in production mode (DEBUG=0) unless --debug. Each table has a GM and M-1 players, each
with one authenticated socket; one player per table posts trait checks at R per second as the
table page's roll form does (an htmx POST with a fresh idempotency key), the tables' first
rolls spread evenly over one interval. The roll's id comes back in the POST's answer (the
"You rolled" entry) and matches the entries arriving on the sockets, which may come first.
For every roll and every socket of its table it times POST start -> entry arrived, and reports
p50/p95/p99/max, losses (an entry not there 5 s after its POST), throughput, the server's CPU
and memory sampled every second, and its CPU time per roll. Loopback only; it stops by itself.
--py-spy (`pip install --target DIR py-spy`) records the server under load: a flame graph, or
folded stacks for a .txt output. Not collected by pytest; docs/performance.md has its figures.
"""

import argparse
import asyncio
import contextlib
import json
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

from tests.e2e.server import AppServer

LOSS_SECONDS = 5.0
OPEN_ATTEMPTS = 5
ENTRY = re.compile(r'id="roll-(\d+)"')

# Sessions are written straight into the session table (as a login would write them), so 800
# people need no 800 password hashes; the sockets and POSTs then authenticate as usual.
SEED = """
import json
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from importlib import import_module
from django.conf import settings
from django.db import transaction
from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.services import character_create

TABLES, SOCKETS = {tables}, {sockets}
def session_for(user):
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key

tables = []
with transaction.atomic():
    User.objects.bulk_create(
        User(username=f"t{{t}}-u{{u}}", password=make_password(None))
        for t in range(TABLES) for u in range(SOCKETS)
    )
    users = {{user.username: user for user in User.objects.all()}}
    for t in range(TABLES):
        people = [users[f"t{{t}}-u{{u}}"] for u in range(SOCKETS)]
        campaign = campaign_create(owner=people[0], name=f"Table {{t}}")
        Membership.objects.bulk_create(
            Membership(campaign=campaign, user=user, role=Membership.Role.PLAYER)
            for user in people[1:]
        )
        hero = character_create(campaign=campaign, owner=people[-1], name=f"Hero{{t}}")
        tables.append({{
            "campaign": campaign.pk,
            "hero": hero.pk,
            "trait": hero.traits.order_by("position").first().pk,
            "sessions": [session_for(user) for user in people],
        }})
print(json.dumps(tables))
"""


@dataclass
class Table:
    campaign: int
    hero: int
    trait: int
    sessions: list[str]  # the GM's first; the last one is the roller's
    # roll pk -> POST start; (socket index, roll pk) -> arrival (perf_counter seconds)
    posted: dict[int, float] = field(default_factory=dict)
    arrived: dict[tuple[int, int], float] = field(default_factory=dict)


@dataclass
class Samples:
    server_cpu: list[float] = field(default_factory=list)
    server_rss: list[int] = field(default_factory=list)
    client_cpu: list[float] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    post_errors: list[str] = field(default_factory=list)
    server_cpu_seconds: float = 0.0  # user + system time the server spent under the load


def _start_server(workdir: Path, *, debug: bool) -> AppServer:
    server = AppServer(
        workdir,
        SQLITE_PATH=str(workdir / "bench.sqlite3"),
        STATIC_ROOT=str(workdir / "static"),
        DEBUG="1" if debug else "0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="127.0.0.1",
        SECURE_SSL_REDIRECT="0",
        LOG_LEVEL="WARNING",
    )
    server.manage("migrate", "--no-input", "-v", "0")
    if not debug:  # production mode serves static files from their manifest
        server.manage("collectstatic", "--no-input", "-v", "0")
    return server


async def _listen(table: Table, index: int, socket: ClientConnection) -> None:
    """Notes when each roll's entry first reaches this socket."""
    with contextlib.suppress(Exception):
        async for frame in socket:
            now = time.perf_counter()
            for pk in ENTRY.findall(str(frame)):
                table.arrived.setdefault((index, int(pk)), now)


async def _open_sockets(
    server: AppServer, tables: list[Table], opening: int
) -> list[ClientConnection]:
    """Every socket, opened ``opening`` at a time; each one has had its whole state on return."""
    gate = asyncio.Semaphore(opening)

    async def open_one(table: Table, session: str) -> ClientConnection:
        async with gate:
            for attempt in range(OPEN_ATTEMPTS):
                try:
                    socket = await connect(
                        f"ws://127.0.0.1:{server.port}/ws/campaigns/{table.campaign}/",
                        origin=Origin(server.url),
                        additional_headers={"Cookie": f"sessionid={session}"},
                        compression=None,
                        proxy=None,
                        open_timeout=30,
                        max_queue=None,
                    )
                    while 'id="roll-log"' not in str(await asyncio.wait_for(socket.recv(), 30)):
                        pass
                    return socket
                except (OSError, TimeoutError, WebSocketException) as error:
                    # Daphne drops a handshake its app has not accepted within 5 s; a browser's
                    # htmx reconnects, and so does this, a little later.
                    failures.append(f"{type(error).__name__}: {error}")
                    await asyncio.sleep(1 + attempt)
            raise RuntimeError(f"a socket did not open in {OPEN_ATTEMPTS} tries: {failures[-1]}")

    failures: list[str] = []
    sockets = list(await asyncio.gather(*(open_one(t, s) for t in tables for s in t.sessions)))
    if failures:
        print(f"{len(failures)} socket openings failed and were retried, e.g. {failures[0]}")
    return sockets


async def _post(
    http: httpx.AsyncClient, table: Table, number: int, csrf: str, samples: Samples
) -> None:
    data = {
        "kind": "check",
        "character": str(table.hero),
        "trait": str(table.trait),
        "modifiers": "",
        "key": f"bench-{table.campaign}-{number}-{secrets.token_hex(4)}",
    }
    headers = {
        "Cookie": f"sessionid={table.sessions[-1]}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
    }
    start = time.perf_counter()
    try:
        response = await http.post(
            f"/campaigns/{table.campaign}/table/roll/", data=data, headers=headers
        )
    except httpx.HTTPError as error:
        samples.post_errors.append(f"{type(error).__name__}: {error}")
        return
    samples.post_ms.append((time.perf_counter() - start) * 1000)
    made = ENTRY.search(response.text)
    if response.status_code != 200 or made is None:
        samples.post_errors.append(f"{response.status_code}: {response.text[:200]}")
        return
    table.posted[int(made.group(1))] = start


async def _load(
    server: AppServer, tables: list[Table], rate: float, duration: float, samples: Samples
) -> float:
    """Posts every table's rolls on an even schedule: table i starts i/(T·R) s in, then one
    roll each 1/R s. Returns the seconds the schedule took."""
    csrf = secrets.token_hex(16)  # any 32-character secret, sent as cookie and header alike
    limits = httpx.Limits(max_connections=len(tables), max_keepalive_connections=len(tables))
    async with httpx.AsyncClient(
        base_url=server.url, limits=limits, timeout=30, trust_env=False
    ) as http:
        per_table = max(1, int(duration * rate))
        schedule = sorted(
            (i / (len(tables) * rate) + n / rate, i, n)
            for i in range(len(tables))
            for n in range(per_table)
        )
        posts = []
        began = time.perf_counter()
        for offset, i, n in schedule:
            delay = began + offset - time.perf_counter()
            if delay > 0:
                await asyncio.sleep(delay)
            posts.append(asyncio.create_task(_post(http, tables[i], n, csrf, samples)))
        await asyncio.gather(*posts)
        return time.perf_counter() - began


async def _sample(pid: int, samples: Samples, stop: asyncio.Event) -> None:
    server, client = psutil.Process(pid), psutil.Process()
    server.cpu_percent(), client.cpu_percent()
    began = server.cpu_times()
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1)
        samples.server_cpu.append(server.cpu_percent())
        samples.server_rss.append(server.memory_info().rss)
        samples.client_cpu.append(client.cpu_percent())
    ended = server.cpu_times()
    samples.server_cpu_seconds = (ended.user - began.user) + (ended.system - began.system)


def _percentile(values: list[float], p: int) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[p - 1]
        if len(values) > 1
        else values[0]
    )


def _report(
    args: argparse.Namespace, tables: list[Table], samples: Samples, took: float, rss_before: int
) -> None:
    latencies, lost = [], 0
    for table in tables:
        for pk, start in table.posted.items():
            for index in range(len(table.sessions)):
                arrival = table.arrived.get((index, pk))
                if arrival is None or arrival - start > LOSS_SECONDS:
                    lost += 1
                else:
                    latencies.append((arrival - start) * 1000)
    rolls = sum(len(t.posted) for t in tables)
    mode = "DEBUG=1" if args.debug else "DEBUG=0"
    print(
        f"live table: {args.tables} tables x {args.sockets} sockets, {args.rate} rolls/s per "
        f"table, {args.duration:.0f} s, {mode}, Python {sys.version.split()[0]}, "
        f"{psutil.cpu_count()} CPUs, load average {psutil.getloadavg()[0]:.2f}"
    )
    print(
        f"rolls posted {rolls} in {took:.1f} s ({rolls / took:.1f}/s), POST errors "
        f"{len(samples.post_errors)}, entries expected {rolls * args.sockets}, "
        f"delivered {len(latencies)} ({len(latencies) / took:.0f}/s), lost {lost}"
    )
    if latencies:
        print(
            "POST start -> entry on a socket: "
            f"p50 {_percentile(latencies, 50):.1f} ms  p95 {_percentile(latencies, 95):.1f} ms  "
            f"p99 {_percentile(latencies, 99):.1f} ms  max {max(latencies):.1f} ms"
        )
    if samples.post_ms:
        print(
            f"POST answered: p50 {_percentile(samples.post_ms, 50):.1f} ms  "
            f"p99 {_percentile(samples.post_ms, 99):.1f} ms"
        )
    if samples.server_cpu:
        print(
            f"server CPU mean {statistics.mean(samples.server_cpu):.0f}% max "
            f"{max(samples.server_cpu):.0f}% (100% = one core); RSS with sockets open "
            f"{rss_before / 2**20:.0f} MB, peak {max(samples.server_rss) / 2**20:.0f} MB; "
            f"load client CPU mean {statistics.mean(samples.client_cpu):.0f}%"
        )
        print(
            f"server CPU time per roll {samples.server_cpu_seconds / max(rolls, 1) * 1000:.1f} ms"
        )
    for error in samples.post_errors[:5]:
        print("POST error:", error)


async def _run(args: argparse.Namespace, server: AppServer, tables: list[Table]) -> None:
    pid = server.process.pid if server.process else 0
    opened = time.perf_counter()
    sockets = await _open_sockets(server, tables, args.opening)
    print(f"{len(sockets)} sockets open with their state in {time.perf_counter() - opened:.1f} s")
    listeners = [
        asyncio.create_task(_listen(table, index, sockets[t * args.sockets + index]))
        for t, table in enumerate(tables)
        for index in range(args.sockets)
    ]
    await asyncio.sleep(2)  # the presence updates the connections set off die down
    rss_before = psutil.Process(pid).memory_info().rss
    samples, stop = Samples(), asyncio.Event()
    sampler = asyncio.create_task(_sample(pid, samples, stop))
    spy = None
    if args.py_spy:
        spy = subprocess.Popen(
            [
                args.py_spy,
                "record",
                "--pid",
                str(pid),
                "--output",
                str(Path(args.profile_out).resolve()),
                "--duration",
                str(int(args.duration) + 2),
                "--threads",
                "--nonblocking",
                "--rate",
                "50",
                *(["--format", "raw"] if args.profile_out.endswith(".txt") else []),
            ]
        )
    took = await _load(server, tables, args.rate, args.duration, samples)
    await asyncio.sleep(LOSS_SECONDS)  # stragglers
    stop.set()
    await sampler
    if spy:
        spy.wait(timeout=60)
    for socket in sockets:
        await socket.close()
    for listener in listeners:
        listener.cancel()
    _report(args, tables, samples, took, rss_before)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=8, help="per table: a GM and M-1 players")
    parser.add_argument("--rate", type=float, default=0.5, help="rolls per second per table")
    parser.add_argument("--duration", type=float, default=60, help="seconds of posting")
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    parser.add_argument("--opening", type=int, default=20, help="sockets opened at once")
    parser.add_argument("--py-spy", help="path to py-spy: record the server during the load")
    parser.add_argument(
        "--profile-out",
        default="live_table.svg",
        help="py-spy's flame graph (.svg) or its folded stacks (.txt)",
    )
    parser.add_argument("--server-log", help="copy the server's log here at the end")
    args = parser.parse_args()
    if not (1 <= args.tables <= 500 and 2 <= args.sockets <= 50 and 0 < args.rate <= 10):
        parser.error("keep to 1-500 tables, 2-50 sockets per table and at most 10 rolls/s")
    if not 1 <= args.duration <= 600:
        parser.error("--duration is 1 to 600 seconds")

    with tempfile.TemporaryDirectory(prefix="fudgetable-live-") as workdir:
        server = _start_server(Path(workdir), debug=args.debug)
        printed = server.python(SEED.format(tables=args.tables, sockets=args.sockets))
        seeded = json.loads(printed.strip().splitlines()[-1])
        tables = [Table(**row) for row in seeded]
        server.start()
        try:
            asyncio.run(_run(args, server, tables))
        finally:
            server.stop()
            if args.server_log:
                shutil.copyfile(server.log, args.server_log)


if __name__ == "__main__":
    main()
