"""What the in-process benchmarks share: Django on a throwaway SQLite file, in production
mode (DEBUG=0) unless asked for the development default, so nothing touches db.sqlite3."""

import cProfile
import os
import pstats
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # Django's modules are imported only once the environment is set
    from django.http.response import HttpResponseBase


def start_django(workdir: Path, *, debug: bool) -> None:
    """Sets the environment fudgetable.settings reads, then migrates and (production mode
    needs their manifest) collects static files."""
    os.environ["SQLITE_PATH"] = str(workdir / "bench.sqlite3")
    os.environ["STATIC_ROOT"] = str(workdir / "static")
    os.environ["DJANGO_SETTINGS_MODULE"] = "fudgetable.settings"
    os.environ["DEBUG"] = "1" if debug else "0"
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ["SECRET_KEY"] = "benchmark-only-" + "x" * 50
    os.environ["LOG_LEVEL"] = "WARNING"
    os.environ.pop("DATABASE_URL", None)
    os.environ.pop("REDIS_URL", None)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    if not debug:
        call_command("collectstatic", interactive=False, verbosity=0)


def table_of_players(players: int) -> tuple[Any, Any, list[Any]]:
    """A GM's campaign with ``players`` players, each with a PC: (gm, campaign, pcs)."""
    from django.contrib.auth import get_user_model

    from campaigns.models import Membership
    from campaigns.services import campaign_create, membership_add
    from characters.services import character_create

    users = get_user_model().objects
    gm = users.create_user("bench-gm")
    campaign = campaign_create(owner=gm, name="Benchmark")
    pcs = []
    for number in range(players):
        player = users.create_user(f"bench-player-{number}")
        membership_add(campaign=campaign, user=player, role=Membership.Role.PLAYER)
        pcs.append(character_create(campaign=campaign, owner=player, name=f"Hero {number}"))
    return gm, campaign, pcs


def expect(response: "HttpResponseBase", status: int, what: str) -> None:
    code = response.status_code
    if code != status:
        sys.exit(f"{what} answered {code}, not {status}")


def mode(debug: bool) -> str:
    return f"{'DEBUG=1' if debug else 'DEBUG=0'}, Python {sys.version.split()[0]}"


def timed(call: Callable[[], None], requests: int) -> list[float]:
    """Milliseconds of each of ``requests`` calls."""
    times = []
    for _ in range(requests):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return times


def summary(times: list[float], queries: int, per: str) -> str:
    p95 = statistics.quantiles(times, n=100, method="inclusive")[94]
    return (
        f"median {statistics.median(times):.1f} ms  p95 {p95:.1f} ms  "
        f"min {min(times):.1f} ms  queries per {per} {queries}"
    )


def query_count(call: Callable[[], None]) -> int:
    """The database queries one call makes."""
    from django.db import connection

    count = 0

    def counted(execute: Any, sql: str, params: Any, many: bool, context: Any) -> Any:
        nonlocal count
        count += 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(counted):
        call()
    return count


def time_each(calls: dict[str, Callable[[], None]], requests: int, per: str) -> None:
    """Prints each call's times over ``requests`` runs and its queries, after warming up."""
    for name, call in calls.items():
        for _ in range(10):  # warm caches: templates, URL resolver, the ruleset
            call()
        queries = query_count(call)
        print(f"{name:6} {summary(timed(call, requests), queries, per)}")


def print_profile(call: Callable[[], None], calls: int) -> None:
    """A cProfile summary of ``calls`` more calls: by cumulative time, then by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    for _ in range(calls):
        call()
    profiler.disable()
    stats = pstats.Stats(profiler).strip_dirs().sort_stats("cumulative")
    stats.print_stats(40)
    stats.sort_stats("tottime").print_stats(20)


def poster(user: Any, *, over: str) -> Callable[[str, dict[str, object]], None]:
    """A POST as the table page sends it for ``user``: over HTTP through Django's test client
    (middleware and all, as htmx posts it), or ``over="socket"`` as the table's socket runs a
    command (``fudgetable.socket_commands``: the same view, without what the socket settled
    at its handshake). Either way without a network: the server's own time for the command."""
    import json
    from urllib.parse import urlencode

    from django.contrib.sessions.backends.cached_db import SessionStore
    from django.test import Client

    from fudgetable import socket_commands

    client = Client()
    client.force_login(user)
    scope = {
        "headers": [(b"host", b"testserver")],
        "server": ("testserver", 443),
        "client": ("127.0.0.1", 50000),
        "cookies": {},
        "user": user,
        "session": SessionStore(session_key=client.cookies["sessionid"].value),
    }

    def over_http(url: str, data: dict[str, object]) -> None:
        # secure=True: production mode redirects plain HTTP to HTTPS.
        response = client.post(url, data, secure=True, headers={"HX-Request": "true"})
        expect(response, 200, f"POST {url}")

    def over_socket(url: str, data: dict[str, object]) -> None:
        body = urlencode({name: str(value) for name, value in data.items()})
        command = socket_commands.Command(1, url, body, {"HX-Request": "true"})
        # Its pushes held, as the table's socket holds them for the event loop to send: nobody
        # listens here, and the loop's share is the live table's to measure.
        sent, _ = socket_commands.run(command, scope, allowed=lambda match: True, held=[])
        answer = json.loads(sent)
        if answer["status"] not in (200, 204):  # 204: its push draws what it changed
            sys.exit(f"command {url} answered {answer['status']}: {answer['body'][:200]}")

    return over_socket if over == "socket" else over_http


def add_over(parser: Any) -> None:
    parser.add_argument(
        "--over",
        choices=["http", "socket"],
        default="http",
        help="as an HTTP POST (default), or as a command over the table's socket",
    )
