"""scripts/run in a subprocess, started as a person starts it or as the systemd unit does, on its
own port, database and static files, and stopped afterwards."""

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from tests.e2e.server import ROOT, answering, end, free_port

# What a developer's or CI's shell may have set that would make it another server.
SERVER_VARIABLES = {
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "HOST",
    "PORT",
    "SITE_URL",
    "BEHIND_TLS_PROXY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SECRET_KEY",
    "SECRET_KEY_FILE",
    "EMAIL_HOST",
}


@dataclass
class Running:
    url: str
    log: Path

    def output(self) -> str:
        return self.log.read_text()


def clean_environment(**env: str) -> dict[str, str]:
    return {**{k: v for k, v in os.environ.items() if k not in SERVER_VARIABLES}, **env}


@contextmanager
def scripts_run(workdir: Path, command: str = "scripts/run", **env: str) -> Iterator[Running]:
    defaults = {
        "PORT": str(free_port()),
        "SQLITE_PATH": str(workdir / "db.sqlite3"),
        "STATIC_ROOT": str(workdir / "static"),
    }
    env = clean_environment(**{**defaults, **env})
    log = workdir / "scripts-run.log"
    url = f"http://127.0.0.1:{env['PORT']}"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [str(ROOT / command)], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    try:
        # A first start migrates a new database and compresses the static files.
        answering(url, process, log, within=240)
        yield Running(url=url, log=log)
    finally:
        end(process)
