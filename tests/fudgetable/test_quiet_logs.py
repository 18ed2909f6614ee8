"""What a running server writes to its log: a refused request is one line, a real error one
traceback. Each refusal used to print its whole traceback, and twice with DEBUG=1."""

import http.cookiejar
import re
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.server import AppServer

PASSWORD = "a-long-fudge-phrase"
SEED = f"""
from django.contrib.auth.models import User
from campaigns.models import Campaign, Membership
gm = User.objects.create_user("gm", password="{PASSWORD}")
player = User.objects.create_user("player", password="{PASSWORD}")
campaign = Campaign.objects.create(name="Lighthouse", owner=gm)
Membership.objects.create(campaign=campaign, user=gm, role="gm")
Membership.objects.create(campaign=campaign, user=player, role="player")
print(campaign.pk)
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[AppServer, int]]:
    """The development default (DEBUG=1), where each line was printed twice. Production mode
    logs through the same handler and filter, but its secure cookies need HTTPS to log in."""
    app = AppServer(tmp_path, DEBUG="1", STATIC_ROOT=str(tmp_path / "static"))
    app.manage("migrate", "--no-input", "-v", "0")
    campaign_id = int(app.python(SEED))
    app.start()
    try:
        yield app, campaign_id
    finally:
        app.stop()


def logged_in(app: AppServer, username: str) -> urllib.request.OpenerDirector:
    browser = urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )
    form = browser.open(f"{app.url}/login/").read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form)[1]
    data = f"csrfmiddlewaretoken={token}&username={username}&password={PASSWORD}".encode()
    login = urllib.request.Request(f"{app.url}/login/", data, {"Referer": f"{app.url}/login/"})
    browser.open(login).read()
    return browser


def status_and_log(app: AppServer, browser: urllib.request.OpenerDirector, path: str):
    before = len(app.log.read_text())
    try:
        status = browser.open(app.url + path).status
    except urllib.error.HTTPError as error:
        status = error.code
    time.sleep(0.3)  # the server writes its lines after the answer
    lines = app.log.read_text()[before:].splitlines()
    return status, [line for line in lines if '" ' not in line]  # less daphne's access lines


def test_a_refused_request_is_one_line_without_a_traceback(server):
    app, campaign_id = server
    status, lines = status_and_log(
        app, logged_in(app, "player"), f"/campaigns/{campaign_id}/settings/"
    )
    assert status == 403
    assert lines == [f"Forbidden (Permission denied): /campaigns/{campaign_id}/settings/"]


def test_a_real_error_is_one_traceback(server):
    app, campaign_id = server
    app.python(
        "from django.db import connection\n"
        "connection.cursor().execute('DROP TABLE campaigns_sessionzero')"
    )
    path = f"/campaigns/{campaign_id}/session-zero/"
    status, lines = status_and_log(app, logged_in(app, "gm"), path)
    assert status == 500
    # One record, printed once: its traceback chains the database's error and Django's.
    assert [line for line in lines if line.startswith("Internal")] == [
        f"Internal Server Error: {path}"
    ]
    assert "Traceback (most recent call last):" in lines
    assert lines[-1] == "django.db.utils.OperationalError: no such table: campaigns_sessionzero"
