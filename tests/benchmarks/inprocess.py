"""What the in-process benchmarks share: Django on a throwaway SQLite file, in production
mode (DEBUG=0) unless asked for the development default, so nothing touches db.sqlite3."""

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

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


def expect(response: "HttpResponseBase", status: int, what: str) -> None:
    code = response.status_code
    if code != status:
        sys.exit(f"{what} answered {code}, not {status}")


def mode(debug: bool) -> str:
    return f"{'DEBUG=1' if debug else 'DEBUG=0'}, Python {sys.version.split()[0]}"
