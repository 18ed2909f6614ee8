"""Load on the live table: T tables x M sockets, rolls or GM events sent at a steady rate,
pushes timed.

    .venv/bin/python -m tests.benchmarks.live_table --tables 100 --sockets 8 --rate 0.5 \
        --duration 60 [--over socket|http] [--floor] [--no-stack-floor] [--events|--scene]
        [--debug]
        [--chat only|beside]
        [--gc-log PATH] [--scaled N [--layer core|pubsub]] [--capacity N]
        [--py-spy PATH --profile-out stacks.txt]

One daphne process on the embedded default (a throwaway SQLite file, the in-memory channel
layer), in production mode (DEBUG=0) unless --debug; with --scaled N, N processes on PostgreSQL
and Redis (--layer picks channels-redis's layer). Each table has a GM and M-1 players, each
with one authenticated socket; one player per table sends trait checks at R per second as the
table page does: a command over that player's socket (--over socket, the default: as the page
sends it when its socket is open), or an htmx POST with a fresh idempotency key (--over http).
The tables' first rolls are spread evenly over one interval. The roll's id comes back in
the answer and matches the entries arriving on the sockets, which may come first. With --chat
only the roller says a line through the composer instead of each roll (rolls/talk/services.py: a
message in the log, numbered and pushed as a roll is), and with --chat beside every other roll is
a line said. With --events the GM posts spotlight moves and countdown marks instead, alternately,
R a second per table (tests/benchmarks/table_events.py); with --scene a figure's move and a
card shown to everyone, alternately (tests/benchmarks/scene_events.py). With --events,
--scene or --floor the same
sockets and load then run on a plain websockets broadcast server
(tests/benchmarks/broadcast_floor.py), the floor, and both are reported; then, unless
--no-stack-floor, on daphne and Channels with no Django work (tests/benchmarks/stack_floor.py),
the stack floor, and the run ends with FudgeTable's CPU per roll or event divided by it: a ratio
read from one sitting, since the machine's speed drifts between sittings. For every
roll or event and every socket of its table it times sent -> frame arrived, and reports
p50/p95/p99/max, losses (nothing there 5 s after it was sent), throughput, the server's CPU and
memory sampled every second, and its CPU time per roll or event. Loopback only; it stops by
itself. --py-spy (`pip install --target DIR py-spy`) records the server under load: a flame
graph, or folded stacks for a .txt output; --gc-log logs its collector's passes
(tests/benchmarks/collector) and reports those of the load. Not collected by pytest;
docs/performance.md has its figures.
"""

import argparse
import asyncio
import contextlib
import json
import os
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import httpx
import psycopg
import redis
from psycopg import sql
from websockets.asyncio.client import ClientConnection

from tests.benchmarks import broadcast_floor, load, scene_events, table_events
from tests.benchmarks.load import Samples, Table
from tests.e2e.server import ROOT, AppServer, free_port

ENTRY = re.compile(r'id="roll-([\w-]{22})"')
SENT = re.compile(r'data-sent="([\w-]{22})"')  # the composer's answer names the entry it made
ADMIN_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/postgres"

# Sessions are written straight into the session table (as a login would write them), so 800
# people need no 800 password hashes; the sockets and POSTs then authenticate as usual. A seed
# for a server (``AppServer.python``) that starts with this defines ``session_for(user)``.
SESSION_FOR = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY

def session_for(user):
    store = import_module(settings.SESSION_ENGINE).SessionStore()
    store[SESSION_KEY] = str(user.pk)
    store[BACKEND_SESSION_KEY] = "fudgetable.auth_backend.PersonByKeyBackend"
    store[HASH_SESSION_KEY] = user.get_session_auth_hash()
    store.create()
    return store.session_key
"""
SEED = (
    SESSION_FOR
    + """
import json
from django.contrib.auth.hashers import make_password
from django.contrib.auth.models import User
from django.db import transaction
from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.services import character_create

TABLES, SOCKETS = {tables}, {sockets}

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
"""
)
PRINT = "\nprint(json.dumps(tables))\n"


@contextlib.contextmanager
def _scaled_services(url: str) -> Iterator[dict[str, str]]:
    """A PostgreSQL database and a Redis database of the benchmark's own, empty, removed after
    it: the environment of scaled mode's processes."""
    name = f"fudgetable_bench_{os.getpid()}"
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
    with psycopg.connect(url, autocommit=True) as admin:
        admin.execute(drop)
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    redis_url = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/3")
    layer = redis.Redis.from_url(redis_url)
    layer.flushdb()
    parts = urlsplit(url)
    try:
        yield {"DATABASE_URL": parts._replace(path=f"/{name}").geturl(), "REDIS_URL": redis_url}
    finally:
        layer.flushdb()
        layer.close()
        with psycopg.connect(url, autocommit=True) as admin:
            admin.execute(drop)


def _start_servers(
    workdir: Path, *, debug: bool, count: int, scaled: dict[str, str], gc_log: str | None
) -> list[AppServer]:
    """``count`` daphne processes: on the embedded default (one process), or on the
    ``scaled`` environment's PostgreSQL and Redis; ``gc_log`` logs their collector's passes."""
    collector = {}
    if gc_log:
        collector = {
            "PYTHONPATH": str(ROOT / "tests" / "benchmarks" / "collector"),
            "FUDGETABLE_GC_LOG": str(Path(gc_log).resolve()),
        }
    env = {
        "SQLITE_PATH": str(workdir / "bench.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "DEBUG": "1" if debug else "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
        **scaled,
        **collector,
    }
    servers = [AppServer(workdir, **env) for _ in range(count)]
    servers[0].manage("migrate", "--no-input", "-v", "0")
    if not debug:  # production mode serves static files from their manifest
        servers[0].manage("collectstatic", "--no-input", "-v", "0")
    return servers


def _server_for(servers: list[AppServer], table: Table, index: int = 0) -> AppServer:
    """Which process a table's socket ``index`` talks to (its POSTs go to that of index 0):
    a table's sockets are spread over the processes, so its pushes cross between them."""
    return servers[(table.campaign + index) % len(servers)]


def _match_rolls(table: Table, index: int, frame: str, now: float) -> None:
    """Notes when each roll's entry first reaches socket ``index``."""
    found = ENTRY.findall(frame)
    for pk in found:
        table.arrived.setdefault((index, pk), now)
    if found:
        table.frame_bytes.append(len(frame.encode()))


async def _post_roll(
    http: httpx.AsyncClient,
    table: Table,
    number: int,
    csrf: str,
    samples: Samples,
    *,
    chat: bool = False,
) -> None:
    """A roll posted as the roll form posts it, or (``chat``) a line said in the composer."""
    data = _message_form(table, number) if chat else _roll_form(table, number)
    path = "say" if chat else "roll"
    headers = {
        "Cookie": f"sessionid={table.sessions[-1]}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
    }
    start = time.perf_counter()
    try:
        response = await http.post(
            f"/campaigns/{table.campaign}/table/{path}/", data=data, headers=headers
        )
    except httpx.HTTPError as error:
        samples.post_errors.append(f"{type(error).__name__}: {error}")
        return
    samples.post_ms.append((time.perf_counter() - start) * 1000)
    made = (SENT if chat else ENTRY).search(response.text)
    if response.status_code != 200 or made is None:
        samples.post_errors.append(f"{response.status_code}: {response.text[:200]}")
        return
    table.posted[made.group(1)] = start


def _roll_form(table: Table, number: int) -> dict[str, str]:
    return {
        "kind": "check",
        "character": str(table.hero),
        "trait": str(table.trait),
        "modifiers": "",
        "key": f"bench-{table.campaign}-{number}-{secrets.token_hex(4)}",
    }


def _message_form(table: Table, number: int) -> dict[str, str]:
    """A line of table talk as long as most are, with a little markup and a mention."""
    return {
        "line": f"Line {number}: I *edge* along the wall and listen at the door, @t{number}-u0",
        "key": f"bench-say-{table.campaign}-{number}-{secrets.token_hex(4)}",
    }


async def _send(
    socket: ClientConnection, table: Table, number: int, path: str, form: dict[str, str]
) -> None:
    """A POST as the table page sends it with its socket open (live.js): one socket message,
    answered on the same socket."""
    body = urlencode(form)
    command = {"id": number, "path": path, "body": body, "headers": {"HX-Request": "true"}}
    table.commands[number] = time.perf_counter()
    await socket.send(json.dumps({"command": command}))


async def _send_roll(
    socket: ClientConnection, table: Table, number: int, *, chat: bool = False
) -> None:
    if chat:
        path = f"/campaigns/{table.campaign}/table/say/"
        await _send(socket, table, number, path, _message_form(table, number))
        return
    path = f"/campaigns/{table.campaign}/table/roll/"
    await _send(socket, table, number, path, _roll_form(table, number))


async def _send_event(socket: ClientConnection, table: Table, number: int) -> None:
    path, form = table_events.command(table, number)
    table_events.note(table, number, time.perf_counter())
    await _send(socket, table, number, path, form)


async def _send_scene_event(socket: ClientConnection, table: Table, number: int) -> None:
    path, form = scene_events.command(table, number)
    scene_events.note(table, number, time.perf_counter())
    await _send(socket, table, number, path, form)


def _match_answers(samples: Samples, match: load.Matcher, *, rolls: bool) -> load.Matcher:
    """``match`` for the pushes; a command's answer gives its time and, for a roll, the roll
    it made (an event was noted as it left)."""

    def matching(table: Table, index: int, frame: str, now: float) -> None:
        if not frame.startswith('{"answer"'):
            match(table, index, frame, now)
            return
        answer = json.loads(frame)
        start = table.commands.pop(answer["answer"], None)
        made = ENTRY.search(answer["body"]) or SENT.search(answer["body"])
        if start is None or answer["status"] not in (200, 204) or (rolls and made is None):
            samples.post_errors.append(f"{answer['status']}: {answer['body'][:200]}")
            return
        samples.post_ms.append((now - start) * 1000)
        if rolls and made is not None:
            table.posted[made.group(1)] = start

    return matching


async def _fudgetable(
    args: argparse.Namespace, servers: list[AppServer], tables: list[Table]
) -> tuple[int, float]:
    """The load on FudgeTable; returns the mean size of the frames that brought it, and the
    servers' CPU per roll or event (ms)."""
    pids = [server.process.pid for server in servers if server.process]
    opened = time.perf_counter()

    def address(table: Table, session: str) -> str:
        server = _server_for(servers, table, table.sessions.index(session))
        return f"ws://127.0.0.1:{server.port}/ws/campaigns/{table.campaign}/"

    sockets = await load.open_sockets(tables, args.opening, address, state=True)
    print(f"{len(sockets)} sockets open with their state in {time.perf_counter() - opened:.1f} s")
    csrf = secrets.token_hex(16)  # any 32-character secret, sent as cookie and header alike
    limits = httpx.Limits(max_connections=len(tables), max_keepalive_connections=len(tables))
    samples = Samples()
    async with contextlib.AsyncExitStack() as stack:
        clients = {
            server.port: await stack.enter_async_context(
                httpx.AsyncClient(base_url=server.url, limits=limits, timeout=30, trust_env=False)
            )
            for server in servers
        }
        # Each table's sockets are opened in its sessions' order: the GM's first, the roller's
        # last; the one that sends over the socket.
        gm_sends = args.events or args.scene
        first = 0 if gm_sends else args.sockets - 1
        sender = {t.campaign: sockets[i * args.sockets + first] for i, t in enumerate(tables)}
        if args.events:
            post, match, send = table_events.post, table_events.match, _send_event
        elif args.scene:
            post, match, send = scene_events.post, scene_events.match, _send_scene_event
        else:
            post, match, send = _post_roll, _match_rolls, _send_roll
        if args.over == "socket":
            match = _match_answers(samples, match, rolls=not gm_sends)

        def says(number: int) -> bool:
            return args.chat == "only" or (args.chat == "beside" and number % 2 == 1)

        def fire(table: Table, number: int) -> Awaitable[None]:
            if args.chat != "off":
                if args.over == "socket":
                    return _send_roll(sender[table.campaign], table, number, chat=says(number))
                client = clients[_server_for(servers, table).port]
                return _post_roll(client, table, number, csrf, samples, chat=says(number))
            if args.over == "socket":
                return send(sender[table.campaign], table, number)
            return post(clients[_server_for(servers, table).port], table, number, csrf, samples)

        loaded_from = time.time()
        title = "live table"
        if args.scaled:
            title += f" ({len(servers)} processes, scaled, {args.layer} layer)"
        if args.chat != "off":
            title += ", lines said instead of rolls" if args.chat == "only" else ", talk beside"
        cost = await load.measure(
            f"{title}, commands over {args.over}",
            args,
            pids,
            tables,
            sockets,
            samples,
            match,
            fire,
            with_services=bool(args.scaled),
        )
    if args.gc_log:
        _collector_report(args.gc_log, pids, loaded_from, time.time())
    sizes = [size for table in tables for size in table.frame_bytes]
    return (int(statistics.mean(sizes)) if sizes else 0), cost


def _collector_report(path: str, pids: list[int], start: float, end: float) -> None:
    """The servers' collector passes between ``start`` and ``end``, by generation."""
    passes: dict[int, list[float]] = {0: [], 1: [], 2: []}
    for pid in pids:
        with open(f"{path}.{pid}") as log:
            for line in log:
                at, generation, milliseconds, _ = line.split()
                if start <= float(at) <= end:
                    passes[int(generation)].append(float(milliseconds))
    for generation, name in enumerate(("young", "middle", "full")):
        took = passes[generation]
        if took:
            print(
                f"collector, {name} passes during the load: {len(took)}, mean "
                f"{statistics.mean(took):.1f} ms, max {max(took):.1f} ms, {sum(took):.0f} ms in all"
            )
        else:
            print(f"collector, {name} passes during the load: none")


FLOORS = {
    "broadcast floor": "tests.benchmarks.broadcast_floor",
    "stack floor": "tests.benchmarks.stack_floor",
}


async def _floor(
    args: argparse.Namespace, tables: list[Table], size: int, name: str = "broadcast floor"
) -> float:
    """The same sockets and events on a floor: a plain websockets broadcast server, or the
    same broadcast through daphne and Channels (``FLOORS``); returns its CPU per event (ms)."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", FLOORS[name], str(port)],
        cwd=ROOT,
        env={
            **os.environ,
            "SQLITE_PATH": os.devnull,  # nothing is read or written: the settings want one
            "DEBUG": "1" if args.debug else "0",
            "SECRET_KEY": secrets.token_urlsafe(64),
            "ALLOWED_HOSTS": "127.0.0.1",
        },
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        await _listening(port, process)
        floor_tables = [
            # After rolls (--floor) there are no PCs to name: the floor's words need one.
            Table(t.campaign, 0, 0, t.sessions, pcs=t.pcs or [[0, "Hero"]], countdown=t.countdown)
            for t in tables
        ]
        sockets = await load.open_sockets(
            floor_tables,
            args.opening,
            lambda table, _: f"ws://127.0.0.1:{port}/table/{table.campaign}",
            state=False,
        )
        gm_socket = {t.campaign: sockets[i * args.sockets] for i, t in enumerate(floor_tables)}
        print(f"{name}: frames padded to {size} bytes, FudgeTable's mean")
        return await load.measure(
            name,
            args,
            [process.pid],
            floor_tables,
            sockets,
            Samples(),
            table_events.match,
            lambda table, number: broadcast_floor.send_event(
                gm_socket[table.campaign], table, number, size
            ),
            profile=False,  # --py-spy is for FudgeTable
        )
    finally:
        process.terminate()
        process.wait(timeout=10)


async def _listening(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the floor's server exited early ({process.returncode})")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        return
    raise RuntimeError(f"the floor's server did not listen on {port} within 30 s")


async def _run(args: argparse.Namespace, servers: list[AppServer], tables: list[Table]) -> None:
    size, cost = await _fudgetable(args, servers, tables)
    if args.events or args.scene or args.floor or args.stack_floor:
        for server in servers:  # the floor gets the machine to itself, as FudgeTable had
            server.stop()
    if args.events or args.scene or args.floor:
        await _floor(args, tables, size)
    if args.stack_floor:
        floor = await _floor(args, tables, size, "stack floor")
        what = "event" if args.events or args.scene else "roll"
        print(
            f"same sitting: CPU per {what} {cost:.2f} ms, stack floor {floor:.2f} ms an event, "
            f"ratio {cost / max(floor, 1e-9):.1f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--sockets", type=int, default=8, help="per table: a GM and M-1 players")
    parser.add_argument(
        "--rate", type=float, default=0.5, help="rolls (or events) per second per table"
    )
    parser.add_argument(
        "--events",
        action="store_true",
        help="the GM moves the spotlight and marks a countdown, alternately, instead of rolls; "
        "then the same load on a plain websockets broadcast server, the floor",
    )
    parser.add_argument(
        "--scene",
        action="store_true",
        help="the GM moves a figure and shows a card, alternately, instead of rolls "
        "(tests/benchmarks/scene_events.py); then the same load on the broadcast floor",
    )
    parser.add_argument(
        "--over",
        choices=["socket", "http"],
        default="socket",
        help="how the rolls (or events) are sent: an HTTP POST each, or over the roller's (the "
        "GM's) socket as the table page sends them when its socket is open",
    )
    parser.add_argument(
        "--chat",
        choices=["off", "only", "beside"],
        default="off",
        help="the roller says lines in the composer instead of rolling (only), or every other "
        "time (beside)",
    )
    parser.add_argument(
        "--floor",
        action="store_true",
        help="after the rolls, the same sockets and load on a plain websockets broadcast server",
    )
    parser.add_argument(
        "--stack-floor",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="then the same load on daphne and Channels with no Django work (stack_floor.py), "
        "and the ratio to it (on by default; --no-stack-floor leaves it out)",
    )
    parser.add_argument("--duration", type=float, default=60, help="seconds of posting")
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    parser.add_argument(
        "--scaled",
        type=int,
        default=0,
        metavar="N",
        help="N daphne processes on PostgreSQL and Redis (BENCH_DATABASE_URL, default "
        "postgres://postgres@127.0.0.1:5432/postgres; BENCH_REDIS_URL, default "
        "redis://127.0.0.1:6379/3) instead of one on the embedded default",
    )
    parser.add_argument(
        "--layer",
        choices=["core", "pubsub"],
        default="core",
        help="--scaled: channels-redis's RedisChannelLayer (core) or RedisPubSubChannelLayer",
    )
    parser.add_argument(
        "--capacity",
        type=int,
        default=0,
        help="messages a socket's channel holds (CHANNEL_CAPACITY; 0: the default, 100)",
    )
    parser.add_argument("--opening", type=int, default=20, help="sockets opened at once")
    parser.add_argument("--py-spy", help="path to py-spy: record the server during the load")
    parser.add_argument(
        "--profile-out",
        default="live_table.svg",
        help="py-spy's flame graph (.svg) or its folded stacks (.txt)",
    )
    parser.add_argument("--server-log", help="copy the server's log here at the end")
    parser.add_argument(
        "--gc-log",
        help="log the server's collector passes to GC_LOG.<pid> and report those of the load",
    )
    parser.add_argument(
        "--timeline", help="a CSV per run (name-<run>.csv): each roll or event's times"
    )
    args = parser.parse_args()
    if not (1 <= args.tables <= 500 and 2 <= args.sockets <= 50 and 0 < args.rate <= 10):
        parser.error("keep to 1-500 tables, 2-50 sockets per table and at most 10 a second")
    if not 1 <= args.duration <= 600:
        parser.error("--duration is 1 to 600 seconds")

    if args.chat != "off" and args.events:
        parser.error("--chat takes the place of rolls; --events of both")
    if not 0 <= args.scaled <= 8:
        parser.error("--scaled is 1 to 8 processes (0: one on the embedded default)")

    with contextlib.ExitStack() as stack:
        workdir = Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="fudgetable-live-")))
        scaled = {}
        if args.scaled:
            admin_url = os.environ.get("BENCH_DATABASE_URL", ADMIN_DATABASE_URL)
            scaled = stack.enter_context(_scaled_services(admin_url))
            scaled["CHANNEL_LAYER"] = args.layer
        if args.capacity:
            scaled["CHANNEL_CAPACITY"] = str(args.capacity)
        servers = _start_servers(
            workdir,
            debug=args.debug,
            count=max(args.scaled, 1),
            scaled=scaled,
            gc_log=args.gc_log,
        )
        seed = SEED.format(tables=args.tables, sockets=args.sockets)
        if args.events:
            seed += table_events.SEED
        if args.scene:
            seed += scene_events.seed(cards=int(args.rate * args.duration) // 2 + 5)
        printed = servers[0].python(seed + PRINT)
        seeded = json.loads(printed.strip().splitlines()[-1])
        tables = [Table(**row) for row in seeded]
        try:
            for server in servers:
                server.start()
            asyncio.run(_run(args, servers, tables))
        finally:
            for server in servers:
                server.stop()
            if args.server_log:
                shutil.copyfile(servers[0].log, args.server_log)


if __name__ == "__main__":
    main()
