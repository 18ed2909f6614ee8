"""The live-table benchmark's machinery: sockets opened and listened on, a load fired on an
even schedule, the server's CPU and memory sampled, and the report. What is sent and what a
frame means come from the caller (rolls in live_table.py, GM events in table_events.py, the
broadcast floor in broadcast_floor.py)."""

import argparse
import asyncio
import contextlib
import gc
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psutil
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import WebSocketException
from websockets.typing import Origin

LOSS_SECONDS = 5.0
OPEN_ATTEMPTS = 5
Matcher = Callable[["Table", int, str, float], None]
Fire = Callable[["Table", int], Awaitable[None]]


@dataclass
class Table:
    campaign: int
    hero: int
    trait: int
    sessions: list[str]  # the GM's first; the last one is the roller's
    pcs: list[list[Any]] = field(default_factory=list)  # --events: [pk, name] per player
    countdown: int = 0  # --events: the table's countdown
    scene: dict[str, Any] = field(default_factory=dict)  # --scene: its areas, figures, cards
    # roll pk or event key -> POST start; (socket index, key) -> arrival (perf_counter s)
    posted: dict[Hashable, float] = field(default_factory=dict)
    arrived: dict[tuple[int, Hashable], float] = field(default_factory=dict)
    awaiting: dict[str, list[Hashable]] = field(default_factory=dict)  # words -> events
    frame_bytes: list[int] = field(default_factory=list)  # of the frames that brought events
    commands: dict[int, float] = field(default_factory=dict)  # --over socket: id -> sent at


@dataclass
class Samples:
    server_cpu: list[float] = field(default_factory=list)
    server_rss: list[int] = field(default_factory=list)
    client_cpu: list[float] = field(default_factory=list)
    post_ms: list[float] = field(default_factory=list)
    post_errors: list[str] = field(default_factory=list)
    server_cpu_seconds: float = 0.0  # user + system time the server spent under the load
    services_cpu: list[float] = field(default_factory=list)  # --scaled: PostgreSQL and Redis


async def listen(table: Table, index: int, socket: ClientConnection, match: Matcher) -> None:
    with contextlib.suppress(Exception):
        async for frame in socket:
            match(table, index, str(frame), time.perf_counter())


async def open_sockets(
    tables: list[Table], opening: int, address: Callable[[Table, str], str], *, state: bool
) -> list[ClientConnection]:
    """Every socket, opened ``opening`` at a time; each one has had its whole table state on
    return (``state``: FudgeTable's sockets get one; the broadcast floor's do not)."""
    gate = asyncio.Semaphore(opening)

    async def open_one(table: Table, session: str) -> ClientConnection:
        url = address(table, session)
        async with gate:
            for attempt in range(OPEN_ATTEMPTS):
                try:
                    socket = await connect(
                        url,
                        origin=Origin(f"http://{urlsplit(url).netloc}"),
                        additional_headers={"Cookie": f"sessionid={session}"},
                        compression=None,
                        proxy=None,
                        open_timeout=30,
                        max_queue=None,
                    )
                    while state and 'id="roll-log"' not in str(
                        await asyncio.wait_for(socket.recv(), 30)
                    ):
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


async def fire_load(tables: list[Table], rate: float, duration: float, fire: Fire) -> float:
    """Fires every table's rolls or events on an even schedule: table i starts i/(T·R) s in,
    then one each 1/R s. Returns the seconds the schedule took."""
    per_table = max(1, int(duration * rate))
    schedule = sorted(
        (i / (len(tables) * rate) + n / rate, i, n)
        for i in range(len(tables))
        for n in range(per_table)
    )
    fired = []
    began = time.perf_counter()
    for offset, i, n in schedule:
        delay = began + offset - time.perf_counter()
        if delay > 0:
            await asyncio.sleep(delay)
        fired.append(asyncio.create_task(fire(tables[i], n)))
    await asyncio.gather(*fired)
    return time.perf_counter() - began


def services() -> list[psutil.Process]:
    """PostgreSQL's and Redis's processes, whose CPU the scaled mode's load also costs."""
    return [
        process
        for process in psutil.process_iter(["name"])
        if process.info["name"] in {"postgres", "redis-server"}
    ]


def _cpu_seconds(processes: list[psutil.Process]) -> float:
    total = 0.0
    for process in processes:
        with contextlib.suppress(psutil.NoSuchProcess):
            times = process.cpu_times()
            total += times.user + times.system
    return total


async def sample(
    pids: list[int], samples: Samples, stop: asyncio.Event, *, with_services: bool
) -> None:
    """Once a second: the servers' CPU (summed over their processes) and memory, the load
    script's CPU and, with ``with_services``, PostgreSQL's and Redis's CPU."""
    servers, client = [psutil.Process(pid) for pid in pids], psutil.Process()
    helpers = services() if with_services else []
    for process in [*servers, *helpers, client]:
        with contextlib.suppress(psutil.NoSuchProcess):
            process.cpu_percent()
    began = _cpu_seconds(servers)
    while not stop.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 1)
        samples.server_cpu.append(sum(server.cpu_percent() for server in servers))
        samples.server_rss.append(sum(server.memory_info().rss for server in servers))
        samples.client_cpu.append(client.cpu_percent())
        if helpers:
            busy = 0.0
            for helper in helpers:
                with contextlib.suppress(psutil.NoSuchProcess):
                    busy += helper.cpu_percent()
            samples.services_cpu.append(busy)
    samples.server_cpu_seconds = _cpu_seconds(servers) - began


def percentile(values: list[float], p: int) -> float:
    return (
        statistics.quantiles(values, n=100, method="inclusive")[p - 1]
        if len(values) > 1
        else values[0]
    )


def _timeline(path: Path, title: str, tables: list[Table]) -> None:
    """One CSV row per roll or event: seconds into the run it was sent, then its slowest and
    fastest socket in ms (empty when lost). Late rolls bunched in time point at a pause."""
    starts = [start for table in tables for start in table.posted.values()]
    first = min(starts, default=0.0)
    rows = []
    for table in tables:
        for key, start in table.posted.items():
            waits = [
                (table.arrived[(index, key)] - start) * 1000
                for index in range(len(table.sessions))
                if (index, key) in table.arrived
            ]
            slowest = f"{max(waits):.1f}" if waits else ""
            fastest = f"{min(waits):.1f}" if waits else ""
            rows.append((start - first, slowest, fastest))
    name = path.with_stem(f"{path.stem}-{title.replace(' ', '-')}")
    lines = ["sent_s,slowest_ms,fastest_ms"] + [f"{t:.3f},{s},{f}" for t, s, f in sorted(rows)]
    name.write_text("\n".join(lines) + "\n")


def report(
    title: str,
    args: argparse.Namespace,
    tables: list[Table],
    samples: Samples,
    took: float,
    rss_before: int,
) -> float:
    """Prints the run's figures; returns the servers' CPU time per roll or event in ms."""
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
    what = "events" if args.events else "rolls"
    mode = "DEBUG=1" if args.debug else "DEBUG=0"
    print(
        f"{title}: {args.tables} tables x {args.sockets} sockets, {args.rate} {what}/s per "
        f"table, {args.duration:.0f} s, {mode}, Python {sys.version.split()[0]}, "
        f"{psutil.cpu_count()} CPUs, load average {psutil.getloadavg()[0]:.2f}"
    )
    print(
        f"{what} sent {rolls} in {took:.1f} s ({rolls / took:.1f}/s), errors "
        f"{len(samples.post_errors)}, frames expected {rolls * args.sockets}, "
        f"delivered {len(latencies)} ({len(latencies) / took:.0f}/s), lost {lost}"
    )
    if latencies:
        print(
            f"sent -> {what[:-1]} on a socket: "
            f"p50 {percentile(latencies, 50):.1f} ms  p95 {percentile(latencies, 95):.1f} ms  "
            f"p99 {percentile(latencies, 99):.1f} ms  max {max(latencies):.1f} ms"
        )
    if samples.post_ms:
        print(
            f"POST answered: p50 {percentile(samples.post_ms, 50):.1f} ms  "
            f"p99 {percentile(samples.post_ms, 99):.1f} ms"
        )
    if samples.server_cpu:
        print(
            f"server CPU mean {statistics.mean(samples.server_cpu):.0f}% max "
            f"{max(samples.server_cpu):.0f}% (100% = one core); RSS with sockets open "
            f"{rss_before / 2**20:.1f} MB, peak {max(samples.server_rss) / 2**20:.1f} MB; "
            f"load client CPU mean {statistics.mean(samples.client_cpu):.0f}%"
        )
        print(
            f"server CPU time per {what[:-1]} "
            f"{samples.server_cpu_seconds / max(rolls, 1) * 1000:.1f} ms"
        )
    if samples.services_cpu:
        print(
            f"PostgreSQL and Redis CPU mean {statistics.mean(samples.services_cpu):.0f}% max "
            f"{max(samples.services_cpu):.0f}%"
        )
    if args.timeline:
        _timeline(Path(args.timeline), title, tables)
    for error in samples.post_errors[:5]:
        print("POST error:", error)
    return samples.server_cpu_seconds / max(rolls, 1) * 1000


def py_spy(args: argparse.Namespace, pid: int) -> subprocess.Popen[bytes] | None:
    if not args.py_spy:
        return None
    return subprocess.Popen(
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
            # Only the thread holding the GIL: one waiting for it after a query (SQLite lets
            # go of the GIL) would otherwise count as busy where it is only waiting.
            "--gil",
            # Sampled without stopping the process, half the stacks came back torn (py-spy's
            # errors) and time landed on the wrong lines; stopping it 40 times a second costs
            # the run a little speed, so a profiled run's latencies are not the figures.
            "--rate",
            "40",
            *(["--format", "raw"] if args.profile_out.endswith(".txt") else []),
        ]
    )


async def measure(
    title: str,
    args: argparse.Namespace,
    pids: list[int],
    tables: list[Table],
    sockets: list[ClientConnection],
    samples: Samples,
    match: Matcher,
    fire: Fire,
    *,
    with_services: bool = False,
    profile: bool = True,
) -> float:
    """Listens on every socket while ``fire`` sends the load to the server processes
    ``pids``, then reports, and returns the servers' CPU time per roll or event in ms;
    ``with_services`` samples PostgreSQL's and Redis's CPU too, and
    ``profile`` lets --py-spy record the first process."""
    # The script's own collector must not stop the clock: its sockets are long-lived objects.
    gc.freeze()
    listeners = [
        asyncio.create_task(listen(table, index, sockets[t * args.sockets + index], match))
        for t, table in enumerate(tables)
        for index in range(args.sockets)
    ]
    await asyncio.sleep(2)  # the presence updates the connections set off die down
    rss_before = sum(psutil.Process(pid).memory_info().rss for pid in pids)
    stop = asyncio.Event()
    sampler = asyncio.create_task(sample(pids, samples, stop, with_services=with_services))
    spy = py_spy(args, pids[0]) if profile else None

    async def fire_noting_errors(table: Table, number: int) -> None:
        try:
            await fire(table, number)
        except (OSError, WebSocketException) as error:
            samples.post_errors.append(f"{type(error).__name__}: {error}")

    took = await fire_load(tables, args.rate, args.duration, fire_noting_errors)
    await asyncio.sleep(LOSS_SECONDS)  # stragglers
    stop.set()
    await sampler
    if spy:
        spy.wait(timeout=60)
    for socket in sockets:
        await socket.close()
    for listener in listeners:
        listener.cancel()
    gc.unfreeze()
    return report(title, args, tables, samples, took, rss_before)
