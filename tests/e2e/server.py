"""A real FudgeTable server (daphne, HTTP + websockets) in a subprocess, for browser tests,
the cross-process test and the live-table benchmark. It runs what scripts/run runs: production
mode (DEBUG=0), static files from their collected manifest, the strict CSP; a test that needs
development mode passes DEBUG="1" and says why."""

import atexit
import os
import secrets
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
import time
import urllib.request
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# One key for every server of a test run: servers that share a database (or a restored copy of
# one) read each other's sessions, as scripts/run's processes do with a key given to all.
SECRET_KEY = secrets.token_urlsafe(64)
# Where the site is reached, set for each server: none of the shell's own may leak in.
SITE = {"HOST", "PORT", "SITE_URL", "ALLOWED_HOSTS", "BEHIND_TLS_PROXY", "CSRF_TRUSTED_ORIGINS"}


@cache
def collected_static() -> Path:
    """The static files collected once for the whole test run (a few seconds, as scripts/run's
    `prepare` does at each start), into a folder of the run's own, shared by every server."""
    root = Path(tempfile.mkdtemp(prefix="fudgetable-static-"))
    atexit.register(shutil.rmtree, root, ignore_errors=True)
    env = {**os.environ, "DEBUG": "0", "SECRET_KEY": SECRET_KEY, "STATIC_ROOT": str(root)}
    env["SQLITE_PATH"] = str(root / "unused.sqlite3")  # collectstatic opens no database
    subprocess.run(
        [sys.executable, "manage.py", "collectstatic", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
        timeout=300,
    )
    return root


def answering(url: str, process: subprocess.Popen[bytes], log: Path, within: float) -> None:
    """Waits until the server ``process`` started answers ``url``/healthz; its log in the
    error if it exits first or does not answer ``within`` seconds."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited early; see {log}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.1)
    said = log.read_text()
    raise RuntimeError(f"the server did not answer on {url} within {within:.0f} s:\n{said}")


def end(process: subprocess.Popen[bytes]) -> None:
    """Stops a server process: asked first, killed if it will not go."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def database_copy(source: Path, to: Path) -> None:
    """Copies a SQLite database whole through SQLite's backup, which reads it as one
    transaction (a write-ahead log beside it included)."""
    with sqlite3.connect(source) as old, sqlite3.connect(to) as new:
        old.backup(new)
    old.close()
    new.close()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AppServer:
    """One daphne process on its own port and its own SQLite file (unless env says otherwise),
    in production mode on loopback as scripts/run serves it (unless env says DEBUG="1")."""

    def __init__(self, workdir: Path, *, root: Path = ROOT, **env: str) -> None:
        """``root``: the checkout whose code it runs (a benchmark compares two, and collects
        the other's static files itself)."""
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        base = {
            k: v
            for k, v in os.environ.items()
            if k not in {"DATABASE_URL", "REDIS_URL", "DEBUG", "STATIC_ROOT", "SECRET_KEY", *SITE}
        }
        production = env.get("DEBUG", "0") == "0"
        static = {}
        if production and "STATIC_ROOT" not in env and root == ROOT:
            static = {"STATIC_ROOT": str(collected_static())}
        self.env = {
            **base,
            "SQLITE_PATH": str(workdir / "e2e.sqlite3"),
            "DEBUG": "0",
            "SECRET_KEY": SECRET_KEY,
            "HOST": "127.0.0.1",
            "PORT": str(self.port),
            **static,
            **env,
        }
        self.log = workdir / f"daphne-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def manage(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "manage.py", *args],
            cwd=self.root,
            env=self.env,
            check=True,
            timeout=120,
        )

    def python(self, code: str, timeout: float = 300) -> str:
        """Runs ``code`` with Django set up in this server's environment (its database, its
        settings) and returns what it printed: how tests and benchmarks seed a server."""
        script = "import django\ndjango.setup()\n" + textwrap.dedent(code)
        env = {**self.env}
        env.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")
        done = subprocess.run(
            [sys.executable, "-c", script],
            cwd=self.root,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if done.returncode:
            raise RuntimeError(f"seed script failed:\n{done.stderr}")
        return done.stdout

    def start(self) -> None:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.port),
                    "fudgetable.asgi:application",
                ],
                cwd=self.root,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        answering(self.url, self.process, self.log, within=30)

    def stop(self) -> None:
        if self.process:
            end(self.process)
        self.process = None

    def restart(self) -> None:
        self.stop()
        self.start()
