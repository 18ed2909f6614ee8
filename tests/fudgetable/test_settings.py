"""Settings come from the environment; production mode refuses unsafe defaults."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from fudgetable.settings import database_from_url, env_bool, env_int, env_list

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in {"DATABASE_URL", "REDIS_URL"}}
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_env_bool_reads_common_spellings(monkeypatch):
    monkeypatch.setenv("FT_FLAG", "off")
    assert env_bool("FT_FLAG", True) is False
    monkeypatch.setenv("FT_FLAG", "Yes")
    assert env_bool("FT_FLAG", False) is True
    monkeypatch.delenv("FT_FLAG")
    assert env_bool("FT_FLAG", True) is True


def test_env_bool_and_int_name_the_bad_variable(monkeypatch):
    monkeypatch.setenv("FT_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured, match="FT_FLAG"):
        env_bool("FT_FLAG", True)
    monkeypatch.setenv("FT_NUMBER", "ten")
    with pytest.raises(ImproperlyConfigured, match="FT_NUMBER"):
        env_int("FT_NUMBER", 1)


def test_env_list_splits_on_commas(monkeypatch):
    monkeypatch.setenv("FT_HOSTS", " a.example, b.example ,,")
    assert env_list("FT_HOSTS") == ["a.example", "b.example"]


def test_database_url_becomes_a_postgresql_entry_with_a_pool():
    entry = database_from_url("postgres://fudge:s%40cret@db.example:5433/table", pool_size=10)
    assert entry["ENGINE"] == "django.db.backends.postgresql"
    assert (entry["NAME"], entry["USER"], entry["PASSWORD"]) == ("table", "fudge", "s@cret")
    assert (entry["HOST"], entry["PORT"]) == ("db.example", "5433")
    pool = entry["OPTIONS"]["pool"]  # type: ignore[index]
    assert (pool["min_size"], pool["max_size"], entry["CONN_MAX_AGE"]) == (2, 10, 0)


def test_database_url_must_be_postgresql():
    with pytest.raises(ImproperlyConfigured, match="postgres://"):
        database_from_url("mysql://root@localhost/table", pool_size=10)


def test_embedded_default_is_sqlite_in_wal_mode_with_the_in_memory_layer():
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        "from django.conf import settings as s; from django.db import connection as c; "
        "cur = c.cursor(); cur.execute('PRAGMA journal_mode'); "
        "print(s.DATABASES['default']['ENGINE'], c.vendor, cur.fetchone()[0], "
        "s.CHANNEL_LAYERS['default']['BACKEND'])",
        SQLITE_PATH=str(ROOT / "db.sqlite3.settings-test"),
    )
    for leftover in ROOT.glob("db.sqlite3.settings-test*"):
        leftover.unlink()
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "fudgetable.sqlite",
        "sqlite",
        "wal",
        "fudgetable.memory_layer.InMemoryLayer",
    ]


def test_production_mode_refuses_to_start_without_a_secret_key():
    result = manage("check", DEBUG="0", ALLOWED_HOSTS="table.example.org", SECRET_KEY="")
    assert result.returncode != 0
    assert "needs SECRET_KEY" in result.stderr


def test_production_mode_refuses_to_start_without_allowed_hosts():
    result = manage("check", DEBUG="0", SECRET_KEY=secrets.token_urlsafe(64), ALLOWED_HOSTS="")
    assert result.returncode != 0
    assert "needs ALLOWED_HOSTS" in result.stderr


def test_production_mode_passes_the_deploy_check():
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(64),
        ALLOWED_HOSTS="table.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_the_request_queue_needs_room_for_one_request():
    for bad, said in (("0", "must be 1 or more"), ("two", "must be a whole number")):
        result = manage("check", HTTP_CONCURRENCY=bad)
        assert result.returncode != 0
        assert f"HTTP_CONCURRENCY {said}" in result.stderr
