"""The table socket as the tests drive it: a communicator on the real ASGI application, read
frame by frame until a marker comes."""

import json
import re
from urllib.parse import urlencode

from channels.testing import WebsocketCommunicator

from fudgetable.asgi import application
from fudgetable.entry_ids import decode

ORIGIN = (b"origin", b"http://testserver")
# The page's own host, as a browser sends it: the Origin must be that same site.
HOST = (b"host", b"testserver")
ENTRY = re.compile(r'<li id="roll-([\w-]{22})"')


def socket_for(campaign, cookie, origin=ORIGIN) -> WebsocketCommunicator:
    return WebsocketCommunicator(
        application, f"/ws/campaigns/{campaign.pk}/", headers=[HOST, origin, cookie]
    )


async def until(socket, marker: str, tries: int = 30) -> list[str]:
    """Every frame up to and including the first that holds ``marker``."""
    frames = []
    for _ in range(tries):
        frames.append(await socket.receive_from(timeout=5))
        if marker in frames[-1]:
            return frames
    raise AssertionError(f"{marker!r} never came; got {frames!r}")


async def joined(campaign, cookie, username: str | None = None) -> WebsocketCommunicator:
    """A connected socket that has read the table state (one frame) and, given a username,
    its own arrival in the presence list."""
    socket = socket_for(campaign, cookie)
    connected, _ = await socket.connect()
    assert connected
    await until(socket, 'id="roll-log"')
    if username is not None:
        assert username in (await until(socket, 'id="presence"'))[-1]
    return socket


async def gm_and_player(campaign, cookies) -> tuple[WebsocketCommunicator, WebsocketCommunicator]:
    """The owner's and the member's sockets, both past the table state, the GM's past the
    player's arrival: what either reads next is what the test does."""
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await until(gm, "player-member")
    return gm, player


async def closed(socket) -> bool:
    """Whether the server closes the socket next, past the notice it sends first to say why."""
    output = await socket.receive_output(timeout=5)
    if output.get("text", "").startswith('<div id="notice"'):
        output = await socket.receive_output(timeout=5)
    return output["type"] == "websocket.close"


def entry_pks(html: str) -> list[int]:
    """The database ids of the log entries ``html`` shows, in its order: pages show them
    enciphered (``fudgetable.entry_ids``), and a test compares them with the rows it made."""
    return [decode(found) or 0 for found in ENTRY.findall(html)]


async def answered(socket, path: str, data: dict, number: int, key: str = "socket-key") -> dict:
    """Sends an htmx POST over the socket as live.js does, with an idempotency key of its own,
    and returns its answer, past any table events pushed meanwhile."""
    body = urlencode({**data, "key": f"{key}-{number}"})
    message = {
        "command": {"id": number, "path": path, "body": body, "headers": {"HX-Request": "true"}}
    }
    await socket.send_to(text_data=json.dumps(message))
    for _ in range(30):
        frame = await socket.receive_from(timeout=5)
        if frame.startswith("{") and json.loads(frame).get("answer") == number:
            return json.loads(frame)
    raise AssertionError(f"no answer to command {number}")
