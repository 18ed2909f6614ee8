"""A log-out in another tab closes the table's socket in this one at once, and the page says
why instead of promising a reconnect: before, the tab logged out still heard the GM's secret
rolls 34 s later."""

import os

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, open_table

OLD_CITY = TABLES[3]


def test_a_log_out_in_another_tab_closes_this_tabs_table_and_says_why(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(**PHONE)
    try:
        alice = log_in(context, demo_server, "alice")
        open_table(alice, demo_server, OLD_CITY.name)
        other_tab = context.new_page()
        other_tab.goto(f"{demo_server.url}/account/")
        other_tab.get_by_role("button", name="Log out").click()

        notice = alice.page.locator("#notice")
        expect(notice).to_contain_text("You are not logged in any more", timeout=PUSH)
        expect(alice.page.locator("#connection")).to_have_text("Disconnected.")
        if shots := os.environ.get("SCREENSHOTS"):
            alice.page.screenshot(path=f"{shots}/table-let-go-phone.png")
        alice.page.wait_for_timeout(1_500)
        assert len(alice.sockets) == 1  # closed on purpose: not tried again
        assert alice.problems == []
    finally:
        context.close()
