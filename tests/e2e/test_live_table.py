"""The live table in two browsers: a GM at a desktop, a player (alice) on a phone.

Everything goes through the real server: the demo command's logins and tables, then clicks.
"""

import re

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import (
    NETWORK_AWAY,
    PUSH,
    RECONNECT,
    RECONNECTING,
    SERVER_AWAY,
    Watched,
    log_in,
    open_table,
    show,
)

LIGHTHOUSE, EAST_MARCH = TABLES[0], TABLES[1]
MARISOL = LIGHTHOUSE.pcs["alice"].name
SECRET_LABEL = "Zanzibar ambush"
# The page forgets what it saw too (its table's number), so its socket cannot know what it holds.
WIPE = "for (const id of ['table-session', 'roll-log', 'presence'])"
WIPE += " document.getElementById(id).replaceChildren();"
WIPE += " document.getElementById('table-seq').removeAttribute('data-seq')"


def entry(page: Page, text: str) -> Locator:
    return page.locator("#roll-log > li").filter(has_text=text)


def situational_roll(page: Page, label: str, *, secret: bool) -> None:
    roller = page.locator("#roller")
    roller.get_by_label("Kind").select_option("situational")
    # The form keeps what was picked for the last roll, the "More" panel's state with it.
    if not roller.get_by_label("What the roll is for").is_visible():
        roller.get_by_text("More: advantage dice").click()
    roller.get_by_label("What the roll is for").fill(label)
    roller.get_by_label("Secret: only GMs see it").set_checked(secret)
    roller.get_by_role("button", name="Roll", exact=True).click()
    expect(roller.get_by_role("status")).to_contain_text(label)
    # Filling the form in asked for odds; let every request finish so none is cut by a restart.
    page.wait_for_function("() => !document.querySelector('.htmx-request')")


@pytest.mark.browser_may_see(*SERVER_AWAY, why="the server restarts while the pages are open")
def test_gm_and_phone_player_share_a_live_table_that_survives_a_server_restart(
    demo_server: AppServer, browser: Browser
) -> None:
    server = demo_server
    gm_context = browser.new_context(**DESKTOP)
    player_context = browser.new_context(**PHONE)
    try:
        gm = log_in(gm_context, server, "gm")
        table = log_in(player_context, server, "alice")
        open_table(gm, server, LIGHTHOUSE.name)
        open_table(table, server, LIGHTHOUSE.name)
        show(table, "log")
        gm.mark_loaded()
        table.mark_loaded()

        # The GM starts a session; alice's table page shows it without a reload.
        gm.page.get_by_role("button", name=re.compile(r"^Start session")).click()
        expect(gm.page.locator("#table-session")).to_contain_text("Session 1 is running")
        expect(table.page.locator("#table-session")).to_contain_text(
            "Session 1 is running", timeout=PUSH
        )

        # Alice rolls from her sheet (in a second tab); the GM's table shows it.
        sheet = Watched(player_context.new_page())
        sheet.page.goto(f"{server.url}/")
        sheet.page.get_by_role("link", name=LIGHTHOUSE.name).click()
        sheet.page.get_by_role("link", name="Characters", exact=True).click()
        sheet.page.get_by_role("link", name=MARISOL).click()
        sheet.page.get_by_role("button", name="Roll Stealth").tap()
        expect(sheet.page.get_by_role("alert")).to_contain_text(f"{MARISOL}: Stealth")
        expect(entry(gm.page, f"{MARISOL}: Stealth")).to_be_visible(timeout=PUSH)
        expect(entry(table.page, f"{MARISOL}: Stealth")).to_be_visible(timeout=PUSH)

        # The GM's secret roll: the GM sees it; alice's page and socket never carry its label.
        situational_roll(gm.page, SECRET_LABEL, secret=True)
        expect(entry(gm.page, SECRET_LABEL)).to_be_visible(timeout=PUSH)
        expect(entry(gm.page, SECRET_LABEL).locator(".badge")).to_have_text("secret")
        expect(entry(table.page, "The GM rolled")).to_be_visible(timeout=PUSH)
        assert gm.problems == [] and table.problems == [] and sheet.problems == []

        # The server restarts mid-session on the same port and SQLite file. Each page's session,
        # log and presence are wiped first, so only the state sent on reconnect can restore them.
        for watched in (gm, table):
            watched.page.evaluate(WIPE)
        sockets_before = (len(gm.sockets), len(table.sockets))
        url = server.url
        server.restart()
        assert server.url == url
        for watched in (gm, table):
            expect(entry(watched.page, f"{MARISOL}: Stealth")).to_be_visible(timeout=RECONNECT)
        assert len(gm.sockets) > sockets_before[0] and len(table.sockets) > sockets_before[1]
        expect(table.page.locator("#table-session")).to_contain_text("Session 1 is running")
        expect(entry(table.page, "The GM rolled")).to_be_visible()
        expect(entry(gm.page, SECRET_LABEL)).to_be_visible()
        expect(table.page.locator("#presence")).to_contain_text("alice")
        expect(table.page.locator("#presence")).to_contain_text("gm")

        # A roll after the restart reaches alice's table page by push.
        situational_roll(gm.page, "After the storm", secret=False)
        expect(entry(table.page, "After the storm")).to_be_visible(timeout=PUSH)
        expect(entry(gm.page, "After the storm")).to_be_visible(timeout=PUSH)

        assert gm.was_not_reloaded() and table.was_not_reloaded()
        for page in (table.page, sheet.page):
            assert SECRET_LABEL not in page.content()
        assert table.frames and not [frame for frame in table.frames if SECRET_LABEL in frame]
        assert any(SECRET_LABEL in frame for frame in gm.frames)
        for watched in (gm, table, sheet):
            assert [p for p in watched.problems if not RECONNECTING.search(p)] == []
    finally:
        gm_context.close()
        player_context.close()


@pytest.mark.browser_may_see(*NETWORK_AWAY, why="the phone goes offline and taps a roll")
def test_a_phone_player_sees_her_own_roll_in_the_roller(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(**PHONE)
    try:
        player = log_in(context, demo_server, "alice")
        open_table(player, demo_server, EAST_MARCH.name)
        # Her own traits come first on her phone, each one tap, with its odds.
        quick = player.page.locator("#quick-rolls")
        pc = EAST_MARCH.pcs["alice"].name
        trait = EAST_MARCH.pcs["alice"].traits[0][0]
        assert quick.bounding_box()["y"] < player.page.locator("#roller").bounding_box()["y"]
        button = quick.get_by_role("button", name=re.compile(f"^Roll {trait} "))
        expect(button).to_contain_text("%")
        button.tap()
        made = quick.get_by_role("status")
        expect(made).to_contain_text("You rolled:")
        expect(made).to_contain_text(f"{pc}: {trait}")
        expect(made.locator(".outcome")).to_contain_text("vs ")
        assert player.page.evaluate("document.documentElement.scrollWidth") <= 390
        first = made.locator("li").get_attribute("id")

        # The phone drops off: the tap is not sent, and the page says so instead of nothing.
        context.set_offline(True)
        button.tap()
        notice = player.page.locator("#notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text("not sent")
        # Back online, the same button rolls anew (a fresh key came with the first roll).
        context.set_offline(False)
        button.tap()
        expect(notice).to_be_hidden()
        expect(made.locator("li")).not_to_have_id(first or "")
        # The full roller is one tap away, behind More.
        player.page.get_by_text("More: opposed, situational, modifiers").tap()
        expect(player.page.locator("#roller").get_by_label("Trait")).to_be_visible()
        # htmx logs the failed send as console errors; nothing else may go wrong.
        offline = re.compile(r"ERR_INTERNET_DISCONNECTED|^htmx:(sendError|afterRequest)")
        assert [p for p in player.problems if not offline.search(p)] == []
    finally:
        context.close()
