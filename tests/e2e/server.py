"""A real FudgeTable server (daphne, HTTP + websockets) in a subprocess, for browser tests,
the cross-process test and the live-table benchmark."""

import os
import socket
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


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


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class AppServer:
    """One daphne process on its own port and its own SQLite file (unless env says otherwise)."""

    def __init__(self, workdir: Path, *, root: Path = ROOT, **env: str) -> None:
        """``root``: the checkout whose code it runs (a benchmark compares two)."""
        self.root = root
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        base = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
        self.env = {**base, "SQLITE_PATH": str(workdir / "e2e.sqlite3"), "DEBUG": "1", **env}
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
        env = {**self.env, "DJANGO_SETTINGS_MODULE": "fudgetable.settings"}
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
