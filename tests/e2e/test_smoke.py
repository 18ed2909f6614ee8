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


def test_a_swap_writes_no_inline_style_the_csp_refuses(app_server, phone_page):
    """Our scripts size things through the CSSOM (talk.js's growing line), which the CSP
    allows; htmx's settle used to copy such a style onto the element swapped in as a style
    attribute, which the CSP refused: a console error at each such swap under scripts/run."""
    page = phone_page
    page.goto(f"{app_server.url}/login/")
    page.evaluate(
        """() => {
          const holder = document.createElement('div');
          holder.id = 'holder';
          holder.innerHTML = '<p id="sized">before</p>';
          document.getElementById('main').appendChild(holder);
          document.getElementById('sized').style.height = '3em';
          htmx.swap('#holder', '<p id="sized">after</p>', {swapStyle: 'innerHTML'});
        }"""
    )
    expect(page.locator("#sized")).to_have_text("after")
    page.wait_for_timeout(100)  # past htmx's settle (20 ms), where the style was copied
    assert page.console_problems == []  # and the browser fixture checks every error
