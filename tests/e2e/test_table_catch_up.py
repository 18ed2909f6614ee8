"""No silent gaps, in a browser: an event that never reached alice's phone (dropped on the way,
as a full queue or a restarted process drops one) shows the next time the table sends her
anything, because that event's number skips one and her page asks to catch up."""

from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, gm_and_alice, open_table

OLD_CITY = TABLES[3]  # a table no other browser test plays at

DROPPED = f"""
import uuid
from django.db import transaction
from campaigns.models import Campaign
from fudgetable import live
from rolls.models import Roll

campaign = Campaign.objects.get(name={OLD_CITY.name!r})
with transaction.atomic():  # written and numbered as any event, but never sent
    Roll.objects.create(
        campaign=campaign,
        kind=Roll.Kind.ANNOUNCEMENT,
        label="Lost in transit",
        snapshot={{"lines": ["Lost in transit"]}},
        idempotency_key=uuid.uuid4().hex,
    )
    live.next_seq(campaign.pk, players=True)
"""


def test_a_dropped_event_is_caught_up_with_the_next_one(
    demo_server: AppServer, browser: Browser
) -> None:
    with gm_and_alice(browser, demo_server) as (gm, alice):
        for person in (alice, gm):
            open_table(person, demo_server, OLD_CITY.name)
        log = alice.page.locator("#roll-log")
        demo_server.python(DROPPED)
        expect(log).not_to_contain_text("Lost in transit")

        roller = gm.page.locator("#roller")
        roller.get_by_label("Kind").select_option("situational")
        if not roller.get_by_label("What the roll is for").is_visible():
            roller.get_by_text("More: advantage dice").click()
        roller.get_by_label("What the roll is for").fill("Found again")
        roller.get_by_role("button", name="Roll", exact=True).click()

        expect(log).to_contain_text("Found again", timeout=PUSH)
        expect(log).to_contain_text("Lost in transit", timeout=PUSH)
        # The table came twice: on connect, and when the skipped number asked for it.
        assert sum("data-state" in frame for frame in alice.frames) == 2
        assert log.locator("li", has_text="Found again").count() == 1
        assert alice.problems == [] and gm.problems == []
