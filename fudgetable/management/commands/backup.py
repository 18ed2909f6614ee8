"""``manage.py backup PATH``: a consistent copy of the embedded database, taken while the
server runs. SQLite's online backup copies the database page by page under its own locks, so
the copy is one moment's state even with rolls being written; copying the file (and its WAL)
by hand is not."""

import sqlite3
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import connection


class Command(BaseCommand):
    help = "Writes a consistent copy of the embedded SQLite database to PATH, server running."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "path", help="where to write the copy (a new file; its folder is made if missing)"
        )
        parser.add_argument(
            "--force", action="store_true", help="replace PATH if it already exists"
        )

    def handle(self, *args: object, **options: object) -> None:
        if connection.vendor != "sqlite":
            raise CommandError(
                "This server keeps its data in PostgreSQL: back it up with pg_dump "
                "(see the README's Backups section)."
            )
        source = Path(str(connection.settings_dict["NAME"]))
        target = Path(str(options["path"])).resolve()
        if target == source.resolve():
            raise CommandError("The copy must go to another file than the database itself.")
        if target.exists() and not options["force"]:
            raise CommandError(f"{target} already exists; give --force to replace it.")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise CommandError(f"Could not make the folder {target.parent}: {error}.") from None
        partial = target.with_name(target.name + ".partial")
        live, copy = sqlite3.connect(source), sqlite3.connect(partial)
        try:
            live.backup(copy)
        finally:
            copy.close()
            live.close()
        # A copy that was cut off never stands where a good one is expected.
        partial.replace(target)
        self.stdout.write(f"Backed up {source} to {target}.")
