"""A newcomer on a phone: sign up, log out, log in, see the dashboard."""

import re

from playwright.sync_api import expect


def test_sign_up_log_in_and_see_the_dashboard_on_a_phone(app_server, phone_page):
    page = phone_page
    page.goto(f"{app_server.url}/signup/")
    page.get_by_label("Username").fill("phoebe")
    page.get_by_label("Password:", exact=True).fill("a-long-fudge-phrase")
    page.get_by_label("Password confirmation").fill("a-long-fudge-phrase")
    page.get_by_role("button", name="Create account").click()

    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()
    expect(page.get_by_text("not at any table yet")).to_be_visible()

    page.get_by_role("button", name=re.compile("Log out")).click()
    expect(page).to_have_url(re.compile("/login/"))

    page.get_by_label("Username").fill("phoebe")
    page.get_by_label("Password").fill("a-long-fudge-phrase")
    page.get_by_role("button", name="Log in").click()
    expect(page.get_by_role("heading", name="Your campaigns")).to_be_visible()

    # Phone-first: nothing scrolls sideways at 390 px, and buttons are big enough to tap.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.get_by_role("button", name=re.compile("Log out")).bounding_box()
    assert box is not None and box["height"] >= 44
    # htmx loaded under the CSP, and the browser reported no CSP or script error.
    assert page.evaluate("typeof window.htmx") == "object"
    assert page.console_problems == []
