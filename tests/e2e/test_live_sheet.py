"""The sheet and the roll meet, in two browsers: the GM marks alice's PC Hurt from a desktop
(on her sheet, or by confirming the wound of a melee exchange, then of a shot, at the table),
alice's sheet open on her phone shows it without a reload, and her next roll from that sheet
takes the seed's penalty and says so; the GM's table strip shows her Hurt too."""

import re

import pytest
from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.server import AppServer
from tests.e2e.table_pages import (
    PUSH,
    RECONNECT,
    RECONNECTING,
    SERVER_AWAY,
    gm_and_alice,
    open_table,
    until,
    use_tool,
)

LIGHTHOUSE, EAST_MARCH = TABLES[0], TABLES[1]
MARISOL = LIGHTHOUSE.pcs["alice"].name
JASON = EAST_MARCH.pcs["alice"].name
SERGEANT = "Sergeant Brannoc"
EXCHANGES = 40  # dice decide each exchange: enough that one hurts Jason all but surely


def open_sheet(page, server: AppServer, campaign: str, name: str) -> None:
    page.goto(f"{server.url}/")
    page.get_by_role("link", name=campaign).click()
    page.get_by_role("link", name="Characters", exact=True).click()
    page.get_by_role("link", name=name, exact=True).click()
    expect(page.get_by_role("heading", name=name, level=1)).to_be_visible()


def give_wounds_penalties(page, server: AppServer, campaign: str) -> None:
    """EZFudge's wounds carry no roll penalty; a table may add them (a house rule set in the
    wound track on the campaign's settings page): Hurt -1, Very Hurt -2."""
    page.goto(f"{server.url}/")
    page.get_by_role("link", name=campaign).click()
    page.get_by_role("link", name="Settings").click()
    page.get_by_label("Hurt: penalty", exact=True).fill("-1")
    page.get_by_label("Very Hurt: penalty", exact=True).fill("-2")
    page.get_by_role("button", name="Save settings").click()
    expect(page.get_by_role("heading", name=campaign, level=1)).to_be_visible()


def arm_the_sergeant(page, server: AppServer) -> None:
    """The GM gives the sergeant a crossbow on his sheet: a self-powered weapon, INJ 5 (the
    seed's "Verify the appropriate value with the gamemaster")."""
    sheet = page.context.new_page()
    sheet.goto(f"{server.url}/")
    sheet.get_by_role("link", name=EAST_MARCH.name).click()
    sheet.get_by_role("link", name="NPC roster").click()
    sheet.get_by_role("link", name=SERGEANT, exact=True).click()
    expect(sheet.get_by_role("heading", name=SERGEANT, level=1)).to_be_visible()
    sheet.get_by_text("Add armour or a weapon").click()
    sheet.locator("#gear-name").fill("Crossbow")
    sheet.locator("#gear-inj").fill("5")
    sheet.locator("#gear form").get_by_role("button", name="Add").click()
    expect(sheet.locator("#gear")).to_contain_text("Crossbow")
    sheet.close()


def test_a_wound_marked_by_the_gm_reaches_the_players_open_sheet_and_her_next_roll(
    demo_server: AppServer, browser: Browser
) -> None:
    with gm_and_alice(browser, demo_server) as (gm, alice):
        open_sheet(alice.page, demo_server, LIGHTHOUSE.name, MARISOL)
        alice.mark_loaded()
        expect(alice.page.locator("#roll-lines")).to_be_empty()
        open_table(gm, demo_server, LIGHTHOUSE.name)
        strip = gm.page.locator("#party")
        expect(strip).to_contain_text(f"{MARISOL} Injury 0/6")

        sheet = gm.page.context.new_page()
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
        assert gm.problems == [] and alice.problems == []


def test_wounds_confirmed_from_a_melee_and_a_ranged_exchange_reach_the_open_sheet(
    demo_server: AppServer, browser: Browser
) -> None:
    with gm_and_alice(browser, demo_server) as (gm, alice):
        give_wounds_penalties(gm.page, demo_server, EAST_MARCH.name)
        open_sheet(alice.page, demo_server, EAST_MARCH.name, JASON)
        alice.mark_loaded()
        expect(alice.page.locator("#roll-lines")).to_be_empty()
        arm_the_sergeant(gm.page, demo_server)
        open_table(gm, demo_server, EAST_MARCH.name)
        use_tool(gm, "fight")

        # The sergeant goes all out at Jason, who fights as a camp cook, until an exchange
        # proposes a wound with a penalty for Jason (Hurt -1 or Very Hurt -2; worse would
        # leave him no action, which the sheet tests cover).
        fight = gm.page.locator("#fight")
        level = None
        for _ in range(EXCHANGES):
            if not fight.locator("details:has(.fight-form)").evaluate("d => d.open"):
                fight.get_by_text("Roll a melee exchange").click()
            for side, who, trait in (
                ("attacker", SERGEANT, "Fighter"),
                ("defender", JASON, "Camp Cook"),
            ):
                option = fight.locator(f"#fight-{side}-trait option", has_text=f"{who}: {trait}")
                fight.locator(f"#fight-{side}-trait").select_option(option.get_attribute("value"))
            fight.locator("#fight-attacker-tactic").select_option(label="All-Out Attack")
            made = fight.locator(".made li").first
            before = made.get_attribute("id") if made.count() else ""
            fight.get_by_role("button", name="Roll the exchange").click()
            expect(made).not_to_have_id(before or "")  # the panel has come back with it
            wound = re.search(rf"^{JASON}: (Very Hurt|Hurt) \(", made.inner_text(), re.M)
            if wound:
                level = wound.group(1)
                break
        assert level, f"no exchange in {EXCHANGES} hurt {JASON}"
        fight.get_by_role("button", name=re.compile("Confirm: mark the wound")).click()
        expect(fight).to_contain_text(f"Wound marked on {JASON}")

        box = alice.page.locator(f'#tracks button[aria-label^="{level} box 1:"]')
        expect(box).to_have_attribute("aria-pressed", "true", timeout=PUSH)
        penalty = {"Hurt": -1, "Very Hurt": -2}[level]
        expect(alice.page.locator("#roll-lines")).to_contain_text(
            f"Rolls take: Wounds: {level} {penalty}"
        )
        assert alice.was_not_reloaded()
        body = alice.page.get_by_role("button", name="Roll Body")
        expect(alice.page.locator("#trait-list li", has=body)).to_contain_text(f"Takes {penalty}")
        alice.page.get_by_role("button", name="Roll Body").click()
        expect(alice.page.locator("#sheet .messages")).to_contain_text(
            f"(Wounds: {level} {penalty})"
        )

        # Then the ranged phase: the sergeant shoots Jason at Touch range with the crossbow.
        # An EZFudge foe rolls nothing: Good against Mediocre, margin 2, 2 + 5 - CPD 4 = 3,
        # another Hurt.
        fight.get_by_text("Roll a ranged exchange").click()
        shooter = fight.locator("#ranged-shooter-trait option", has_text=f"{SERGEANT}: Fighter")
        fight.locator("#ranged-shooter-trait").select_option(shooter.get_attribute("value"))
        fight.locator("#ranged-shooter-weapon").select_option(label=f"{SERGEANT}: Crossbow (INJ 5)")
        fight.locator("#ranged-target").select_option(label=JASON)
        fight.locator("#ranged-range").select_option("T")
        fight.get_by_role("button", name="Roll the shot").click()
        made = fight.locator(".made li").first
        expect(made).to_contain_text(f"Shot: {SERGEANT} at {JASON}")
        expect(made).to_contain_text(f"{SERGEANT} hits {JASON}.")
        expect(made).to_contain_text(f"{JASON}: Hurt (damage 3 = margin 2 + INJ 5")
        fight.get_by_role("button", name=re.compile("Confirm: mark the wound")).click()
        expect(fight).to_contain_text(f"Wound marked on {JASON}")
        # The first Hurt box if melee left it free, else the second (or a promotion).
        marked = alice.page.locator('#tracks button[aria-pressed="true"][aria-label*="Hurt box"]')
        expect(marked).to_have_count(2, timeout=PUSH)
        assert alice.was_not_reloaded()
        assert gm.problems == [] and alice.problems == []


@pytest.mark.browser_may_see(*SERVER_AWAY, why="the server goes down while the sheet is open")
def test_a_sheet_that_lost_its_connection_says_so_and_catches_up(
    demo_server: AppServer, browser: Browser
) -> None:
    """The server goes down while alice's sheet is open on her phone; the page says so, the
    GM's change made meanwhile shows once it is back, and the page says it is up to date."""
    with gm_and_alice(browser, demo_server) as (_, alice):
        open_sheet(alice.page, demo_server, LIGHTHOUSE.name, MARISOL)
        alice.mark_loaded()
        until(alice.page, lambda: alice.sockets)
        connection = alice.page.locator("#connection")
        demo_server.stop()
        expect(connection).to_contain_text("Connection lost: reconnecting", timeout=PUSH)
        demo_server.python(
            f"""
            from characters.models import Character
            Character.objects.filter(name={MARISOL!r}).update(fudge_points=9)
            """
        )
        demo_server.start()
        expect(alice.page.locator("#fudge-points")).to_have_text("9", timeout=RECONNECT)
        expect(connection).to_contain_text("Up to date.")
        expect(connection).to_be_hidden(timeout=PUSH)
        assert alice.was_not_reloaded()
        assert [p for p in alice.problems if not RECONNECTING.search(p)] == []
