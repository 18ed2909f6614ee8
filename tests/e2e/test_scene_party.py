"""The party on the stage, in Chromium (issue #39): a scene shown brings the PCs in, the GM's
one tap "Everyone here" stands them in the ford and alice's phone shows her PC there with the
log's line; a fight round that starts turns her phone to the scene once (not again on the
next phase, after she looks at the log), a page opened while a round runs opens on the scene,
her own choice of view is kept for after the fight, and the GM's phone is never turned."""

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.conftest import DESKTOP, PHONE, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, Watched, log_in, open_table, show, until

JASON = EAST_MARCH.pcs["alice"].name
WREN = EAST_MARCH.pcs["bob"].name


@pytest.fixture(scope="module")
def party_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The demo, its East March table showing the ford (the PCs brought in, not placed)."""
    with served(tmp_path_factory.mktemp("e2e-party")) as server:
        server.python(
            f"""
            from campaigns.models import Campaign
            from rolls.scene import services as scenes
            campaign = Campaign.objects.get(name={EAST_MARCH.name!r})
            scene = scenes.scene_create(campaign=campaign, title="The ford")
            for name in ("Near bank", "Ford", "Far bank"):
                scenes.area_create(scene=scene, name=name)
            scenes.scene_switch(campaign=campaign, scene=scene)
            """
        )
        yield server


def current_view(watched: Watched) -> str:
    return str(watched.page.locator("#table-page").get_attribute("data-view-now"))


def reopened(watched: Watched) -> None:
    frames = len(watched.frames)
    watched.page.reload()
    until(watched.page, lambda: len(watched.frames) > frames)


def test_the_party_stands_in_the_ford_and_a_fight_opens_the_phone_on_the_scene(
    party_server: AppServer, browser: Browser
) -> None:
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    contexts.append(browser.new_context(**PHONE))
    try:
        people = zip(contexts, ("gm", "alice", "gm"), strict=True)
        gm, alice, gm_phone = (log_in(context, party_server, who) for context, who in people)
        for watched in (gm, alice, gm_phone):
            open_table(watched, party_server, EAST_MARCH.name)
        phone = alice.page

        # The PCs came in with the scene, waiting; the GM's one tap stands them in the ford.
        unplaced = gm.page.locator(".unplaced .figure")
        expect(unplaced.filter(has_text=JASON)).to_be_visible()
        ford = gm.page.locator(".area", has=gm.page.locator(".area-name", has_text="Ford"))
        ford = ford.filter(has_not=gm.page.locator(".area-name", has_text="bank"))
        ford.get_by_role("button", name="Everyone here").click()
        expect(ford.locator(".figure", has_text=WREN)).to_be_visible(timeout=PUSH)
        expect(gm.page.get_by_role("button", name="Everyone here")).to_have_count(0)
        show(alice, "scene")
        her_ford = phone.locator(".area", has=phone.locator(".area-name", has_text="Ford"))
        her_ford = her_ford.filter(has_not=phone.locator(".area-name", has_text="bank"))
        expect(her_ford.locator(".figure", has_text=JASON)).to_be_visible(timeout=PUSH)
        expect(phone.get_by_role("button", name="Everyone here")).to_have_count(0)
        show(alice, "log")
        expect(phone.locator("#roll-log")).to_contain_text("The party stands at Ford.")

        # A round starts while she reads the log: her phone turns to the scene, once.
        show(gm_phone, "log")
        gm.page.get_by_role("button", name="Start a fight round").click()
        expect(phone.locator("[data-view-tab='scene']")).to_have_attribute(
            "aria-current", "true", timeout=PUSH
        )
        expect(phone.locator("#scene-round .round-now")).to_be_in_viewport()
        show(alice, "log")
        gm.page.get_by_role("button", name="Next phase").click()
        expect(phone.locator("#scene-round .phases .now")).to_have_text(
            "Ranged phase", timeout=PUSH
        )
        assert current_view(alice) == "log"
        # The GM's own phone is never turned.
        expect(gm_phone.page.locator("#scene-round .phases .now")).to_have_text("Ranged phase")
        assert current_view(gm_phone) == "log"

        # Opened while the round runs, her table page shows the scene first; the GM's does not.
        reopened(alice)
        assert current_view(alice) == "scene"
        expect(phone.locator("#scene-heading")).to_be_in_viewport()
        reopened(gm_phone)
        assert current_view(gm_phone) == "log"

        # Her own choice (the log) is kept for after the fight.
        gm.page.get_by_role("button", name="End the fight").click()
        expect(phone.locator("#scene-round .round-now")).to_have_count(0, timeout=PUSH)
        reopened(alice)
        assert current_view(alice) == "log"
        for watched in (gm, alice, gm_phone):
            assert watched.problems == []
    finally:
        for context in contexts:
            context.close()
