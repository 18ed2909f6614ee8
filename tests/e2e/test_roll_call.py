"""The GM calls for a roll of two PCs with a hidden difficulty from a desktop; alice's phone
shows the call at the top of her table and she rolls in one tap; the GM's card fills in."""

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, gm_and_alice, open_table, use_tool

LIGHTHOUSE = TABLES[0]
MARISOL, TOM = LIGHTHOUSE.pcs["alice"].name, LIGHTHOUSE.pcs["bob"].name


def test_the_gm_calls_two_pcs_and_the_phone_rolls_in_one_tap(
    demo_server: AppServer, browser: Browser
) -> None:
    with gm_and_alice(browser, demo_server) as (gm, alice):
        open_table(gm, demo_server, LIGHTHOUSE.name)
        open_table(alice, demo_server, LIGHTHOUSE.name)
        alice.mark_loaded()

        # The GM calls from the Call tool; the answers fill the card in the centre.
        use_tool(gm, "call")
        form = gm.page.locator("#roll-call-make")
        form.get_by_label(MARISOL).check()
        form.get_by_label(TOM).check()
        form.get_by_label("Trait (blank: each picks)").fill("Stealth")
        form.get_by_label("Difficulty", exact=True).select_option(label="Great (+3)")
        form.get_by_label("Keep the difficulty hidden").check()
        form.get_by_role("button", name="Call for the roll").click()
        card = gm.page.locator("#roll-calls")
        expect(card.locator("#roll-call-list")).to_contain_text(f"{TOM}: waiting")

        roll = alice.page.get_by_role("button", name=f"Roll Stealth for {MARISOL}")
        expect(roll).to_be_visible(timeout=PUSH)
        expect(alice.page.locator("#my-calls")).to_contain_text("against a difficulty the GM keeps")
        expect(alice.page.locator("#my-calls")).not_to_contain_text(TOM)
        roll.click()
        expect(alice.page.locator("#my-calls")).to_contain_text(f"{MARISOL} rolled")
        assert alice.was_not_reloaded()

        answered = card.locator("li").filter(has_text=MARISOL)
        expect(answered).not_to_contain_text("waiting", timeout=PUSH)
        expect(answered.locator("strong")).to_be_visible()
        expect(card.locator("li").filter(has_text=TOM)).to_contain_text("waiting")
