"""The sheet and the roll meet, in two browsers: the GM marks alice's PC Hurt from a desktop,
alice's sheet open on her phone shows it without a reload, and her next roll from that sheet
takes the seed's penalty and says so; the GM's table strip shows her Hurt too."""

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, open_table

LIGHTHOUSE = TABLES[0]
MARISOL = LIGHTHOUSE.pcs["alice"].name


def open_sheet(page, server: AppServer, campaign: str, name: str) -> None:
    page.goto(f"{server.url}/")
    page.get_by_role("link", name=campaign).click()
    page.get_by_role("link", name="Characters", exact=True).click()
    page.get_by_role("link", name=name).click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def test_a_wound_marked_by_the_gm_reaches_the_players_open_sheet_and_her_next_roll(
    demo_server: AppServer, browser: Browser
) -> None:
    gm_context = browser.new_context(**DESKTOP)
    player_context = browser.new_context(**PHONE)
    try:
        gm = log_in(gm_context, demo_server, "gm")
        alice = log_in(player_context, demo_server, "alice")
        open_sheet(alice.page, demo_server, LIGHTHOUSE.name, MARISOL)
        alice.mark_loaded()
        expect(alice.page.locator("#roll-lines")).to_be_empty()
        open_table(gm, demo_server, LIGHTHOUSE.name)
        strip = gm.page.locator("#party")
        expect(strip).to_contain_text(f"{MARISOL} Injury 0/6")

        sheet = gm_context.new_page()
        open_sheet(sheet, demo_server, LIGHTHOUSE.name, MARISOL)
        # Three Scratches, then Hurt (-1): the seed's example track.
        for number in (1, 2, 3):
            sheet.get_by_role("button", name=f"Scratch box {number}: clear").click()
            expect(
                sheet.get_by_role("button", name=f"Scratch box {number}: marked")
            ).to_be_visible()
        sheet.get_by_role("button", name="Hurt box 1: clear", exact=True).click()

        hurt = alice.page.get_by_role("button", name="Hurt box 1: marked", exact=True)
        expect(hurt).to_be_visible(timeout=PUSH)
        expect(alice.page.locator("#roll-lines")).to_contain_text("Rolls take: Injury: Hurt -1")
        assert alice.was_not_reloaded()
        expect(strip).to_contain_text("Injury 4/6", timeout=PUSH)
        expect(strip).to_contain_text("Injury: Hurt -1")

        alice.page.get_by_role("button", name="Roll Athletics").click()
        expect(alice.page.locator("#sheet .messages")).to_contain_text("(Injury: Hurt -1)")
    finally:
        gm_context.close()
        player_context.close()
