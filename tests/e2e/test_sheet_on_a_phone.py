"""A player on a 360 px phone builds a character: sets a level, rolls, marks a wound box, each
in one tap, and the crowded demo sheet fits the height a phone scrolls comfortably."""

import re

from playwright.sync_api import Browser, Locator, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.server import AppServer
from tests.e2e.table_pages import log_in

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


class Taps:
    """Touches a thumb makes, counted as a phone takes them: a tap on a control is one; a
    choice from a list is two (the list opens, the choice is tapped) and nothing after it."""

    def __init__(self) -> None:
        self.count = 0

    def tap(self, target: Locator) -> None:
        target.tap()
        self.count += 1

    def choose(self, select: Locator, label: str) -> None:
        select.select_option(label=label)
        self.count += 2


def test_build_a_character_and_mark_a_wound_on_a_phone(app_server, browser):
    context = browser.new_context(**PHONE_360)
    page = context.new_page()
    page.set_default_timeout(10_000)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)

    page.goto(f"{app_server.url}/signup/")
    page.get_by_label("Username").fill("phone-gm")
    page.get_by_label("Password:", exact=True).fill("a-long-fudge-phrase")
    page.get_by_label("Password confirmation").fill("a-long-fudge-phrase")
    page.get_by_role("button", name="Create account").click()

    page.get_by_role("link", name="New campaign").click()
    page.get_by_label("Name").fill("Brass and Steam")
    page.get_by_label("Ruleset").select_option("ezfudge")
    page.get_by_role("button", name="Create campaign").click()
    expect(page.get_by_role("heading", name="Brass and Steam")).to_be_visible()

    page.get_by_role("link", name="Characters", exact=True).click()
    page.get_by_role("link", name="New character").click()
    page.get_by_label("Name").fill("Jason Free")
    page.get_by_role("button", name="Start building").click()
    expect(page.get_by_role("heading", name="Jason Free")).to_be_visible()
    page.wait_for_load_state()  # htmx listens from DOMContentLoaded; a thumb is slower than that

    # Each thing a player does often is one tap (or one choice from a list), counted.
    taps = Taps()
    traits = page.get_by_role("region", name="Attributes and roles")

    # Set a level: the choice saves itself (it took a third touch, "Set", before), and the
    # notice offers to undo it.
    taps.choose(traits.get_by_label("Level of Body"), "Great (+3)")
    notice = page.locator("#sheet-messages")
    expect(notice).to_contain_text("Body: Great (+3), was Fair (+1).")
    assert taps.count == 2
    taps.tap(notice.get_by_role("button", name="Undo"))
    expect(notice).to_contain_text("Body: Fair (+1), was Great (+3).")
    expect(traits.get_by_label("Level of Body")).to_have_value("1")
    taps.choose(traits.get_by_label("Level of Body"), "Great (+3)")
    expect(traits.get_by_label("Level of Body")).to_have_value("3")

    # Roll a trait: its name is the Roll button.
    taps.count = 0
    taps.tap(traits.get_by_role("button", name="Roll Body"))
    expect(page.get_by_role("alert")).to_contain_text("Jason Free: Body")
    assert taps.count == 1

    # Add a role.
    traits.get_by_text("Add a role").click()
    traits.get_by_label("Name", exact=True).fill("Scholar")
    traits.get_by_label("Level", exact=True).select_option(label="Good (+2)")
    traits.get_by_role("button", name="Add", exact=True).click()
    expect(traits.get_by_label("Level of Scholar")).to_have_value("2")
    # Its rare actions are behind its More.
    traits.get_by_label("More for Scholar").click()
    expect(traits.get_by_role("button", name="Remove Scholar")).to_be_visible()

    # Mark the first Scratch box of the wound track: one tap, from the top of the sheet.
    page.evaluate("window.scrollTo(0, 0)")
    taps.count = 0
    taps.tap(page.get_by_role("button", name="Scratch box 1: clear"))
    expect(page.get_by_role("button", name=re.compile("Scratch box 1: scratch"))).to_have_attribute(
        "aria-pressed", "true"
    )
    assert taps.count == 1

    # The page survives a reload with everything saved, and fits the phone.
    page.reload()
    expect(page.get_by_label("Level of Scholar")).to_have_value("2")
    expect(page.get_by_role("button", name=re.compile("Scratch box 1: scratch"))).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    for box in page.locator("button.box").all():
        size = box.bounding_box()
        assert size is not None and size["width"] >= 44 and size["height"] >= 44

    # "Mark finished" asks first; said no to, nothing changes.
    asked: list[str] = []

    def answer(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.once("dialog", answer)
    page.get_by_role("button", name="Mark finished").click()
    expect(page.get_by_role("button", name="Mark finished")).to_be_visible()
    assert asked == ["Mark Jason Free finished? From then on a trait rises by spending XP."]
    assert problems == []
    context.close()


# The target for the crowded demo sheet at 360x740, every section folded but the vitals
# and the traits (as a phone opens it): it was 4,528 px tall.
CROWDED_SHEET_MOST_PX = 2_500


def test_the_crowded_demo_sheet_fits_a_phone(demo_server: AppServer, browser: Browser) -> None:
    context = browser.new_context(**PHONE_360)
    try:
        page = log_in(context, demo_server, "alice").page
        page.get_by_role("link", name=EAST_MARCH.name).click()
        page.get_by_role("link", name="Characters", exact=True).click()
        page.get_by_role("link", name="Jason Free", exact=True).click()
        expect(page.get_by_role("heading", name="Jason Free", level=1)).to_be_visible()
        page.wait_for_load_state()
        folds = page.locator("details.section-fold")
        assert folds.count() >= 5
        assert page.locator("details.section-fold[open]").count() == 0
        height = page.evaluate("document.documentElement.scrollHeight")
        assert height <= CROWDED_SHEET_MOST_PX, f"{height} px"
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        # The primary controls are 44 px: each trait's Roll (its name) and each track box.
        primary = page.locator("button.trait-name, button.box").all()
        assert len(primary) > 10
        for control in primary:
            size = control.bounding_box()
            assert size is not None and size["height"] >= 44, control.inner_text()
        # The vitals stay in reach: scrolled to the bottom, the Fudge points still show.
        page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
        expect(page.locator("#fudge-points")).to_be_in_viewport()
        # A wide screen opens the sections.
        page.set_viewport_size({"width": 1280, "height": 800})
        page.reload()
        expect(page.locator("details.section-fold").first).to_have_attribute("open", "")
    finally:
        context.close()


# What the X-card's box may not cover: every control a person taps.
CONTROLS = "button, select, input:not([type=hidden]), textarea, summary, a.button, a.view-tab"

COVERED = """([controls, x]) => [...document.querySelectorAll(controls)]
  .filter(e => !e.closest('.x-card-bar'))
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width && r.height)
  .filter(([e, r]) => r.right > x.x && r.left < x.x + x.width
                   && r.bottom > x.y && r.top < x.y + x.height)
  .map(([e, r]) => e.tagName + ' ' + (e.getAttribute('aria-label') || e.textContent.trim()))"""

# Whether a tap at the X-card's middle lands on it (nothing drawn over it).
ON_TOP = """(x) => !!document.elementFromPoint(x.x + x.width / 2, x.y + x.height / 2)
  ?.closest('.x-card-button')"""


def test_the_x_card_covers_no_control_on_a_phone(demo_server: AppServer, browser: Browser) -> None:
    """The issue: the floating X-card covered the sheet's Add button and a level select at
    360 px. It rides in the sheet's sticky toolbar now (and in the table's header): its box
    meets no control, and wherever the sheet is scrolled it is there and on top."""
    for who in ("alice", "gm"):
        context = browser.new_context(**PHONE_360)
        try:
            page = log_in(context, demo_server, who).page
            page.get_by_role("link", name=EAST_MARCH.name).click()
            page.get_by_role("link", name="Characters", exact=True).click()
            page.get_by_role("link", name="Jason Free", exact=True).click()
            expect(page.get_by_role("heading", name="Jason Free", level=1)).to_be_visible()
            page.wait_for_load_state()
            x_card = page.get_by_role("button", name=re.compile("X-card"))
            # Every section open, as a person adding a role or a gift has it.
            page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
            box = x_card.bounding_box()
            assert box is not None and box["height"] >= 44
            assert page.evaluate(COVERED, [CONTROLS, box]) == [], who
            height = page.evaluate("document.documentElement.scrollHeight")
            for y in range(0, height, 300):
                page.evaluate(f"window.scrollTo(0, {y})")
                expect(x_card).to_be_in_viewport()
                assert page.evaluate(ON_TOP, x_card.bounding_box()), f"{who} at {y}"
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            # Tapped from the toolbar, its banner lands in its slot outside the sheet.
            x_card.tap()
            banner = page.get_by_role("alert").filter(has_text="The X-card was tapped")
            expect(banner).to_be_visible()
            page.get_by_role("button", name="Got it").tap()
            expect(banner).to_be_hidden()
            # The table page: the X-card in its header covers nothing either.
            page.get_by_role("link", name=EAST_MARCH.name).first.click()
            page.get_by_role("link", name="Go to the table").click()
            expect(page.get_by_role("heading", name=EAST_MARCH.name, level=1)).to_be_visible()
            x_card = page.get_by_role("button", name=re.compile("X-card"))
            box = x_card.bounding_box()
            assert box is not None and page.evaluate(ON_TOP, box)
            assert page.evaluate(COVERED, [CONTROLS, box]) == [], f"{who} at the table"
        finally:
            context.close()
