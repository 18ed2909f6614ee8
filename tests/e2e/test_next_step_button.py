"""A player at a table without a character is offered "Make your character" as a whole button,
a thumb's 44 px tall on a phone and on a desktop, its words on one line (it was squashed to
26 px by the rule that gives a bare link its 24 px)."""

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.conftest import DESKTOP
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PASSWORD, log_in
from tests.e2e.test_sheet_on_a_phone import PHONE_360

NEWCOMER = "newcomer"


def test_make_your_character_is_a_whole_button(demo_server: AppServer, browser: Browser) -> None:
    demo_server.python(
        f"""
        from django.contrib.auth import get_user_model
        from campaigns.models import Campaign, Membership
        from campaigns.services import membership_add
        user, _ = get_user_model().objects.get_or_create(username={NEWCOMER!r})
        user.set_password({PASSWORD!r})
        user.save()
        campaign = Campaign.objects.get(name={EAST_MARCH.name!r})
        membership_add(campaign=campaign, user=user, role=Membership.Role.PLAYER)
        """
    )
    for screen in (PHONE_360, DESKTOP):
        context = browser.new_context(**screen)
        try:
            page = log_in(context, demo_server, NEWCOMER).page
            page.get_by_role("link", name=EAST_MARCH.name).click()
            button = page.get_by_role("link", name="Make your character", exact=True)
            expect(button).to_be_visible()
            box = button.bounding_box()
            assert box is not None and box["height"] >= 44, box
            # One line: no taller than the button's own minimum, and inside the screen.
            assert box["height"] < 60 and box["x"] + box["width"] <= screen["viewport"]["width"]
            button.click()
            expect(page.get_by_label("Name")).to_be_visible()
        finally:
            context.close()
