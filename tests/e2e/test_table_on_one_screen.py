"""The table on one screen, on a busy table (60 log entries, three countdowns, a challenge, an
EZFudge fight and a call for a roll): at 1280x800 and 360x740, for the GM and a player, the page
is no taller than the window and nothing spills sideways; every tool is at most two taps from
the first paint; no target is under 24 px and axe finds nothing, in every view. A player's
phone rolls a trait, raises a hand and sees the countdowns in one tap each, and reads the
newest entry with none. The log keeps its newest entry in sight, offers the latest when its
reader has scrolled up, loads earlier entries above without moving what is read, and a tab
out of sight is badged when something arrives there."""

from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.busy_table import BUSY_TABLE
from tests.e2e.conftest import DESKTOP, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, Watched, log_in, show, until, use_tool
from tests.e2e.test_accessibility import PHONE_360, SMALL_TARGETS

SIZES = {"1280x800": DESKTOP, "360x740": PHONE_360}
AXE_OPTIONS = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}


@pytest.fixture(scope="module")
def busy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, str]]:
    """A server of this module's own with the busy table, and that table's address."""
    with served(tmp_path_factory.mktemp("e2e-one-screen")) as server:
        campaign = server.python(BUSY_TABLE).strip().splitlines()[-1]
        yield server, f"/campaigns/{campaign}/table/"


@contextmanager
def at_the_table(
    browser: Browser, server: AppServer, path: str, who: str, size: str
) -> Iterator[Watched]:
    """The person at the table in a browser of their own, its page listening on its socket."""
    context = browser.new_context(**SIZES[size])
    try:
        watched = log_in(context, server, who)
        watched.page.goto(f"{server.url}{path}")
        until(watched.page, lambda: watched.frames)  # the socket has answered
        yield watched
    finally:
        context.close()


def fits(page: Page, where: str) -> list[str]:
    """What does not fit: a page taller or wider than the window, a target under 24 px."""
    size = page.viewport_size or {"width": 0, "height": 0}
    found = []
    height, width = page.evaluate(
        "[document.documentElement.scrollHeight, document.documentElement.scrollWidth]"
    )
    if height > size["height"]:
        found.append(f"{where}: the page is {height} px tall")
    if width > size["width"]:
        found.append(f"{where}: the page is {width} px wide")
    return found + [f"{where}: {small}" for small in page.evaluate(SMALL_TARGETS)]


def violations(page: Page, where: str) -> list[str]:
    found = Axe().run(page, options=AXE_OPTIONS).response["violations"]
    return [f"{where}: {v['id']} {[n['target'] for n in v['nodes']][:3]}" for v in found]


def views_of(page: Page) -> list[str]:
    tabs = page.locator("[data-view-tab]")
    return [str(tabs.nth(n).get_attribute("data-view-tab")) for n in range(tabs.count())]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("who", ["gm", "alice"])
def test_every_tool_is_in_reach_on_one_screen(
    busy: tuple[AppServer, str], browser: Browser, who: str, size: str
) -> None:
    server, path = busy
    with at_the_table(browser, server, path, who, size) as watched:
        page = watched.page
        found = fits(page, f"{size} {who} first paint") + violations(page, f"{size} {who}")
        # Each view a phone has (a desktop shows them all at once), looked at as its user would.
        for view in views_of(page) if size == "360x740" else []:
            show(watched, view)
            found += fits(page, f"{size} {who} {view}") + violations(page, f"{size} {who} {view}")
        # Each tool, from the page as it first paints: its view, then its tab.
        tools = page.locator("[data-tool-tab]")
        keys = [str(tools.nth(n).get_attribute("data-tool-tab")) for n in range(tools.count())]
        assert keys, "no tools"
        for key in keys:
            page.evaluate("localStorage.clear()")
            start = len(watched.frames)
            page.reload()
            until(page, lambda start=start: len(watched.frames) > start)  # its socket answered
            taps = 0
            panel = page.locator(f"#tool-{key}")
            if not panel.is_visible():
                show(watched, str(panel.get_attribute("data-view")))
                taps += 1
            tab = page.locator(f"[data-tool-tab='{key}']")
            if not panel.is_visible() and tab.is_visible():
                tab.click()
                taps += 1
            expect(panel).to_be_visible()
            assert taps <= 2, f"{key}: {taps} taps"
            found += fits(page, f"{size} {who} {key}")
        assert found == [], "\n".join(found)
        assert watched.problems == []


def test_a_players_phone_rolls_raises_a_hand_and_sees_the_countdowns_in_one_tap_each(
    busy: tuple[AppServer, str], browser: Browser
) -> None:
    server, path = busy
    with at_the_table(browser, server, path, "alice", "360x740") as watched:
        page = watched.page
        # The newest entry: read at first paint, no tap.
        newest = page.locator("#roll-log > li.roll-entry").last
        box = newest.bounding_box()
        assert box is not None and 0 <= box["y"] < 740 and box["height"] > 0
        # A trait rolled: one tap.
        trait = EAST_MARCH.pcs["alice"].traits[0][0]
        page.locator("#quick-rolls").get_by_role("button", name=f"Roll {trait}").first.tap()
        expect(page.locator("#roll-outcome")).to_contain_text("You rolled:")
        # A hand raised: one tap.
        page.get_by_role("button", name="Raise my hand").tap()
        expect(page.locator("#hand")).to_contain_text("Your hand is up.")
        # The countdowns: one tap, on the Table view.
        page.locator("[data-view-tab='table']").tap()
        expect(page.locator("#countdowns")).to_be_in_viewport()
        assert watched.problems == []


def test_the_log_keeps_the_newest_in_sight_and_badges_what_arrives_out_of_sight(
    busy: tuple[AppServer, str], browser: Browser
) -> None:
    server, path = busy
    with (
        at_the_table(browser, server, path, "gm", "1280x800") as gm,
        at_the_table(browser, server, path, "alice", "360x740") as alice,
    ):
        log = gm.page.locator(".log-scroller")
        entries = gm.page.locator("#roll-log > li.roll-entry")
        expect(entries.last).to_be_in_viewport()
        count = entries.count()
        assert count == 20  # the newest page; the rest a tap away

        # Earlier entries come in above, and the entry that was first stays where it was, from
        # the first frame they are drawn in: its place is noted as the list changes, before
        # anything is painted.
        first_id = entries.first.get_attribute("id")
        first = gm.page.locator(f"#{first_id}")
        log.evaluate("log => log.scrollTop = 0")
        was = first.bounding_box()
        gm.page.evaluate(
            """id => {
                const first = document.getElementById(id);
                window.firstTops = [];
                new MutationObserver(() => window.firstTops.push(first.getBoundingClientRect().y))
                    .observe(document.getElementById("roll-log"), { childList: true });
            }""",
            first_id,
        )
        gm.page.get_by_role("link", name="Earlier entries").click()
        expect(entries).to_have_count(count + 20)
        now = first.bounding_box()
        assert was and now and abs(now["y"] - was["y"]) < 2
        tops = gm.page.evaluate("window.firstTops")
        assert tops and all(abs(top - was["y"]) < 2 for top in tops), (was["y"], tops)

        # Scrolled up, the GM is offered the latest when a roll arrives; at the bottom, it is
        # simply shown.
        start = len(gm.frames)
        alice.page.locator("#quick-rolls .quick-roll").first.tap()
        until(gm.page, lambda: any("roll-news" in f for f in gm.frames[start:]), PUSH)
        latest = gm.page.locator(".log-latest")
        expect(latest).to_be_visible()
        expect(latest).to_contain_text("(1)")
        latest.click()
        expect(latest).to_be_hidden()
        expect(entries.last).to_be_in_viewport()

        # Alice on her phone's Play view: the GM marks a countdown; her Table tab is badged,
        # and opening it clears the badge. Keys: R takes the GM to the rolls, L to the log.
        use_tool(gm, "countdowns")
        gm.page.get_by_role("button", name="Mark a box of Dawn", exact=True).click()
        badge = alice.page.locator("[data-view-tab='table'] .tab-badge")
        expect(badge).to_be_visible(timeout=PUSH)
        show(alice, "table")
        expect(badge).to_be_hidden()
        gm.page.keyboard.press("r")
        expect(gm.page.locator("#tool-roll")).to_be_visible()
        assert gm.page.evaluate(
            "document.getElementById('tool-roll').contains(document.activeElement)"
        )
        gm.page.locator("h1").click()  # out of the form field the R key went to
        gm.page.keyboard.press("l")
        expect(log).to_be_focused()
        assert gm.problems == [] and alice.problems == []


def test_without_javascript_the_phone_gets_the_long_page_and_its_links(
    busy: tuple[AppServer, str], browser: Browser
) -> None:
    server, path = busy
    context = browser.new_context(**PHONE_360, java_script_enabled=False)
    try:
        page = log_in(context, server, "alice").page
        page.goto(f"{server.url}{path}")
        for part in ("#quick-rolls", "#countdowns", "#challenges", "#spotlight", "#party"):
            expect(page.locator(part)).to_be_visible()
        expect(page.locator("#roll-log > li.roll-entry")).to_have_count(20)
        assert page.evaluate("document.documentElement.scrollHeight") > 740
        # The view links are links to the parts; the Log one jumps to the log.
        page.locator("[data-view-tab='log']").click()
        expect(page.locator("#log-heading")).to_be_in_viewport()
        earlier = page.get_by_role("link", name="Earlier entries")
        assert earlier.get_attribute("href", timeout=1000) == path.replace("table/", "table/log/")
    finally:
        context.close()
