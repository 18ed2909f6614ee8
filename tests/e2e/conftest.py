"""Browser tests: Playwright driving Debian's Chromium against a real daphne server."""

import atexit
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.server import AppServer, database_copy

CHROMIUM = Path(os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium"))
# Without these, Chromium reaches for Google's hosts, which this network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 800}}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/e2e/" in str(item.path).replace(os.sep, "/"):
            item.add_marker(pytest.mark.e2e)


# The browser tests' servers run scripts/run's settings with a fast password hasher.
SETTINGS = {"DJANGO_SETTINGS_MODULE": "tests.e2e.server_settings"}


@cache
def demo_database() -> Path:
    """A database migrated and given the demo logins and tables once in each test process,
    which every server here starts from a copy of: migrating and the demo took some 10 s of
    CPU for each of the six servers of a run."""
    workdir = Path(tempfile.mkdtemp(prefix="fudgetable-demo-"))
    atexit.register(shutil.rmtree, workdir, ignore_errors=True)
    maker = AppServer(workdir, **SETTINGS)
    maker.manage("migrate", "--no-input", "-v", "0")
    maker.manage("demo", "-v", "0")
    return Path(maker.env["SQLITE_PATH"])


@contextmanager
def served(workdir: Path) -> Iterator[AppServer]:
    """A server with the demo logins and tables running on its own port and database until
    the block ends."""
    server = AppServer(workdir, **SETTINGS)
    database_copy(demo_database(), Path(server.env["SQLITE_PATH"]))
    try:
        server.start()  # a start that times out still leaves a process for stop() to end
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def app_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    with served(tmp_path_factory.mktemp("e2e")) as server:
        yield server


@pytest.fixture(scope="session")
def chromium():
    if not CHROMIUM.exists():
        message = (
            f"Chromium not found at {CHROMIUM}: `apt-get install chromium` (scripts/test does)"
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


class SeenInTheBrowser:
    """Everything that went wrong in the pages a test opened: console errors, uncaught
    exceptions, requests that failed and answers of 500 or more, each as a line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def watch(self, context: Any) -> Any:
        context.on("page", self._page)
        for page in context.pages:
            self._page(page)
        context.on("requestfailed", self._failed)
        context.on("response", self._answered)
        return context

    def _page(self, page: Any) -> None:
        page.on(
            "console",
            lambda m: self.lines.append(f"console error: {m.text}") if m.type == "error" else None,
        )
        page.on("pageerror", lambda error: self.lines.append(f"page error: {error}"))

    def _failed(self, request: Any) -> None:
        failure = request.failure or ""
        # A load the page stopped itself (a navigation away, htmx dropping a request it
        # replaced, a context closing) is no error a person sees.
        if "ERR_ABORTED" not in failure:
            self.lines.append(f"request failed: {request.method} {request.url} ({failure})")

    def _answered(self, response: Any) -> None:
        if response.status >= 500:
            self.lines.append(f"HTTP {response.status}: {response.request.method} {response.url}")


class WatchedBrowser:
    """The session's Chromium as one test sees it: every context and page it opens is watched
    (``SeenInTheBrowser``); the rest is Playwright's Browser."""

    def __init__(self, browser: Any, seen: SeenInTheBrowser) -> None:
        self._browser = browser
        self.seen = seen

    def new_context(self, **options: Any) -> Any:
        return self.seen.watch(self._browser.new_context(**options))

    def new_page(self, **options: Any) -> Any:
        page = self._browser.new_page(**options)
        self.seen.watch(page.context)
        return page

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture
def browser(chromium: Any, request: pytest.FixtureRequest) -> Iterator[WatchedBrowser]:
    """Chromium for one test, which fails at its end on anything that went wrong in its pages
    (console errors, uncaught exceptions, failed requests, answers of 500 or more) unless the
    test allows it with ``@pytest.mark.browser_may_see(pattern, …, why=…)``: only a test that
    does it on purpose (takes the server or the network away) and says so."""
    seen = SeenInTheBrowser()
    yield WatchedBrowser(chromium, seen)
    allowed = []
    for marker in request.node.iter_markers("browser_may_see"):
        assert marker.kwargs.get("why"), "browser_may_see says why the test causes it"
        allowed += [re.compile(pattern) for pattern in marker.args]
    unexpected = [line for line in seen.lines if not any(p.search(line) for p in allowed)]
    if unexpected:
        pytest.fail("the browser saw:\n" + "\n".join(unexpected), pytrace=False)


@pytest.fixture
def phone_page(browser):
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems: list[str] = []
    page.on(
        "console",
        lambda message: (
            problems.append(message.text) if message.type in {"error", "warning"} else None
        ),
    )
    page.console_problems = problems  # type: ignore[attr-defined]
    yield page
    context.close()


@pytest.fixture(scope="module")
def demo_server(app_server: AppServer) -> AppServer:
    """The server with the demo logins and tables (every server here has them: ``served``)."""
    return app_server
