"""``manage.py backup``: a consistent copy of the embedded database taken while the server
runs, which a server started on it serves as it was."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tests.e2e.server import ROOT, AppServer

SEED = """
from django.contrib.auth.models import User
from campaigns.models import Campaign, Membership
from characters.services import character_create
from rolls.models import Roll
gm = User.objects.create_user("gm", password="a-long-fudge-phrase")
campaign = Campaign.objects.create(name="Lighthouse", owner=gm)
Membership.objects.create(campaign=campaign, user=gm, role="gm")
hero = character_create(campaign=campaign, owner=gm, name="Marisol")
for number in range(50):
    Roll.objects.create(campaign=campaign, roller=gm, character=hero, kind="check",
                        label=f"Roll {number}", snapshot={}, idempotency_key=f"key-{number}")
"""
COUNT = """
from campaigns.models import Campaign
from characters.models import Character
from rolls.models import Roll
print(Campaign.objects.count(), Character.objects.get().name, Roll.objects.count())
"""


def test_a_backup_taken_while_the_server_runs_starts_a_server_with_everything(tmp_path: Path):
    (tmp_path / "live").mkdir()
    live = AppServer(tmp_path / "live")
    live.manage("migrate", "--no-input", "-v", "0")
    live.python(SEED)
    live.start()
    try:
        copy = tmp_path / "copy.sqlite3"
        live.manage("backup", str(copy))  # the server is running and holds the database
    finally:
        live.stop()
    restored_dir = tmp_path / "restored"
    restored_dir.mkdir()
    restored = AppServer(restored_dir, SQLITE_PATH=str(copy))
    assert restored.python(COUNT).split() == ["1", "Marisol", "50"]
    restored.start()  # answers its health check on the copy
    restored.stop()


def backup(database: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", "backup", *args],
        cwd=ROOT,
        env={**env, "SQLITE_PATH": str(database)},
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_an_existing_file_is_kept_unless_forced(tmp_path: Path):
    kept = tmp_path / "older.sqlite3"
    kept.write_text("an older backup")
    done = backup(tmp_path / "db.sqlite3", str(kept))
    assert done.returncode == 1
    assert "already exists; give --force to replace it." in done.stderr
    assert kept.read_text() == "an older backup"


def test_a_missing_folder_is_made_and_one_that_cannot_be_is_named(tmp_path: Path):
    # The README's `manage.py backup backups/...` on a fresh checkout, where backups/ is not yet.
    made = backup(tmp_path / "db.sqlite3", str(tmp_path / "backups" / "copy.sqlite3"))
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "backups" / "copy.sqlite3").stat().st_size > 0
    (tmp_path / "a-file").write_text("not a folder")
    done = backup(tmp_path / "db.sqlite3", str(tmp_path / "a-file" / "copy.sqlite3"))
    assert done.returncode == 1 and "Could not make the folder" in done.stderr


@pytest.mark.django_db
def test_on_postgresql_it_points_to_pg_dump(tmp_path: Path):
    if connection.vendor != "postgresql":
        pytest.skip("the embedded default's backups are tested above")
    with pytest.raises(CommandError, match="back it up with pg_dump"):
        call_command("backup", str(tmp_path / "copy.sqlite3"))
