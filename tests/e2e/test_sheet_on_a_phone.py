"""A player on a 360 px phone builds a character: sets traits and marks a wound box."""

import re

from playwright.sync_api import expect

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


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

    # Body to Great: pick the level and set it (htmx swaps the sheet in place).
    traits = page.get_by_role("region", name="Attributes and roles")
    traits.get_by_label("Level of Body").select_option(label="Great (+3)")
    traits.get_by_role("button", name="Set Body").click()
    body = traits.get_by_role("listitem").filter(has_text="Body")
    expect(body.locator(".trait-level")).to_have_text("Great (+3)")

    # Add a role.
    traits.get_by_text("Add a role").click()
    traits.get_by_label("Name", exact=True).fill("Scholar")
    traits.get_by_label("Level", exact=True).select_option(label="Good (+2)")
    traits.get_by_role("button", name="Add", exact=True).click()
    scholar = traits.get_by_role("listitem").filter(has_text="Scholar")
    expect(scholar.locator(".trait-level")).to_have_text("Good (+2)")

    # Mark the first Scratch box of the wound track.
    scratch = page.get_by_role("button", name="Scratch box 1: clear")
    scratch.click()
    expect(page.get_by_role("button", name=re.compile("Scratch box 1: scratch"))).to_have_attribute(
        "aria-pressed", "true"
    )

    # The page survives a reload with everything saved, and fits the phone.
    page.reload()
    expect(page.get_by_role("listitem").filter(has_text="Scholar")).to_be_visible()
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
