"""deploy/manage and deploy/backup as the README has the operator and the nightly timer run them,
on an environment file like deploy/fudgetable.env, each on a folder of its own."""

import subprocess
import threading
import time
from pathlib import Path

from fudgetable.deploy_manage import environment_file
from tests.deploy.scripts_run import clean_environment
from tests.e2e.server import ROOT

DEPLOY = ROOT / "deploy"
# A mail password as people choose them: what a shell would have expanded or choked on.
PASSWORD = "pa$$w0rd`id`$HOME\\n'x"


def env_file(tmp_path: Path) -> Path:
    state = tmp_path / "state"
    state.mkdir()
    written = tmp_path / "fudgetable.env"
    quoted = PASSWORD.replace("\\", "\\\\")  # unquoted, a backslash is written twice
    written.write_text(
        (DEPLOY / "fudgetable.env").read_text().replace("/var/lib/fudgetable", str(state))
        + f"STATIC_ROOT={tmp_path / 'static'}\n"
        + f"EMAIL_HOST_PASSWORD={quoted}\n"
    )
    return written


def run(command: str, env: Path, *args: str, **variables: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(DEPLOY / command), *args],
        env=clean_environment(ENV_FILE=str(env), **variables),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_the_environment_file_is_read_as_systemd_reads_it():
    assert environment_file(
        "# a comment with $HOME\n"
        "; another\n"
        "PLAIN=pa$$word`x`\n"
        "  SPACED = kept inside  \n"
        'DOUBLE="Fudge <t@example.org>" \n'
        'ESCAPED="a \\"b\\" \\$c \\n"\n'
        "SINGLE='$HOME \\n'\n"
        "BACKSLASH=a\\\\b\\$c\n"
        "LONG=one \\\ntwo\n"
        "EMPTY=\n"
        "no equals sign here\n"
        "9BAD=x\n"
        "LAST=no newline"
    ) == {
        "PLAIN": "pa$$word`x`",
        "SPACED": "kept inside",
        "DOUBLE": "Fudge <t@example.org>",
        "ESCAPED": 'a "b" $c \\n',
        "SINGLE": "$HOME \\n",
        "BACKSLASH": "a\\b$c",
        "LONG": "one two",
        "EMPTY": "",
        "LAST": "no newline",
    }


def test_the_documented_environment_file_reads_as_its_lines_say():
    read = environment_file((DEPLOY / "fudgetable.env").read_text())
    assert read["SITE_URL"] == "https://table.example.org"
    assert read["DEBUG"] == "0" and "EMAIL_HOST" not in read  # commented out


def test_a_command_run_before_the_first_start_waits_for_its_migrations(tmp_path: Path):
    """createsuperuser run right after `systemctl enable --now`, while the first start still
    migrates, waits for it and then makes the owner; a `$` in the mail password is kept."""
    env = env_file(tmp_path)
    done: list[subprocess.CompletedProcess] = []
    owner = threading.Thread(
        target=lambda: done.append(
            run(
                "manage",
                env,
                "createsuperuser",
                "--no-input",
                "--username=owner",
                "--email=owner@example.org",
                DJANGO_SUPERUSER_PASSWORD="a-long-fudge-phrase",
                DEPLOY_MANAGE_WAIT="240",
            )
        )
    )
    owner.start()
    time.sleep(3)  # it is waiting by now: the database is not even made
    assert not done
    migrated = run("manage", env, "migrate", "--no-input", "-v0")  # as the start does
    assert migrated.returncode == 0, migrated.stderr
    owner.join(timeout=280)
    assert done and done[0].returncode == 0, done and done[0].stderr
    assert "waiting for the service's start to apply them" in done[0].stderr
    assert "Superuser created successfully" in done[0].stdout

    shown = run(
        "manage",
        env,
        "shell",
        "--no-imports",
        "-c",
        "import os; from django.contrib.auth.models import User; "
        "print(os.environ['EMAIL_HOST_PASSWORD']); print(User.objects.get().is_superuser)",
    )
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[-2:] == [PASSWORD, "True"]


def test_without_a_start_it_says_what_to_do_instead_of_waiting_forever(tmp_path: Path):
    refused = run("manage", env_file(tmp_path), "reset_link", "alice", DEPLOY_MANAGE_WAIT="1")
    assert refused.returncode == 1
    assert "Is the service running (`systemctl start fudgetable`" in refused.stderr
    assert "Traceback" not in refused.stderr


def test_the_nightly_backup_clears_expired_sessions(tmp_path: Path):
    env = env_file(tmp_path)
    assert run("manage", env, "migrate", "--no-input", "-v0").returncode == 0
    expired = (
        "from datetime import timedelta; from django.utils import timezone; "
        "from django.contrib.sessions.models import Session as S; "
        "S.objects.create(session_key='x' * 32, session_data='', "
        "expire_date=timezone.now() - timedelta(days=1)); print(S.objects.count())"
    )
    assert run("manage", env, "shell", "--no-imports", "-c", expired).stdout.strip() == "1"
    # The timer's service gives the backup its environment file's variables.
    variables = environment_file(env.read_text())
    backup = subprocess.run(
        [str(DEPLOY / "backup")],
        env=clean_environment(**variables),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert backup.returncode == 0, backup.stderr
    assert len(list(Path(variables["BACKUP_DIR"]).glob("fudgetable-*.sqlite3"))) == 1
    count = "from django.contrib.sessions.models import Session as S; print(S.objects.count())"
    assert run("manage", env, "shell", "--no-imports", "-c", count).stdout.strip() == "0"
