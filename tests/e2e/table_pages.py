"""What the live-table browser tests share: demo logins, a page watched for console errors and
socket frames, and getting to a table page that is listening on its socket."""

import re
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from playwright.sync_api import Browser, BrowserContext, Page, WebSocket, expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer

PASSWORD = "fudge-demo"
PUSH = 5_000  # a push reaches another browser within a few seconds
RECONNECT = 45_000  # the ws extension's full-jitter backoff: random waits up to 1, 2, 4, 8… s
# While the server is down Chromium reports each refused reconnect (or one cut off as the server
# stops or starts) and any other load refused, and htmx logs its error event (as "[object
# Event]"); nothing else may appear.
RECONNECTING = re.compile(
    r"^WebSocket connection to '.*' failed: (.*ERR_CONNECTION_REFUSED"
    r"|Connection closed before receiving a handshake response)$|^\[object Event\]$"
    r"|^Failed to load resource: net::ERR_CONNECTION_REFUSED$"
)

# The same, as the browser fixture (conftest.py) words it, for a test that takes the server
# away on purpose: ``@pytest.mark.browser_may_see(*SERVER_AWAY, why=…)``.
SERVER_AWAY = (
    r"^console error: (WebSocket connection to '.*' failed: (.*ERR_CONNECTION_REFUSED"
    r"|Connection closed before receiving a handshake response)|\[object Event\]"
    r"|Failed to load resource: net::ERR_CONNECTION_REFUSED)$",
    r"^request failed: .*\(net::ERR_CONNECTION_REFUSED\)$",
)
# A page whose network drops (``context.set_offline``) on purpose: htmx logs a send that failed.
NETWORK_AWAY = (
    r"^console error: htmx:(sendError|afterRequest)",
    r"ERR_INTERNET_DISCONNECTED",
)


class Watched:
    """A page with its console errors, uncaught exceptions and received socket frames."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.problems: list[str] = []
        self.sockets: list[WebSocket] = []
        self.frames: list[str] = []
        page.set_default_timeout(10_000)
        page.on("console", lambda m: self.problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda error: self.problems.append(str(error)))
        page.on("websocket", self._socket)

    def _socket(self, socket: WebSocket) -> None:
        self.sockets.append(socket)
        socket.on(
            "framereceived",
            lambda payload: self.frames.append(
                payload if isinstance(payload, str) else payload.decode()
            ),
        )

    def mark_loaded(self) -> None:
        """A flag on window that any reload or navigation would wipe."""
        self.page.evaluate("window.stillTheSamePage = true")

    def was_not_reloaded(self) -> bool:
        return self.page.evaluate("window.stillTheSamePage === true")


def until(page: Page, done: Callable[[], object], timeout_ms: int = 10_000) -> None:
    """Waits for something only Python sees (socket events), letting Playwright dispatch them."""
    deadline = time.monotonic() + timeout_ms / 1000
    while not done():
        assert time.monotonic() < deadline, "timed out"
        page.wait_for_timeout(50)


def log_in(context: BrowserContext, server: AppServer, username: str) -> Watched:
    watched = Watched(context.new_page())
    page = watched.page
    page.goto(f"{server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    return watched


def open_table(watched: Watched, server: AppServer, campaign: str) -> None:
    page = watched.page
    page.goto(f"{server.url}/")
    page.get_by_role("link", name=campaign).click()
    page.get_by_role("link", name="Go to the table").click()
    expect(page.get_by_role("heading", name=campaign, level=1)).to_be_visible()
    # The socket's first message is the table state: only then is the page listening.
    until(page, lambda: watched.frames)


@contextmanager
def gm_and_alice(browser: Browser, server: AppServer) -> Iterator[tuple[Watched, Watched]]:
    """The demo's GM at a desktop and alice on her phone, each logged in in a browser of
    their own, closed afterwards."""
    gm_context = browser.new_context(**DESKTOP)
    player_context = browser.new_context(**PHONE)
    try:
        yield log_in(gm_context, server, "gm"), log_in(player_context, server, "alice")
    finally:
        gm_context.close()
        player_context.close()


def show(watched: Watched, view: str) -> None:
    """On a phone, switches the table page to one of its views (its tab bar's "Play", "Table",
    "Tools" or "Log"); a desktop shows them all at once."""
    tab = watched.page.locator(f"[data-view-tab='{view}']")
    if tab.is_visible():
        tab.click()
        expect(tab).to_have_attribute("aria-current", "true")


def use_tool(watched: Watched, tool: str) -> None:
    """Opens one of the tools ("roll", "call", "countdowns", "fight"…): on a phone its view
    first, then its tab where the tools have tabs."""
    panel = watched.page.locator(f"#tool-{tool}")
    show(watched, panel.get_attribute("data-view") or "")
    tab = watched.page.locator(f"[data-tool-tab='{tool}']")
    if tab.is_visible():
        tab.click()
    expect(panel).to_be_visible()
