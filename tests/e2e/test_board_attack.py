"""Players act (issue #39): bob, on his phone, shoots the road bandit with Wren's short bow in
three taps (his PC's token, "Attack…", the bandit's token); the range, light and cover come from
the areas, the trait from her sheet (Archer). The GM, at a desktop, marks the wound with one
tap, and alice's phone shows the bandit's token wounded, in the track's words. Then the GM's
bandit attacks Wren in melee, two clicks in a round (Attack…, her token): the attack waits for
bob, whose 360 px phone (and his desktop) shows "Road bandit attacks Wren Ashdown …: defend";
he defends in one tap, the GM marks the wound in one click, and alice never sees the card.
The count of taps and clicks is printed; the attack form and the defend card are photographed
on a phone and a desktop."""

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.conftest import DESKTOP, PHONE, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, open_table, show, until
from tests.e2e.test_accessibility import SMALL_TARGETS

WREN = EAST_MARCH.pcs["bob"].name
JASON = EAST_MARCH.pcs["alice"].name
BANDIT = "Road bandit"
TRIES = 12  # dice decide each shot: enough that one wounds all but surely
SHOTS = Path(os.environ.get("SCREENSHOTS", "/tmp/fudgetable-shots"))
PHONE_360 = {**PHONE, "viewport": {"width": 360, "height": 740}}


def card_problems(page: Page) -> list[str]:
    """What axe finds on the attacks waiting (target sizes included), and on a phone anything
    under 24x24 px there or a page wider than the screen."""
    options = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
    found = Axe().run(page, context=".attacks", options=options).response["violations"]
    problems = [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in found]
    if (page.viewport_size or {}).get("width", 0) <= 360:
        problems += [s for s in page.evaluate(SMALL_TARGETS) if "defend" in s or "attack" in s]
        if page.evaluate("document.documentElement.scrollWidth") > 360:
            problems.append("the page scrolls sideways")
    return problems


@pytest.fixture(scope="module")
def attack_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """The demo, with a scene shown at the East March table: Wren and Jason on the road, the
    bandit (whom the players have met) up on the hillside, Medium range away."""
    with served(tmp_path_factory.mktemp("e2e-attack")) as server:
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
        assert gm.problems == [] and alice.problems == [] and bob.problems == []
    finally:
        for context in contexts:
            context.close()


def test_the_gms_bandit_attacks_wren_and_bob_defends_in_one_tap(
    attack_server: AppServer, browser: Browser
) -> None:
    """In melee, in a round: the bandit comes down to the road beside Wren and Jason."""
    attack_server.python(
        f"""
        from campaigns.models import Campaign
        from rolls.scene.models import Area, Figure
        campaign = Campaign.objects.get(name={EAST_MARCH.name!r})
        road = Area.objects.get(scene__campaign=campaign, scene__current=True, name="Road")
        Figure.objects.filter(scene=road.scene, character__name={BANDIT!r}).update(area=road)
        """
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    contexts = [
        browser.new_context(**DESKTOP),
        browser.new_context(**PHONE),
        browser.new_context(**PHONE_360),
        browser.new_context(**DESKTOP),
    ]
    try:
        people = zip(contexts, ("gm", "alice", "bob", "bob"), strict=True)
        gm, alice, bob, bob_desk = (log_in(context, attack_server, who) for context, who in people)
        for watched in (gm, alice, bob, bob_desk):
            open_table(watched, attack_server, EAST_MARCH.name)
        show(alice, "scene")
        gm.page.get_by_role("button", name="Start a fight round").click()
        expect(alice.page.locator("#scene-round")).to_contain_text("Round 1", timeout=PUSH)
        phone = bob.page
        card = phone.locator("#attacks-waiting .defend-card")
        gm_card = gm.page.locator("#attacks-waiting .defend-card")
        exchange = f"Fight: {BANDIT} vs {WREN}"

        clicks, taps, tries, entry = 0, 0, 0, None
        for tries in range(1, TRIES + 1):
            # The GM's two clicks: the bandit's Attack… (every fighter's, in a round), Wren.
            attack = gm.page.locator(".figure", has_text=BANDIT).locator("[data-attack]")
            expect(attack).to_be_visible(timeout=PUSH)
            attack.click()
            expect(gm.page.locator("#attack-form")).to_be_visible()
            if tries == 1:
                gm.page.screenshot(path=str(SHOTS / "attack-form-desktop-1280.png"))
            gm.page.locator(".figure", has_text=WREN).locator(".figure-button").click()
            clicks += 2
            expect(gm.page.locator("#scene-attack .attack-done")).to_contain_text(
                f"waiting for {WREN} to defend", timeout=PUSH
            )
            expect(gm_card).to_contain_text(f"Roll for {WREN}", timeout=PUSH)
            # bob's phone, whichever view it shows: the card, one tap to defend.
            expect(card).to_contain_text(f"{BANDIT} attacks {WREN}", timeout=PUSH)
            expect(card).to_contain_text("defend")
            expect(bob_desk.page.locator("#attacks-waiting .defend-card")).to_be_visible(
                timeout=PUSH
            )
            if tries == 1:
                phone.screenshot(path=str(SHOTS / "defend-phone-360.png"))
                bob_desk.page.screenshot(path=str(SHOTS / "defend-desktop-1280.png"))
                gm.page.screenshot(path=str(SHOTS / "defend-gm-desktop-1280.png"))
                for watched in (bob, bob_desk, gm):
                    assert card_problems(watched.page) == []
            defend = card.get_by_role("button", name=re.compile(r"^Defend ·"))
            box = defend.bounding_box()
            assert box is not None and box["height"] >= 44 and box["y"] + box["height"] <= 740
            defend.tap()
            taps += 1
            expect(card).to_have_count(0, timeout=PUSH)
            expect(bob_desk.page.locator("#attacks-waiting .defend-card")).to_have_count(
                0, timeout=PUSH
            )
            expect(gm_card).to_have_count(0, timeout=PUSH)
            entry = gm.page.locator("#roll-log > li", has_text=exchange).last
            expect(entry).to_be_visible(timeout=PUSH)
            confirm = entry.get_by_role("button", name=re.compile("Confirm: mark the wound"))
            if confirm.count():
                if tries == 1:
                    phone.screenshot(path=str(SHOTS / "defend-done-phone-360.png"))
                confirm.click()
                clicks += 1
                expect(entry).not_to_contain_text("Confirm: mark the wound", timeout=PUSH)
                break
            entry = None
            gm.page.locator("#scene-attack [data-attack-cancel]").click()
        assert entry is not None, f"no exchange in {TRIES} dealt a wound"
        assert alice.page.locator(".defend-card").count() == 0
        assert not any(f"{BANDIT} attacks" in frame for frame in alice.frames)
        print(
            f"\nDefend: the GM {2} clicks to attack from the board (Attack…, target), bob {1} "
            f"tap to defend, the GM {1} click to mark the wound: {2 + 1 + 1} in all for the "
            f"exchange that wounded ({clicks} GM clicks and {taps} of bob's taps over "
            f"{tries} exchange(s))"
        )
        for watched in (gm, alice, bob, bob_desk):
            assert watched.problems == [], watched.problems
    finally:
        for context in contexts:
            context.close()
