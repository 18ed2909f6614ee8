"""Settings come from the environment; production mode refuses unsafe defaults."""

import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from fudgetable.hosting import on_loopback, secret_key_in
from fudgetable.settings import database_from_url, env_bool, env_int, env_list
from tests.deploy.scripts_run import clean_environment

ROOT = Path(__file__).resolve().parents[2]


def manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=clean_environment(**env),
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


SHOW = (
    "from django.conf import settings as s; print(s.ALLOWED_HOSTS, s.CSRF_TRUSTED_ORIGINS, "
    "s.SESSION_COOKIE_SECURE, s.SECURE_SSL_REDIRECT, s.SECURE_PROXY_SSL_HEADER, s.SITE_URL, "
    "s.LOOPBACK_ONLY)"
)


def test_production_on_loopback_speaks_plain_http_to_this_machine(tmp_path: Path):
    """scripts/run's default: no TLS in front, so no secure-only cookies or HTTPS redirect,
    which would only break it, and only this machine's names."""
    result = manage(
        "shell", "--no-imports", "-c", SHOW, DEBUG="0", SQLITE_PATH=str(tmp_path / "db.sqlite3")
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "['localhost', '127.0.0.1', '[::1]'] [] False False None http://127.0.0.1:8000 True"
    )


def test_a_server_answering_to_a_name_of_the_world_is_not_this_machines_alone(tmp_path: Path):
    """Even on loopback with no proxy declared: a name to answer to means it is reached from
    elsewhere somehow (a proxy someone forgot to declare), so no demo logins there."""
    named = manage(
        "shell",
        "--no-imports",
        "-c",
        SHOW,
        DEBUG="0",
        ALLOWED_HOSTS="table.example.org",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    assert named.returncode == 0, named.stderr
    assert named.stdout.split()[-1] == "False"


def test_production_behind_a_proxy_is_https_only_at_its_address(tmp_path: Path):
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        SHOW,
        DEBUG="0",
        BEHIND_TLS_PROXY="1",
        SITE_URL="https://table.example.org/",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "['table.example.org'] ['https://table.example.org'] True True "
        "('HTTP_X_FORWARDED_PROTO', 'https') https://table.example.org False"
    )


def test_production_mode_refuses_what_would_be_unsafe(tmp_path: Path):
    database = str(tmp_path / "db.sqlite3")
    refusals = [
        # Scaled mode's processes must share one key: it is given, never made.
        ({"DATABASE_URL": "postgres://fudge@127.0.0.1:1/fudge"}, "needs SECRET_KEY"),
        # Plain HTTP beyond this machine: passwords would cross the network in clear.
        ({"HOST": "0.0.0.0", "SQLITE_PATH": database}, "would serve plain HTTP beyond"),
        ({"BEHIND_TLS_PROXY": "1", "SQLITE_PATH": database}, "needs the site's address"),
        ({"SITE_URL": "table.example.org", "SQLITE_PATH": database}, "SITE_URL must be like"),
    ]
    for env, said in refusals:
        result = manage("check", DEBUG="0", **env)
        assert result.returncode != 0, env
        assert said in result.stderr, (env, result.stderr[-500:])


def test_the_secret_key_is_made_once_beside_the_database_for_its_owner_alone(tmp_path: Path):
    kept = tmp_path / "secret-key"
    assert secret_key_in(kept, make=False) == ""  # development mode makes none
    key = secret_key_in(kept, make=True)
    assert len(key) >= 50 and kept.stat().st_mode & 0o777 == 0o600
    assert secret_key_in(kept, make=True) == key == secret_key_in(kept, make=False)
    assert [path.name for path in tmp_path.iterdir()] == ["secret-key"]


def test_loopback_is_this_machine_alone():
    assert all(map(on_loopback, ["127.0.0.1", "127.0.1.1", "localhost", "::1", "[::1]"]))
    assert not any(map(on_loopback, ["0.0.0.0", "::", "192.0.2.7", "table.example.org"]))


def test_production_mode_passes_the_deploy_check_with_the_key_it_made(tmp_path: Path):
    # As deploy/fudgetable.env has it, with a mail server named: without one, e-mails go to
    # the log, which the deploy check rightly counts as e-mail that is never sent.
    result = manage(
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        BEHIND_TLS_PROXY="1",
        SITE_URL="https://table.example.org",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
        EMAIL_HOST="smtp.example.org",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
    assert (tmp_path / "secret-key").exists()


def test_e_mail_goes_to_the_log_unless_a_mail_server_is_named():
    show = (
        "from django.core.mail import mailers; m = mailers.default; "
        "print(type(m).__name__, m.__module__, getattr(m, 'host', ''), getattr(m, 'use_tls', ''))"
    )
    console = manage("shell", "--no-imports", "-c", show)
    assert console.stdout.split() == ["EmailBackend", "django.core.mail.backends.console"]
    named = manage(
        "shell", "--no-imports", "-c", show, EMAIL_HOST="smtp.example.org", EMAIL_PORT="25"
    )
    assert named.stdout.split() == [
        "EmailBackend",
        "django.core.mail.backends.smtp",
        "smtp.example.org",
        "False",
    ]


def test_the_request_queue_needs_room_for_one_request():
    for bad, said in (("0", "must be 1 or more"), ("two", "must be a whole number")):
        result = manage("check", HTTP_CONCURRENCY=bad)
        assert result.returncode != 0
        assert f"HTTP_CONCURRENCY {said}" in result.stderr


def test_a_bad_value_is_said_in_one_line_without_a_traceback(tmp_path: Path):
    """What the operator reads is the message, not forty lines of Django's import machinery
    with it last; manage.py and the ASGI application daphne loads alike."""
    said = "FudgeTable's configuration: LOGIN_FAILURE_LIMIT must be a whole number, not 'five'"
    result = manage("check", LOGIN_FAILURE_LIMIT="five")
    assert (result.returncode, result.stderr) == (2, said + "\n")
    daphne = subprocess.run(
        [sys.executable, "-c", "import fudgetable.asgi"],
        cwd=ROOT,
        env=clean_environment(DEBUG="0", HOST="0.0.0.0", SQLITE_PATH=str(tmp_path / "db")),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert daphne.returncode == 2
    assert daphne.stderr.startswith("FudgeTable's configuration: HOST=0.0.0.0 would serve")
    assert "Traceback" not in daphne.stderr and daphne.stderr.count("\n") == 1


def test_the_health_check_answers_past_the_proxy_over_plain_http(tmp_path: Path):
    """As the README has a monitor ask daphne itself: plain HTTP, the site's name, GET or HEAD;
    everything else there is redirected to HTTPS."""
    ask = (
        "from django.test import Client; c = Client(HTTP_HOST='table.example.org'); "
        "print(c.get('/healthz').status_code, c.head('/healthz').status_code, "
        "c.get('/login/').status_code)"
    )
    result = manage(
        "shell",
        "--no-imports",
        "-c",
        ask,
        DEBUG="0",
        BEHIND_TLS_PROXY="1",
        SITE_URL="https://table.example.org",
        SQLITE_PATH=str(tmp_path / "db.sqlite3"),
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["200", "200", "301"]
