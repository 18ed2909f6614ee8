"""With REDIS_URL set, table events cross processes: a roll posted through one daphne reaches a
socket connected to another, the two sharing PostgreSQL and Redis. Each process keeps a pool of
PostgreSQL connections rather than opening one per request.

It runs in the test command's second pass (DATABASE_URL and REDIS_URL set) and is skipped
otherwise. The daphnes use a throwaway database of their own, not pytest's test database, and
REDIS_URL's database, the test pass's own, emptied before and after.
"""

import contextlib
import json
import os
import re
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import httpx
import psycopg
import pytest
import redis
from django.urls import reverse
from psycopg import sql
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.e2e.server import AppServer

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
        reason="needs DATABASE_URL and REDIS_URL (the test command's second pass sets both)",
    ),
]

PASSWORD = "a-long-fudge-phrase"
SEED = f"""
import json
from django.contrib.auth.models import User
from campaigns.models import Membership
from campaigns.services import campaign_create, membership_add
from characters.services import character_create

gm = User.objects.create_user("xproc-gm", password={PASSWORD!r})
player = User.objects.create_user("xproc-player", password={PASSWORD!r})
campaign = campaign_create(owner=gm, name="Two Lighthouses")
membership_add(campaign=campaign, user=player, role=Membership.Role.PLAYER)
hero = character_create(campaign=campaign, owner=player, name="Louie")
trait = hero.traits.order_by("position").first()
print(json.dumps({{"campaign": campaign.pk, "hero": hero.pk, "trait": trait.pk,
                  "trait_name": trait.name}}))
"""


def _with_path(url: str, path: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, path, parts.query, parts.fragment))


@pytest.fixture
def database_url() -> Iterator[str]:
    """A PostgreSQL database made for this test and dropped after it, whatever happens."""
    admin_url = os.environ["DATABASE_URL"]
    name = sql.Identifier(f"fudgetable_xproc_{os.getpid()}")
    # FORCE ends the connections a daphne left open, so the drop never waits on them.
    drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(name)
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(drop)
        admin.execute(sql.SQL("CREATE DATABASE {}").format(name))
    try:
        yield _with_path(admin_url, f"/fudgetable_xproc_{os.getpid()}")
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(drop)


@pytest.fixture
def redis_url() -> Iterator[str]:
    """REDIS_URL's database, empty before and after. It was database 2 whatever REDIS_URL
    said, and so emptied another run's when runs shared one Redis; the one a run is given
    is its own."""
    url = os.environ["REDIS_URL"]
    client = redis.Redis.from_url(url)
    client.flushdb()
    try:
        yield url
    finally:
        client.flushdb()
        client.close()


@contextlib.contextmanager
def _servers(tmp_path: Path, **env: str) -> Iterator[list[AppServer]]:
    """Two daphnes sharing ``env``'s PostgreSQL and Redis, stopped afterwards."""
    servers = [AppServer(tmp_path, **env), AppServer(tmp_path, **env)]
    try:
        servers[0].manage("migrate", "--no-input", "-v", "0")
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def two_servers(tmp_path: Path, database_url: str, redis_url: str) -> Iterator[list[AppServer]]:
    with _servers(tmp_path, DATABASE_URL=database_url, REDIS_URL=redis_url) as servers:
        yield servers


def _table_token(http: httpx.Client, campaign_id: int) -> str:
    """The CSRF token of the table page, as its roll form posts it."""
    page = http.get(reverse("rolls:table", args=[campaign_id]))
    assert page.status_code == 200
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text)
    assert token, "the table page has no CSRF token"
    return token.group(1)


@contextlib.contextmanager
def _player_at(server: AppServer) -> Iterator[tuple[httpx.Client, dict, str]]:
    """The seeded table's player, logged in on ``server``: the client, the seed, and the CSRF
    token the table page's forms post with."""
    seeded = json.loads(server.python(SEED).strip().splitlines()[-1])
    with httpx.Client(base_url=server.url, timeout=30, trust_env=False) as http:
        _log_in(http, "xproc-player")
        yield http, seeded, _table_token(http, seeded["campaign"])


def _roll(http: httpx.Client, seeded: dict, token: str, key: str) -> str:
    """A trait check posted as the table page's roll form posts it; the new roll's id."""
    response = http.post(
        reverse("rolls:roll", args=[seeded["campaign"]]),
        data={
            "kind": "check",
            "character": seeded["hero"],
            "trait": seeded["trait"],
            "modifiers": "",
            "key": key,
            "csrfmiddlewaretoken": token,
        },
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 200, response.text
    made = re.search(r'id="roll-([\w-]{22})"', response.text)
    assert made, "process A answered without the new roll"
    return made.group(1)


def _socket(server: AppServer, campaign_id: int, http: httpx.Client) -> ClientConnection:
    """The logged-in person's table socket on ``server``."""
    return connect(
        f"ws://127.0.0.1:{server.port}/ws/campaigns/{campaign_id}/",
        additional_headers={"Cookie": f"sessionid={http.cookies['sessionid']}"},
        origin=Origin(server.url),
        proxy=None,
        open_timeout=10,
    )


def _log_in(http: httpx.Client, username: str) -> None:
    http.get("/login/")
    response = http.post(
        "/login/",
        data={
            "username": username,
            "password": PASSWORD,
            "csrfmiddlewaretoken": http.cookies["csrftoken"],
        },
    )
    assert response.status_code == 302, response.text


def test_a_roll_posted_to_one_process_reaches_a_socket_on_another(two_servers):
    a, b = two_servers
    with _player_at(a) as (http, seeded, token):
        campaign_id = seeded["campaign"]
        with _socket(b, campaign_id, http) as socket:
            state = ""
            while 'id="roll-log"' not in state:
                state = str(socket.recv(timeout=5))

            made = _roll(http, seeded, token, "cross-process-roll-1")

            entry = f'id="roll-{made}"'
            frames = []
            while not frames or entry not in frames[-1]:
                frames.append(str(socket.recv(timeout=5)))  # TimeoutError fails the test
            assert f"Louie: {seeded['trait_name']}" in frames[-1]


def _sessions_opened(database_url: str) -> int:
    name = urlsplit(database_url).path.lstrip("/")
    with psycopg.connect(os.environ["DATABASE_URL"], autocommit=True) as admin:
        found = admin.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", [name]
        ).fetchone()
    assert found is not None
    return int(found[0])


def test_a_process_reuses_its_pooled_connections(two_servers, database_url):
    a = two_servers[0]
    seeded = json.loads(a.python(SEED).strip().splitlines()[-1])
    table = reverse("rolls:table", args=[seeded["campaign"]])
    with httpx.Client(base_url=a.url, timeout=10, trust_env=False) as http:
        _log_in(http, "xproc-player")
        assert http.get(table).status_code == 200
        before = _sessions_opened(database_url)
        for _ in range(30):
            assert http.get(table).status_code == 200
        # Each request used to open a connection of its own (30 here); the pool holds at most
        # HTTP_CONCURRENCY + 2 = 10, most of them open already.
        assert _sessions_opened(database_url) - before <= 10


@pytest.fixture
def servers_with_tiny_channels(
    tmp_path: Path, database_url: str, redis_url: str
) -> Iterator[list[AppServer]]:
    """``two_servers`` on the core Redis layer (pub/sub, the default, has no capacity) with
    channels that hold two messages each, so a burst overflows them."""
    with _servers(
        tmp_path,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CHANNEL_LAYER="core",
        CHANNEL_CAPACITY="2",
    ) as servers:
        yield servers


BURST = 15
NUMBER = re.compile(r'id="table-seq" data-seq="(\d+)"')
ROLL_ID = re.compile(r'<li id="roll-([\w-]{22})"')
# A drop with no event after it is caught by B's heartbeat (rolls.table.consumers, every 30 s).
CONVERGE_SECONDS = 45


def _screen(frames: list[str]) -> tuple[set[str], int]:
    """The rolls a screen shows after ``frames`` (the last table state's log and those pushed
    after it), and the last number it read."""
    last_state = max(i for i, frame in enumerate(frames) if "data-state" in frame)
    shown = {entry for frame in frames[last_state:] for entry in ROLL_ID.findall(frame)}
    numbers = [int(found[1]) for frame in frames if (found := NUMBER.search(frame))]
    return shown, numbers[-1]


def test_a_socket_behind_a_full_channel_converges_to_the_log(servers_with_tiny_channels):
    """Fifteen rolls posted to A, five at a time, while the socket on B reads nothing: Redis
    skips B's full channel without a word, and the socket still ends showing them all."""
    a, b = servers_with_tiny_channels
    with _player_at(a) as (http, seeded, token):
        campaign_id = seeded["campaign"]

        def roll(n: int) -> str:
            return _roll(http, seeded, token, f"cross-process-burst-{n}")

        with _socket(b, campaign_id, http) as socket:
            frames = [str(socket.recv(timeout=5))]
            assert 'id="roll-log"' in frames[0]
            with ThreadPoolExecutor(max_workers=5) as pool:
                made = set(pool.map(roll, range(BURST)))
            table = (
                f"from fudgetable import live; print(live.current_seq({campaign_id}, 'everyone'))"
            )
            last = int(a.python(table).strip().splitlines()[-1])
            assert len(made) == BURST and last >= BURST

            deadline = time.monotonic() + CONVERGE_SECONDS
            while _screen(frames) != (made, last):  # a TimeoutError fails the test
                frames.append(str(socket.recv(timeout=max(deadline - time.monotonic(), 0.1))))
            with contextlib.suppress(TimeoutError):  # and nothing after it undoes that
                while True:
                    frames.append(str(socket.recv(timeout=2)))
    assert _screen(frames) == (made, last)
