"""The socket limit as a real browser meets it, through daphne: the close code matters there.
daphne's websocket library sends only 1000 and 3000-4999 and refused the 1008 the limit
closed with ("invalid close code", a traceback), so the socket died as 1011 and htmx tried it
again every few seconds, to be turned away again; ``WebsocketCommunicator`` takes any code,
and its test passed. And the limit counted one campaign's sockets, so a person's next
campaign was a way round it."""

import contextlib
import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from tests.e2e.server import AppServer
from tests.rolls.test_across_processes import PASSWORD, _log_in, _socket

SEED = f"""
import json
from django.contrib.auth.models import User
from campaigns.services import campaign_create

player = User.objects.create_user("xproc-player", password={PASSWORD!r})
made = [campaign_create(owner=player, name=f"Lighthouse {{n}}").pk for n in range(2)]
print(json.dumps(made))
"""


@pytest.fixture
def server(tmp_path: Path) -> Iterator[AppServer]:
    """One daphne on its own SQLite file, two sockets a person."""
    server = AppServer(tmp_path, SOCKETS_PER_PERSON="2")
    server.manage("migrate", "--no-input", "-v", "0")
    try:
        server.start()
        yield server
    finally:
        server.stop()


def turned_away(socket: ClientConnection) -> int:
    """The socket's notice, in words, then its close's code."""
    notice = str(socket.recv(timeout=5))
    assert 'id="notice"' in notice and "2 table and sheet pages open already" in notice
    with pytest.raises(ConnectionClosed) as closed:
        socket.recv(timeout=5)
    assert closed.value.rcvd is not None
    return closed.value.rcvd.code


def test_past_the_limit_a_page_is_told_why_and_closed_with_a_code_htmx_does_not_retry(server):
    first, second = json.loads(server.python(SEED).strip().splitlines()[-1])
    with (
        contextlib.ExitStack() as sockets,
        httpx.Client(base_url=server.url, timeout=30, trust_env=False) as http,
    ):
        _log_in(http, "xproc-player")
        for _ in range(2):
            open_page = sockets.enter_context(_socket(server, first, http))
            assert 'id="roll-log"' in str(open_page.recv(timeout=5))
        # htmx retries 1006, 1011, 1012 and 1013; 4008 is none of them.
        with _socket(server, first, http) as third:
            assert turned_away(third) == 4008
        # Another campaign of theirs is no way round the limit.
        with _socket(server, second, http) as elsewhere:
            assert turned_away(elsewhere) == 4008
    log = server.log.read_text()
    assert "invalid close code" not in log and "Traceback" not in log
