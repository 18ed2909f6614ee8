"""Times GETs of the dashboard on one daphne on PostgreSQL, and counts the connections they open.

    .venv/bin/python -m tests.benchmarks.pg_connections [--requests 200]

One daphne process in production mode on a PostgreSQL database of its own (made and dropped
here; BENCH_DATABASE_URL names the server, default postgres://postgres@127.0.0.1:5432/postgres)
and the Redis database 3 (BENCH_REDIS_URL). A logged-in person GETs the dashboard N times, one
after another. It reports the time per GET, how many connections PostgreSQL opened for them
(pg_stat_database.sessions) and how many are still open afterwards. Not collected by pytest;
docs/performance.md has its figures.
"""

import argparse
import os
import tempfile
import time
from pathlib import Path

import httpx
import psycopg

from tests.benchmarks.live_table import (
    ADMIN_DATABASE_URL,
    _scaled_services,
    _start_servers,
)

SESSION = """
from importlib import import_module
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.auth.models import User

user = User.objects.create_user("bench-dashboard")
store = import_module(settings.SESSION_ENGINE).SessionStore()
store[SESSION_KEY] = str(user.pk)
store[BACKEND_SESSION_KEY] = "fudgetable.auth_backend.PersonByKeyBackend"
store[HASH_SESSION_KEY] = user.get_session_auth_hash()
store.create()
print(store.session_key)
"""


def _connections(admin_url: str, database: str) -> tuple[int, int]:
    """(connections opened since the database was made, connections open now)."""
    with psycopg.connect(admin_url, autocommit=True) as admin:
        opened = admin.execute(
            "SELECT sessions FROM pg_stat_database WHERE datname = %s", [database]
        ).fetchone()
        now = admin.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [database]
        ).fetchone()
    assert opened is not None and now is not None
    return int(opened[0]), int(now[0])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    admin_url = os.environ.get("BENCH_DATABASE_URL", ADMIN_DATABASE_URL)
    with (
        tempfile.TemporaryDirectory(prefix="fudgetable-pg-") as workdir,
        _scaled_services(admin_url) as scaled,
    ):
        server = _start_servers(Path(workdir), debug=False, count=1, scaled=scaled)[0]
        session = server.python(SESSION).strip().splitlines()[-1]
        database = scaled["DATABASE_URL"].rsplit("/", 1)[-1]
        server.start()
        try:
            cookies = {"sessionid": session}
            with httpx.Client(base_url=server.url, cookies=cookies, trust_env=False) as http:
                assert http.get("/").status_code == 200  # warm: templates, the pool
                opened_before, _ = _connections(admin_url, database)
                began = time.perf_counter()
                for _ in range(args.requests):
                    response = http.get("/")
                    assert response.status_code == 200, response.status_code
                took = time.perf_counter() - began
                opened_after, open_now = _connections(admin_url, database)
        finally:
            server.stop()
    print(
        f"{args.requests} GETs of the dashboard, one daphne on PostgreSQL: "
        f"{took / args.requests * 1000:.1f} ms each; connections opened "
        f"{opened_after - opened_before}, open afterwards {open_now}"
    )


if __name__ == "__main__":
    main()
