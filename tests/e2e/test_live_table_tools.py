"""The live table's tools in two browsers: the spotlight, countdowns and the X-card, between a
GM at a desktop and a player (alice) on a phone, all without a reload.

What a player may not see is checked on her page and on every frame her socket received.
"""

import html
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP, PHONE, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, Watched, log_in, open_table, show, until, use_tool

LIGHTHOUSE = TABLES[0]  # the Fudge Lite table
MARISOL = LIGHTHOUSE.pcs["alice"].name
TIDE = "The tide rises"
PATIENCE = "Zanzibar's patience"
GM_ONLY = "Quillmoth's hidden ledger"


@pytest.fixture(scope="module")
def table_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A server of this module's own: the test starts session 1 of the demo table, which the
    other table test expects to start itself, whichever runs first."""
    with served(tmp_path_factory.mktemp("e2e-tools")) as server:
        yield server


def seen(watched: Watched, start: int = 0) -> list[str]:
    """The frames received since frame ``start``, unescaped so names read as typed."""
    return [html.unescape(frame) for frame in watched.frames[start:]]


def pushed(watched: Watched, text: str, start: int) -> None:
    """Waits for a frame after ``start`` carrying ``text``, so the next click is not on a
    list the push is about to replace."""
    until(watched.page, lambda: any(text in frame for frame in seen(watched, start)), PUSH)


def countdown(page: Page, name: str) -> Locator:
    return page.locator("#countdown-list li[id^='countdown-']").filter(has_text=name)


def boxes(row: Locator, name: str, marked: int, of: int) -> Locator:
    return row.get_by_role("img", name=f"{name}: {marked} of {of} boxes marked", exact=True)


def make_countdown(gm: Watched, name: str, count: int, who_sees: str) -> str:
    """The GM makes a countdown from the table's card; its row's DOM id."""
    start = len(gm.frames)
    card = gm.page.locator("#countdowns")
    card.locator("summary", has_text="New countdown").click()
    card.get_by_label("Name", exact=True).fill(name)
    card.get_by_label("Boxes", exact=True).fill(str(count))
    card.get_by_label("Who sees it", exact=True).select_option(label=who_sees)
    card.get_by_role("button", name="Make the countdown").click()
    pushed(gm, name, start)
    row = countdown(gm.page, name)
    expect(row).to_be_visible()
    return str(row.get_attribute("id"))


def mark(gm: Watched, name: str, marked: int, of: int) -> None:
    """The GM marks the next box and waits until the push says it is marked."""
    start = len(gm.frames)
    row = countdown(gm.page, name)
    row.get_by_role("button", name=f"Mark a box of {name}", exact=True).click()
    pushed(gm, f"{name}: {marked} of {of} boxes marked", start)
    expect(boxes(countdown(gm.page, name), name, marked, of)).to_be_visible()


def rows_in(watched: Watched, dom_id: str, start: int = 0) -> list[str]:
    """The countdown's row as each frame since ``start`` carried it (a row holds no nested
    list item, so its first closing tag ends it)."""
    row = re.compile(rf'<li id="{dom_id}">(.*?)</li>', re.DOTALL)
    return [found.group(1) for frame in seen(watched, start) if (found := row.search(frame))]


def test_spotlight_countdowns_and_x_card_reach_a_phone_player_without_a_reload(
    table_server: AppServer, browser: Browser
) -> None:
    server = table_server
    gm_context = browser.new_context(**DESKTOP)
    player_context = browser.new_context(**PHONE)
    try:
        gm = log_in(gm_context, server, "gm")
        table = log_in(player_context, server, "alice")
        open_table(gm, server, LIGHTHOUSE.name)
        open_table(table, server, LIGHTHOUSE.name)
        gm.mark_loaded()
        table.mark_loaded()

        # Spotlight shares are counted while a session runs.
        gm.page.get_by_role("button", name="Start session 1").click()
        expect(gm.page.locator("#table-session")).to_contain_text("Session 1 is running")
        expect(table.page.locator("#table-session")).to_contain_text(
            "Session 1 is running", timeout=PUSH
        )

        # Alice raises her hand; the GM sees her waiting.
        hand = table.page.locator("#hand")
        hand.get_by_role("button", name="Raise my hand").tap()
        expect(hand).to_contain_text("Your hand is up.")
        gm_spotlight = gm.page.locator("#spotlight")
        expect(gm_spotlight.locator(".waiting-list")).to_contain_text(
            f"alice ({MARISOL})", timeout=PUSH
        )

        # The GM hands the spotlight to her PC: her page says so and her hand comes down.
        gm_spotlight.get_by_role("button", name=MARISOL, exact=True).click()
        spotlight = table.page.locator("#spotlight")
        expect(spotlight).to_contain_text(f"The spotlight is on {MARISOL}", timeout=PUSH)
        expect(spotlight.locator(".waiting-list")).to_have_text("No hand is up.")
        expect(hand.get_by_role("button", name="Raise my hand")).to_be_visible(timeout=PUSH)
        expect(gm_spotlight.get_by_role("button", name=MARISOL, exact=True)).to_have_attribute(
            "aria-pressed", "true"
        )
        shares = gm_spotlight.locator(".spotlight-shares")
        expect(shares).to_contain_text("Share of the spotlight in session")
        expect(shares.get_by_role("listitem").filter(has_text=f"{MARISOL}:")).to_contain_text("%")
        expect(table.page.locator(".spotlight-shares")).to_have_count(0)

        # A public countdown: made and marked by the GM, seen filling on alice's phone.
        use_tool(gm, "countdowns")
        show(table, "table")
        make_countdown(gm, TIDE, 4, "Everyone sees it")
        expect(boxes(countdown(table.page, TIDE), TIDE, 0, 4)).to_be_visible(timeout=PUSH)
        mark(gm, TIDE, 1, 4)
        tide = countdown(table.page, TIDE)
        expect(boxes(tide, TIDE, 1, 4)).to_be_visible(timeout=PUSH)
        expect(tide.locator(".box")).to_have_count(4)
        expect(tide.locator(".box-marked")).to_have_count(1)
        expect(tide.get_by_role("button")).to_have_count(0)

        # A hidden-progress countdown: alice sees its name, never its boxes.
        player_start = len(table.frames)
        patience_id = make_countdown(gm, PATIENCE, 3, "Players see it exists, not how full")
        patience = table.page.locator(f"#{patience_id}")
        expect(patience).to_contain_text(PATIENCE, timeout=PUSH)
        expect(patience).to_contain_text("Progress hidden")
        mark(gm, PATIENCE, 1, 3)
        mark(gm, PATIENCE, 2, 3)
        # Its creation reaches alice, carrying the row without its boxes; its marks send her
        # nothing (counting identical frames would tell her how full it is: checked below).
        until(table.page, lambda: len(rows_in(table, patience_id, player_start)) >= 1, PUSH)
        expect(patience).to_contain_text("Progress hidden")
        expect(patience.locator(".box, .boxes, [role=img], button")).to_have_count(0)
        assert "box" not in patience.inner_html().lower()
        assert not [row for row in rows_in(table, patience_id) if "box" in row.lower()]
        assert not [f for f in seen(table) if f"{PATIENCE}:" in f]  # "<name>: 2 of 3 boxes…"
        assert [row for row in rows_in(gm, patience_id) if "box-marked" in row]  # the GM's do

        # A GM-only countdown: the GM makes and marks it; alice's page and socket never hear of
        # it (the X-card push below comes after it, so anything sent her way would be in).
        gm_only_id = make_countdown(gm, GM_ONLY, 5, "GM only")
        mark(gm, GM_ONLY, 1, 5)
        expect(countdown(gm.page, GM_ONLY)).to_contain_text("GM only")

        # The X-card: alice taps it; the GM's page shows the banner, naming nobody.
        gm_start = len(gm.frames)
        table.page.get_by_role("button", name=re.compile(r"X-card")).tap()
        expect(table.page.locator("#x-card")).to_contain_text("The X-card was tapped")
        banner = gm.page.locator("#x-card")
        expect(banner).to_be_visible(timeout=PUSH)
        expect(banner).to_contain_text("The X-card was tapped")
        pushed(table, 'id="x-card"', player_start)
        # Pushed after the marks, so any frame they sent alice would be in by now.
        assert len(rows_in(table, patience_id, player_start)) == 1
        assert "alice" not in banner.inner_html().lower()
        assert MARISOL not in banner.inner_html()
        x_card_frames = [f for f in seen(gm, gm_start) + seen(table) if 'id="x-card"' in f]
        assert x_card_frames
        for frame in x_card_frames:
            assert "alice" not in frame.lower() and MARISOL not in frame

        assert GM_ONLY not in html.unescape(table.page.content())
        assert not [f for f in seen(table) if GM_ONLY in f or f'id="{gm_only_id}"' in f]
        assert not [f for f in seen(table) if "Share of the spotlight" in f]
        assert any(GM_ONLY in frame for frame in seen(gm))
        assert gm.was_not_reloaded() and table.was_not_reloaded()
        assert gm.problems == [] and table.problems == []
    finally:
        gm_context.close()
        player_context.close()
