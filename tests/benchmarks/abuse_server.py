"""The server the abuse benchmarks (#37) run against: one daphne in production mode on the
embedded default, its own SQLite and static files in ``workdir``, running ``root``'s code (the
checkout before a change, to compare), migrated and ready to seed."""

import asyncio
import json
import secrets
from collections.abc import Awaitable, Callable
from pathlib import Path

from tests.benchmarks.load import Table
from tests.e2e.server import AppServer


def abuse_server(workdir: Path, root: Path, **extra: str) -> AppServer:
    env = {
        "SQLITE_PATH": str(workdir / "bench.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_urlsafe(64),
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "LOG_LEVEL": "WARNING",
        **extra,
    }
    server = AppServer(workdir, root=root.resolve(), **env)
    server.manage("migrate", "--no-input", "-v", "0")
    server.manage("collectstatic", "--no-input", "-v", "0")
    return server


def seed_and_run(
    server: AppServer, seed: str, run: Callable[[Table, dict], Awaitable[None]]
) -> None:
    """Seeds the server (a seed that prints the other table's row, then the hog's), starts it,
    runs the benchmark against both, and stops it."""
    lines = server.python(seed).strip().splitlines()
    (row,), hog = json.loads(lines[-2]), json.loads(lines[-1])
    try:
        server.start()
        asyncio.run(run(Table(**row), hog))
    finally:
        server.stop()
