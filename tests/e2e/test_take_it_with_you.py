"""Taken along: the app installs (Chromium's own check), a sheet opened once reads offline and
says so, catches up when the network is back and is forgotten at log-out; sheets, NPCs and the
table aid print on as few A4 pages as they should, with no control's words on the paper."""

import io
import re
import tempfile
import time

import pytest
from playwright.sync_api import Browser, Page, expect
from pypdf import PdfReader

from fudgetable.management.commands._demo_tables import EAST_MARCH, TABLES
from fudgetable.rules.rulesets import resolve
from fudgetable.rules.table_aid import table_aid
from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.server import AppServer
from tests.e2e.table_pages import NETWORK_AWAY, PASSWORD

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
OLD_CITY = TABLES[3]  # alice's Dana Sharpe there is no other browser test's sheet

# A box the GM marks on Dana's sheet while alice is offline, taken back afterwards.
MARK = """
from characters import services
from characters.models import Character
dana = Character.objects.get(name="Dana Sharpe")
services.track_set_box(character=dana, track="injury", box=0, marked={marked})
"""


# Offline on purpose: loads fail, and a page with no copy is the worker's "Offline" page (503).
# The copy's socket fails too, and htmx logs its error event (as "[object Event]").
OFFLINE = (
    *NETWORK_AWAY,
    r"^HTTP 503: GET ",
    r"^console error: Failed to load resource: the server responded with a status of 503",
    r"^console error: \[object Event\]$",
)


def log_in(page: Page, server: AppServer, username: str) -> None:
    page.goto(f"{server.url}/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()


def kept_pages(page: Page) -> list[str]:
    return page.evaluate(
        """async () => {
          const found = [];
          for (const name of await caches.keys()) {
            if (!name.startsWith('fudgetable-pages-')) continue;
            const cache = await caches.open(name);
            found.push(...(await cache.keys()).map(r => new URL(r.url).pathname));
          }
          return found;
        }"""
    )


@pytest.mark.browser_may_see(*OFFLINE, why="the phone goes offline on purpose")
def test_it_installs_and_a_sheet_reads_offline_until_log_out(
    demo_server: AppServer, browser: Browser
) -> None:
    # Installing needs a profile of its own: Chromium never installs from an incognito one,
    # which a Playwright context is.
    with tempfile.TemporaryDirectory() as profile:
        context = browser.browser_type.launch_persistent_context(
            profile, executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, **PHONE_360
        )
        browser.seen.watch(context)  # type: ignore[attr-defined]
        try:
            page = context.pages[0]
            page.set_default_timeout(10_000)
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            log_in(page, demo_server, "alice")
            assert page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)") == (
                f"{demo_server.url}/"
            )
            devtools = context.new_cdp_session(page)
            assert devtools.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
            assert devtools.send("Page.getAppManifest")["errors"] == []

            page.get_by_role("link", name="My characters").click()
            page.get_by_role("link", name="Dana Sharpe", exact=True).click()
            expect(page.get_by_role("heading", name="Dana Sharpe", level=1)).to_be_visible()
            sheet = page.url.removeprefix(demo_server.url)
            assert sheet in kept_pages(page)

            context.set_offline(True)
            page.reload()
            bar = page.locator("#offline-bar")
            expect(bar).to_contain_text(re.compile(r"^Offline: as of .+\."))
            expect(page.get_by_role("heading", name="Dana Sharpe", level=1)).to_be_visible()
            expect(page.get_by_role("button", name="Spend 1")).to_be_disabled()
            expect(page.get_by_role("button", name="Minor injury box 1: clear")).to_be_disabled()
            # Typed offline, kept: in its field, and for the page the network brings back.
            page.get_by_text("Description and notes", exact=True).click()
            page.get_by_role("textbox", name="Private notes").fill("The Duke's ring was a copy.")

            demo_server.python(MARK.format(marked=True))  # the GM, meanwhile
            context.set_offline(False)
            # Back online, the page caught up from the network: the copy asks for its page and
            # reloads when it answers, a second ask if the worker was still offline a moment.
            expect(bar).to_have_count(0, timeout=15_000)
            expect(
                page.get_by_role("button", name=re.compile(r"Minor injury box 1: marked"))
            ).to_be_visible()
            expect(page.get_by_role("button", name="Spend 1")).to_be_enabled()
            expect(page.locator("#notice")).to_contain_text("What you typed while offline")
            expect(page.get_by_role("textbox", name="Private notes")).to_have_value(
                "The Duke's ring was a copy."
            )

            # Somebody else on this device (alice's session ended without a log-out): the
            # first page kept for bob drops every copy of alice's.
            context.clear_cookies()
            log_in(page, demo_server, "bob")
            assert sorted(kept_pages(page)) == ["/", "/offline-copies-belong-to"]
            # Log-out forgets the copies: offline, the sheet is no longer there to read.
            page.get_by_role("button", name="Log out").click()
            expect(page.get_by_role("heading", name="Log in")).to_be_visible()
            assert kept_pages(page) == []
            context.set_offline(True)
            page.goto(f"{demo_server.url}{sheet}")
            expect(page.get_by_role("heading", name="Offline")).to_be_visible()
            expect(page.get_by_text("Dana Sharpe")).to_have_count(0)
            assert errors == []
        finally:
            demo_server.python(MARK.format(marked=False))
            context.close()


@pytest.mark.browser_may_see(*OFFLINE, why="the phone goes offline on purpose")
def test_a_copy_is_not_readable_once_its_session_ended_without_a_log_out(
    demo_server: AppServer, browser: Browser
) -> None:
    """Bob never logs out; his session runs out. Offline, his copies were readable while it
    lived, and are gone (deleted, not merely hidden) once it ended."""
    context = browser.new_context(**PHONE_360)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, demo_server, "bob")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.get_by_role("link", name="My characters").click()
        expect(page.get_by_role("heading", name="My characters")).to_be_visible()
        # His session is near its end (Django's set_expiry, as a short session has), and
        # the server restarts so that it reads it from the database, not its memory.
        key = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
        said = demo_server.python(
            f"""
            from fudgetable.sessions import ENDS_AT, SessionStore
            session = SessionStore({key!r})
            session.set_expiry(20)
            session.save()
            print(session[ENDS_AT])
            """
        )
        ends_at = int(said.split()[-1])
        demo_server.restart()
        page.reload()  # online: the page says when the session ends, and is kept
        expect(page.get_by_role("heading", name="My characters")).to_be_visible()
        assert "/characters/" in kept_pages(page)

        context.set_offline(True)
        page.reload()
        expect(page.locator("#offline-bar")).to_contain_text("Offline: as of")
        expect(page.get_by_role("heading", name="My characters")).to_be_visible()

        page.wait_for_timeout(max(0, ends_at + 1 - time.time()) * 1000)
        page.reload()
        expect(page.get_by_role("heading", name="Offline")).to_be_visible()
        expect(page.get_by_text("no page is kept on this device")).to_be_visible()
        assert kept_pages(page) == []
    finally:
        context.close()


def pdf_of(page: Page) -> tuple[int, str]:
    """The page printed on A4 as Chromium prints it: its page count and its words."""
    reader = PdfReader(io.BytesIO(page.pdf(format="A4")))
    return len(reader.pages), "\n".join(p.extract_text() for p in reader.pages)


# Every control the page shows, by its words: none may reach the paper. (The sheet's links to
# its own sections are named as the sections' headings, which do.)
CONTROL_WORDS = r"""() => [...document.querySelectorAll(
    'button:not(.box):not(.trait-name), a.button, nav:not(.sheet-nav) a,' +
    ' details:not(.section-fold) > summary')]
  .map(e => e.innerText.trim().split('\n')[0]).filter(t => t.length > 3)"""


def printed_sheets(page: Page, server: AppServer, player: str) -> dict[str, tuple[int, str]]:
    """Each of ``player``'s sheets (or, for the GM, an NPC of each table), as printed."""
    log_in(page, server, player)
    page.get_by_role("link", name="My characters").click()
    links = page.locator(".card-link[href*='/characters/']")
    sheets = {link.inner_text(): link.get_attribute("href") for link in links.all()}
    printed = {}
    for name, href in sheets.items():
        page.goto(f"{server.url}{href}")
        expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
        expect(page.get_by_role("button", name="Print")).to_be_visible()
        controls = page.evaluate(CONTROL_WORDS)
        assert "Log out" in controls and any("Spend 1" in c for c in controls)
        pages, words = pdf_of(page)
        leaked = [c for c in controls if c in words]
        assert leaked == [], f"{name}: {leaked}"
        assert not re.search(r"\bRoll\b", words), name
        printed[name] = (pages, words)
    return printed


def test_sheets_print_on_a_page_with_no_controls(demo_server: AppServer, browser: Browser) -> None:
    context = browser.new_context(**PHONE_360)  # the sections start folded: they print anyway
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        printed = printed_sheets(page, demo_server, "alice")
        crowded = EAST_MARCH.pcs["alice"].name
        assert printed[crowded][0] <= 2
        assert {name: pages for name, (pages, _) in printed.items()} == dict.fromkeys(printed, 1)
        assert all(table.pcs["alice"].name in printed for table in TABLES)
        words = printed[crowded][1]
        for drawn in ("Great (+3)", "Scratch", "Near Death", "Adventurer's pack"):
            assert drawn in words

        # The Print button opens the sheet's sections for the paper, and closes them after.
        page.evaluate("window.dispatchEvent(new Event('beforeprint'))")
        expect(page.locator("details.section-fold:not([open])")).to_have_count(0)
        page.evaluate("window.dispatchEvent(new Event('afterprint'))")
        expect(page.locator("details.section-fold[open]")).to_have_count(0)
    finally:
        context.close()


def test_an_npc_and_each_tables_aid_print_on_one_page(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(**PHONE_360)
    try:
        page = context.new_page()
        page.set_default_timeout(10_000)
        log_in(page, demo_server, "gm")
        for table in TABLES:
            page.get_by_role("link", name=table.name).click()
            page.get_by_role("link", name="NPC roster").click()
            npc = page.locator("#npc-list .card-link").first
            name = npc.inner_text()
            npc.click()
            expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()
            expect(page.get_by_role("button", name="Print")).to_be_visible()
            assert pdf_of(page)[0] == 1, table.name

            page.goto(demo_server.url)
            page.get_by_role("link", name=table.name).click()
            page.get_by_role("link", name="Table aid").click()
            expect(page.get_by_role("heading", name=f"Table aid: {table.name}")).to_be_visible()
            pages, words = pdf_of(page)
            assert pages == 1, table.name
            aid = table_aid(resolve(table.ruleset, dict(table.overrides)))
            for odds in aid.dice[0].odds:
                assert f"{odds.percent:.1f}%" in words
            assert all(use in words for use in aid.fudge_point_uses)
            assert "Print" not in words and "Back to the campaign" not in words
            page.goto(demo_server.url)
    finally:
        context.close()
