"""``manage.py prepare``, scripts/run's first step at every start."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

pytestmark = pytest.mark.django_db


def test_a_start_clears_the_sessions_that_expired(settings):
    # Development mode and a server the world reaches: neither the static files nor the demo.
    settings.DEBUG, settings.LOOPBACK_ONLY = True, False
    now = timezone.now()
    Session.objects.create(session_key="x" * 32, session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="y" * 32, session_data="", expire_date=now + timedelta(1))
    call_command("prepare", stdout=StringIO())
    assert list(Session.objects.values_list("session_key", flat=True)) == ["y" * 32]


def test_reset_link_by_hand_gives_the_address_scripts_run_served_at(
    settings, tmp_path, monkeypatch, capsys
):
    """`PORT=8123 scripts/run`, then `manage.py reset_link alice` in another terminal with
    nothing set: the link is for port 8123, where the defaults would have said 8000."""
    settings.DEBUG, settings.LOOPBACK_ONLY = True, False
    settings.SQLITE_PATH = tmp_path / "db.sqlite3"
    # The note is the embedded default's (scaled mode is given SITE_URL): in the PostgreSQL
    # pass too, the test plays scripts/run on SQLite.
    settings.DATABASE_URL = ""
    settings.SITE_URL = "http://127.0.0.1:8123"  # scripts/run's PORT=8123
    call_command("prepare", stdout=StringIO())
    assert (tmp_path / "db.sqlite3.served-at").read_text() == "http://127.0.0.1:8123\n"

    User.objects.create_user("alice")
    for name in ("SITE_URL", "HOST", "PORT"):
        monkeypatch.delenv(name, raising=False)
    settings.SITE_URL = "http://127.0.0.1:8000"  # what the defaults make of nothing set
    capsys.readouterr()
    call_command("reset_link", "alice")
    assert "    http://127.0.0.1:8123/password/reset/" in capsys.readouterr().out

    # Where the address is given (deploy/manage's environment file), it is the one used.
    monkeypatch.setenv("SITE_URL", "https://table.example.org")
    settings.SITE_URL = "https://table.example.org"
    call_command("reset_link", "alice")
    assert "    https://table.example.org/password/reset/" in capsys.readouterr().out
