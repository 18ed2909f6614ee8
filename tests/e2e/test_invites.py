"""An invite link has a Copy button that puts the link on the clipboard, and a Share button
where the browser can share (a phone's share sheet). A newcomer who opens one sees whose
campaign it is before signing up, and lands in it straight after."""

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import log_in

DUKES_SECRET = TABLES[2]


def test_the_gm_copies_an_invite_link(demo_server: AppServer, browser: Browser) -> None:
    context = browser.new_context(**DESKTOP)
    try:
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=demo_server.url)
        gm = log_in(context, demo_server, "gm")
        page = gm.page
        page.get_by_role("link", name=DUKES_SECRET.name).click()
        page.get_by_role("link", name="Invite players").click()
        page.get_by_role("button", name="Make an invite link").click()
        link = page.locator(".invite-list input").first.input_value()
        assert "/join/" in link
        copy = page.locator("button[data-copy]").first
        expect(copy).to_have_accessible_name("Copy the player link")
        copy.click()
        expect(copy).to_contain_text("Copied")
        assert page.evaluate("navigator.clipboard.readText()") == link
        # Chromium on a desktop shares nothing, so its Share button stays out of the way.
        share = page.get_by_role("button", name="Share the player link", include_hidden=True)
        expect(share.first).to_be_hidden()
        assert gm.problems == []
    finally:
        context.close()


def test_a_newcomer_on_a_phone_sees_whose_campaign_then_signs_up_into_it(
    demo_server: AppServer, browser: Browser
) -> None:
    printed = demo_server.python(
        f"""
        from campaigns.models import Campaign
        from campaigns.services import invite_create
        campaign = Campaign.objects.get(name={DUKES_SECRET.name!r})
        print(invite_create(campaign=campaign, created_by=campaign.owner).token)
        """
    )
    token = printed.strip().splitlines()[-1]
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.goto(f"{demo_server.url}/join/{token}/")
        expect(page.get_by_text("Run by gm")).to_be_visible()
        expect(page.get_by_text("a virtual tabletop for the Fudge family")).to_be_visible()
        page.get_by_role("link", name="Sign up and join").click()
        page.get_by_label("Username").fill("newcomer-from-a-link")
        page.get_by_label("Password:", exact=True).fill("a-long-fudge-phrase")
        page.get_by_label("Password confirmation").fill("a-long-fudge-phrase")
        page.get_by_role("button", name="Create account").click()
        expect(page.get_by_role("heading", name=DUKES_SECRET.name)).to_be_visible()
        expect(page.get_by_text(f"Welcome to {DUKES_SECRET.name}!").first).to_be_visible()
    finally:
        context.close()
