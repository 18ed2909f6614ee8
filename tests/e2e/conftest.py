"""Browser tests: Playwright driving Debian's Chromium against a real daphne server."""

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.server import AppServer

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


@contextmanager
def served(workdir: Path) -> Iterator[AppServer]:
    """A migrated server running on its own port and database until the block ends."""
    server = AppServer(workdir)
    server.manage("migrate", "--no-input", "-v", "0")
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
def browser():
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
    """The server with the demo logins and tables (the demo command changes nothing when run
    again, so each module may ask for it)."""
    app_server.manage("demo", "-v", "0")
    return app_server
