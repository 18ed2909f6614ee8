"""Players act (issue #39): bob, on his phone, shoots the road bandit with Wren's short bow in
three taps (his PC's token, "Attack…", the bandit's token); the range, light and cover come from
the areas, the trait from her sheet (Archer). The GM, at a desktop, marks the wound with one
tap, and alice's phone shows the bandit's token wounded, in the track's words. Then, in a
round, the GM's exchange between two figures takes two clicks (Attack… on Jason, then Wren).
The count of taps and clicks is printed; the attack form is photographed on a phone and a
desktop."""

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.conftest import DESKTOP, PHONE, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, open_table, show, until

WREN = EAST_MARCH.pcs["bob"].name
JASON = EAST_MARCH.pcs["alice"].name
BANDIT = "Road bandit"
TRIES = 12  # dice decide each shot: enough that one wounds all but surely
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/fudgetable-shots"))
PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 740}}


@pytest.fixture(scope="module")
def attack_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The demo, with a scene shown at the East March table: Wren and Jason on the road, the
    bandit (whom the players have met) up on the hillside, Medium range away."""
    with served(tmp_path_factory.mktemp("e2e-attack")) as server:
        server.manage("demo", "-v", "0")
        server.python(
            f"""
            from campaigns.models import Campaign
            from characters.models import Character
            from rolls.scene import services as scenes
            campaign = Campaign.objects.get(name={EAST_MARCH.name!r})
            scene = scenes.scene_create(campaign=campaign, title="The old road", description="")
            road = scenes.area_create(scene=scene, name="Road")
            hill = scenes.area_create(scene=scene, name="Hillside", cover="partial")
            scenes.ranges_set(scene=scene, ranges={{(road.pk, hill.pk): "M"}})
            here = Character.objects.filter(campaign=campaign)
            bandit = here.get(name={BANDIT!r})
            bandit.revealed = True
            bandit.save(update_fields=["revealed"])
            for name, area in (({WREN!r}, road), ({EAST_MARCH.pcs["alice"].name!r}, road)):
                scenes.figure_add(scene=scene, character=here.get(name=name), area=area)
            scenes.figure_add(scene=scene, character=bandit, area=hill)
            scenes.scene_switch(campaign=campaign, scene=scene)
            """
        )
        yield server


def test_bob_shoots_the_bandit_in_three_taps_and_the_gm_marks_the_wound_in_one(
    attack_server: AppServer, browser: Browser
) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts = [
        browser.new_context(**DESKTOP),
        browser.new_context(**PHONE),
        browser.new_context(**PHONE_360),
    ]
    try:
        people = zip(contexts, ("gm", "alice", "bob"), strict=True)
        gm, alice, bob = (log_in(context, attack_server, who) for context, who in people)
        for watched in (gm, alice, bob):
            open_table(watched, attack_server, EAST_MARCH.name)
        for watched in (alice, bob):
            show(watched, "scene")
        until(gm.page, lambda: gm.frames)
        phone = bob.page
        bandit_on_alice = alice.page.locator(".figure", has_text=BANDIT)
        expect(bandit_on_alice).to_be_visible(timeout=PUSH)
        expect(bandit_on_alice.locator(".figure-state")).to_have_count(0)

        taps, tries, entry = 0, 0, None
        for tries in range(1, TRIES + 1):
            # 1: her token; 2: "Attack…"; 3: the bandit's token.
            phone.locator(".figure.mine .figure-button", has_text=WREN).tap()
            phone.locator(".figure.mine [data-attack]").tap()
            form = phone.locator("#attack-form")
            expect(form).to_be_visible()
            expect(form.get_by_label("Beyond this area: a shot")).to_have_value(re.compile(r"\d+"))
            expect(form).to_contain_text("Short bow (INJ")
            expect(form).to_contain_text("· Archer")
            if tries == 1:
                phone.screenshot(path=str(SHOTS / "attack-phone-360.png"))
            # The form stays at the foot of the screen: the bandit is scrolled clear of it.
            target = phone.locator(".figure", has_text=BANDIT).locator(".figure-button")
            target.evaluate("button => button.scrollIntoView({block: 'center'})")
            target.tap()
            taps += 3
            done = phone.locator("#scene-attack .attack-done")
            expect(done).to_contain_text(f"Shot: {WREN} at {BANDIT}", timeout=PUSH)
            if "the GM confirms it" in done.inner_text():
                entry = gm.page.locator("#roll-log > li", has_text=f"Shot: {WREN} at {BANDIT}").last
                break
            phone.locator("#scene-attack [data-attack-cancel]").tap()
            taps += 1  # closing a miss's answer
        assert entry is not None, f"no shot in {TRIES} wounded the bandit"
        phone.screenshot(path=str(SHOTS / "attack-done-phone-360.png"))

        # The line names what the areas gave: the road to the hillside, Medium, partial cover.
        expect(entry).to_contain_text("Road to Hillside: Medium (M)", timeout=PUSH)
        gm.page.screenshot(path=str(SHOTS / "attack-gm-desktop-1280.png"))
        confirm = entry.get_by_role("button", name=re.compile("Confirm: mark the wound"))
        confirm.click()
        clicks = 1
        state = bandit_on_alice.locator(".figure-state")
        expect(state).to_be_visible(timeout=PUSH)
        print(
            f"\nBoard attack: bob {3} taps for the shot that wounded "
            f"({taps} taps over {tries} shot(s)); the GM {clicks} click to mark it; "
            f"alice's board shows {BANDIT}: {state.inner_text()!r}"
        )
        # Outside a round, the GM's own exchange is three clicks: Jason's token, Attack…, Wren.
        # In a round every fighter's Attack… is on the board: two clicks, Attack… and the target.
        gm.page.get_by_role("button", name="Start a fight round").click()
        expect(alice.page.locator("#scene-round")).to_contain_text("Round 1", timeout=PUSH)
        attack = gm.page.locator(".figure", has_text=JASON).locator("[data-attack]")
        expect(attack).to_be_visible(timeout=PUSH)
        attack.click()
        expect(gm.page.locator("#attack-form")).to_be_visible()
        gm.page.screenshot(path=str(SHOTS / "attack-form-desktop-1280.png"))
        gm.page.locator(".figure", has_text=WREN).locator(".figure-button").click()
        expect(gm.page.locator("#scene-attack .attack-done")).to_contain_text(
            f"Fight: {JASON} vs {WREN}", timeout=PUSH
        )
        print("The GM's exchange between two figures in a round: 2 clicks (Attack…, target).")
        assert gm.problems == [] and alice.problems == [] and bob.problems == []
    finally:
        for context in contexts:
            context.close()
