"""deploy/manage's work: manage.py in the server's own environment, for what an operator runs by
hand (README, "Put it online").

The environment file is read as systemd reads an ``EnvironmentFile=``, the service's own: KEY=VALUE
lines, quotes and backslashes as systemd takes them, nothing expanded. Read as shell, as it was, a
``$`` in a mail password was expanded to nothing, or stopped the command.

A command run before the service's first start has finished (its database not made or not at
this version yet) waits for that start's migrations rather than failing halfway through.
"""

import os
import re
import sys
import time
from pathlib import Path

DEFAULT_ENV_FILE = "/etc/fudgetable/fudgetable.env"
# Commands that are about the migrations themselves, or need no database.
NO_WAIT = {"migrate", "showmigrations", "sqlmigrate", "check", "help", "version"}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SPACE = " \t\r"


def environment_file(text: str) -> dict[str, str]:
    """The variables an ``EnvironmentFile=`` with ``text`` gives a unit (systemd.exec(5)):
    comments start with # or ;, a line without = is ignored, values are taken verbatim but for
    the quotes around them and backslash escapes, and ``$`` is an ordinary character."""
    found: dict[str, str] = {}
    state, key, value = "pre_key", "", ""
    trailing = 0  # unquoted whitespace at the end of the value, dropped as systemd drops it

    def push() -> None:
        name = key.strip(_SPACE)
        if _NAME.fullmatch(name):
            found[name] = value[: len(value) - trailing] if trailing else value

    for char in text:
        if state == "pre_key":
            if char in "#;":
                state = "comment"
            elif char not in _SPACE + "\n":
                state, key = "key", char
        elif state == "key":
            if char == "\n":
                state = "pre_key"  # a line without =
            elif char == "=":
                state, value, trailing = "pre_value", "", 0
            else:
                key += char
        elif state == "comment":
            if char == "\\":
                state = "comment_escape"
            elif char == "\n":
                state = "pre_key"
        elif state == "comment_escape":
            state = "comment"
        elif state in {"pre_value", "value"}:
            if char == "\n":
                push()
                state = "pre_key"
            elif state == "pre_value" and char in _SPACE:
                pass
            elif state == "pre_value" and char == "'":
                state = "single"
            elif state == "pre_value" and char == '"':
                state = "double"
            elif char == "\\":
                state = "value_escape"
            else:
                state = "value"
                value += char
                trailing = trailing + 1 if char in _SPACE else 0
        elif state == "value_escape":
            state = "value"
            if char != "\n":  # a backslash at the end of a line continues it
                value += char
                trailing = 0
        elif state == "single":
            if char == "'":
                state, trailing = "pre_value", 0
            else:
                value += char
        elif state == "double":
            if char == '"':
                state, trailing = "pre_value", 0
            elif char == "\\":
                state = "double_escape"
            else:
                value += char
        elif state == "double_escape":
            state = "double"
            if char in '"\\`$':
                value += char
            elif char != "\n":
                value += "\\" + char
    if state not in {"pre_key", "key", "comment", "comment_escape"}:
        push()
    return found


def unapplied_migrations() -> int | None:
    """How many migrations this version has that the database lacks; None while it cannot be
    opened (the service's first start has not made its folder yet)."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    try:
        executor = MigrationExecutor(connection)
        return len(executor.migration_plan(executor.loader.graph.leaf_nodes()))
    except Exception:
        return None
    finally:
        connection.close()


def wait_for_migrations(seconds: int) -> None:
    deadline = time.monotonic() + seconds
    said = False
    while (missing := unapplied_migrations()) != 0:
        if time.monotonic() >= deadline:
            sys.stderr.write(
                f"The database is still not at this version after {seconds} s. Is the service "
                "running (`systemctl start fudgetable`, its log: `journalctl -u fudgetable`)? "
                "`deploy/manage migrate` applies the migrations by hand.\n"
            )
            raise SystemExit(1)
        if not said:
            sys.stderr.write(
                "The database is not at this version yet"
                + (f" ({missing} migrations to apply)" if missing else "")
                + ": waiting for the service's start to apply them "
                f"(up to {seconds} s; `systemctl status fudgetable` shows it) ...\n"
            )
            said = True
        time.sleep(1)
    if said:
        sys.stderr.write("The database is ready.\n")


def main(argv: list[str]) -> None:
    path = Path(os.environ.get("ENV_FILE") or DEFAULT_ENV_FILE)
    try:
        text = path.read_text()
    except OSError as error:
        sys.stderr.write(
            f"deploy/manage could not read the environment file {path} ({error.strerror}): "
            "run it as the service's user (`sudo -u fudgetable deploy/manage ...`), or name "
            "another with ENV_FILE.\n"
        )
        raise SystemExit(2) from None
    os.environ.update(environment_file(text))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fudgetable.settings")

    import django
    from django.core.management import execute_from_command_line

    from fudgetable.hosting import settings_or_exit

    settings_or_exit()
    command = argv[1] if len(argv) > 1 else "help"
    if command not in NO_WAIT and not command.startswith("-"):
        django.setup()
        wait_for_migrations(int(os.environ.get("DEPLOY_MANAGE_WAIT") or 300))
    execute_from_command_line(["manage.py", *argv[1:]])


if __name__ == "__main__":
    main(sys.argv)
