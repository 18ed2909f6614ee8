"""The scene in three browsers, as a table plays it: the GM at a desktop prepares a scene with
three areas and a card and shows it; alice on her phone moves her PC in two taps and the GM's
desktop shows it within a second; the GM pins the card to the ford and shows it to alice
alone (bob's socket frames hold nothing of it) and full screen on her phone; alice points at
the ford and it flashes on bob's phone, the GM asks everyone to look at Wren and bob's phone
turns to him; then the GM starts a round, and a shot takes its range from the areas."""

import html
import re
import time
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from fudgetable.management.commands._demo_tables import EAST_MARCH
from tests.e2e.conftest import DESKTOP, PHONE, served
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, open_table, show, until, use_tool

JASON = EAST_MARCH.pcs["alice"].name
WREN = EAST_MARCH.pcs["bob"].name
CARD = "Tracks in the mud"


@pytest.fixture(scope="module")
def scene_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    """A server of this module's own (the scene changes the demo table's fight form), with a
    crossbow for bob's Wren: the demo's PCs carry no self-powered weapon."""
    with served(tmp_path_factory.mktemp("e2e-scene")) as server:
        server.python(
            f"""
            from characters.models import Character
            from characters.services import gear_add
            wren = Character.objects.get(name={WREN!r})
            gear_add(character=wren, kind="weapon", name="Crossbow", inj=4)
            """
        )
        yield server


def prepare_scene(gm: Page) -> None:
    """The GM's scene: three areas, Long range from the near bank to the far, who stands
    where, a card kept for the GMs; then shown to the table."""
    use_tool_page = gm.locator("#scene-tool")
    use_tool_page.get_by_role("link", name=re.compile("Prepare scenes")).click()
    gm.get_by_label("Title").fill("The ford")
    gm.get_by_role("button", name="Make the scene").click()
    expect(gm.get_by_role("heading", name="The ford", level=1)).to_be_visible()
    for name in ("Near bank", "Ford", "Far bank"):
        new_area = gm.locator("details", has=gm.locator("summary", has_text="New area"))
        if not new_area.evaluate("fold => fold.open"):
            new_area.locator("summary").click()
        new_area.get_by_label("Name").fill(name)
        new_area.get_by_role("button", name="Add the area").click()
        expect(gm.locator(".area-name", has_text=name)).to_be_visible()
    gm.get_by_label("Near bank \N{EN DASH} Far bank").select_option("L")
    gm.get_by_role("button", name="Save the ranges").click()
    bring_in = gm.locator("#figures")
    for name in (JASON, WREN):
        bring_in.get_by_label(name).check()
    bring_in.get_by_label("Standing in").select_option(label="Near bank")
    bring_in.get_by_role("button", name="Bring them in").click()
    bring_in = gm.locator("#figures")
    bring_in.get_by_label("Road bandit").check()
    bring_in.get_by_label("Standing in").select_option(label="Far bank")
    bring_in.get_by_role("button", name="Bring them in").click()
    cards = gm.locator("#card")
    cards.get_by_label("Title").fill(CARD)
    cards.get_by_label("Text").fill("Three riders went this way, one limping.")
    cards.get_by_role("button", name="Add the card").click()
    gm.get_by_role("button", name="Show it to the table").click()
    expect(gm.locator("h1 .badge")).to_have_text("the table sees it")


def area_id(page: Page, name: str) -> str:
    return str(
        page.locator(".area", has=page.locator(".area-name", has_text=name)).get_attribute("id")
    )


def test_a_scene_played_by_a_gm_at_a_desktop_and_two_players_on_phones(
    scene_server: AppServer, browser: Browser
) -> None:
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    contexts.append(browser.new_context(**PHONE))
    try:
        people = zip(contexts, ("gm", "alice", "bob"), strict=True)
        gm, alice, bob = (log_in(context, scene_server, who) for context, who in people)
        for watched in (gm, alice, bob):
            open_table(watched, scene_server, EAST_MARCH.name)
        table_url = gm.page.url
        use_tool(gm, "scenes")
        prepare_scene(gm.page)
        gm.page.goto(table_url)
        until(gm.page, lambda: gm.frames)

        # Everyone's table shows the scene as it is shown, without a reload.
        for watched in (alice, bob):
            show(watched, "scene")
            expect(watched.page.locator("#scene-heading")).to_have_text("The ford", timeout=PUSH)
            expect(watched.page.locator(".figure", has_text="Road bandit")).to_have_count(0)
        ford = area_id(gm.page, "Ford")

        # Two taps on her phone: her PC, then the ford. The GM's desktop shows it within a second.
        phone = alice.page
        phone.locator(".figure.mine .figure-button", has_text=JASON).tap()
        target = phone.locator(f"#{ford} [data-move-here]")
        expect(target).to_be_visible()
        figure = gm.page.locator(f"#{ford} .figure", has_text=JASON)
        started = time.monotonic()
        target.tap()
        figure.wait_for(timeout=PUSH)
        took = time.monotonic() - started
        assert took < 1.0, f"the move reached the GM's desktop in {took:.2f} s"
        expect(phone.locator(f"#{ford} .figure", has_text=JASON)).to_be_visible()
        expect(bob.page.locator(f"#{ford} .figure", has_text=JASON)).to_be_visible()
        # Bob may not move her PC: his figure buttons for it are not his to tap.
        expect(
            bob.page.locator(".figure", has_text=JASON).locator(".figure-button")
        ).to_be_disabled()
        # The GM drags Wren to the ford, and takes him back with the keyboard alone.
        near = area_id(gm.page, "Near bank")
        wren = gm.page.locator(".figure-button", has_text=WREN)
        wren.drag_to(gm.page.locator(f"#{ford}"))
        expect(alice.page.locator(f"#{ford} .figure", has_text=WREN)).to_be_visible(timeout=PUSH)
        gm.page.locator(".figure-button", has_text=WREN).focus()
        gm.page.keyboard.press("Enter")
        back = gm.page.locator(f"#{near} [data-move-here]")
        expect(back).to_be_visible()
        back.focus()
        gm.page.keyboard.press("Enter")
        expect(bob.page.locator(f"#{near} .figure", has_text=WREN)).to_be_visible(timeout=PUSH)

        # Pings: alice points at the ford with two taps, and it flashes on bob's phone. The GM
        # points at Wren asking everyone to look: bob, reading the log, is turned to the scene.
        phone.get_by_role("button", name="Point at…").tap()
        phone.locator(f"#{ford} .area-name").tap()
        expect(bob.page.locator(f"#{ford}")).to_have_class(re.compile("pinged"), timeout=PUSH)
        expect(bob.page.locator("#scene-ping")).to_have_text("alice points at Ford")
        show(bob, "log")
        gm.page.get_by_label("Everyone looks").check()
        gm.page.get_by_role("button", name="Point at…").click()
        gm.page.locator(".figure-button", has_text=WREN).click()
        wren_on_bob = bob.page.locator(".figure", has_text=WREN)
        expect(wren_on_bob).to_have_class(re.compile("pinged"), timeout=PUSH)
        expect(wren_on_bob).to_be_in_viewport()
        expect(bob.page.locator("#scene-ping")).to_have_text(f"gm points at {WREN}")

        # The card, to alice alone, then full screen on her phone.
        bob_frames = len(bob.frames)
        card = gm.page.locator("#scene-cards .index-card", has_text=CARD)
        card.locator("summary", has_text="Show, pin or remove").click()
        card.get_by_label("Chosen players").check()
        card.get_by_label("alice").check()
        card.get_by_label("Pinned to").select_option(label="Ford")
        card.get_by_role("button", name="Show", exact=True).click()
        expect(phone.locator("#scene-cards", has_text=CARD)).to_be_visible(timeout=PUSH)
        # Pinned, it is a link in the ford's box: the pin names the box by the id pages show.
        expect(phone.locator(f"#{ford} .area-pins .pin", has_text=CARD)).to_be_visible()
        card = gm.page.locator("#scene-cards .index-card", has_text=CARD)
        card.locator("summary", has_text="Show, pin or remove").click()
        card.get_by_role("button", name="Full screen on every phone").click()
        expect(phone.locator("dialog.handout")).to_be_visible(timeout=PUSH)
        expect(phone.locator("dialog.handout")).to_contain_text("one limping")
        phone.get_by_role("button", name="Close").tap()
        expect(phone.locator("dialog.handout")).to_be_hidden()
        # The GM sees it as the players do, and puts it away for everyone.
        gm.page.locator("dialog.handout").get_by_role("button", name="Put it away").click()
        expect(gm.page.locator("dialog.handout")).to_have_count(0, timeout=PUSH)

        # A round, and a shot whose range comes from the areas: the near bank to the far.
        gm.page.get_by_role("button", name="Start a fight round").click()
        expect(phone.locator("#scene-round")).to_contain_text("Round 1", timeout=PUSH)
        use_tool(gm, "fight")
        fight = gm.page.locator("#fight")
        fight.locator("summary", has_text="Roll a ranged exchange").click()
        fight.get_by_label("Shoots with").select_option(label=f"{WREN}: Archer, Good (+2)")
        fight.locator("#ranged-shooter").select_option(label=WREN)
        fight.get_by_label("Weapon shot or thrown").select_option(label=f"{WREN}: Crossbow (INJ 4)")
        # The bandit is one the players have not met: the GM is told the line stays theirs.
        hidden = "Road bandit (NPC, hidden: the line will be GM-only)"
        fight.locator("#ranged-target").select_option(label=hidden)
        expect(fight.get_by_label("Range")).to_have_value("scene")
        fight.get_by_role("button", name="Roll the shot").click()
        entry = gm.page.locator("#roll-log > li", has_text="Shot: Wren Ashdown at Road bandit")
        expect(entry).to_contain_text("Near bank to Far bank: Long (L)", timeout=PUSH)
        # Kept for the GMs, the shot is not counted in the round the players see either.
        expect(gm.page.locator("#scene-round")).to_contain_text("Nobody has rolled this phase")

        # Nothing of the card reached bob's socket; nothing of the hidden bandit reached either
        # player's.
        bob_saw = html.unescape("".join(bob.frames[bob_frames:]))
        assert CARD not in bob_saw and "one limping" not in bob_saw
        for watched in (alice, bob):
            boards = [
                frame
                for frame in watched.frames
                if ('id="area-' in frame or "scene-board" in frame) and 'id="roll-log"' not in frame
            ]
            assert "Road bandit" not in html.unescape("".join(boards))
            # Nor the shot's line, which names him: it went to the GMs alone.
            assert "Road bandit" not in html.unescape("".join(watched.frames))
            assert watched.problems == []

        # The GM reveals the bandit with a tap on his figure: both phones' boards show him.
        seen = {watched: len(watched.frames) for watched in (alice, bob)}
        gm.page.get_by_role("button", name="Reveal Road bandit to the players").click()
        for watched, since in seen.items():
            until(watched.page, lambda w=watched, n=since: "Road bandit" in "".join(w.frames[n:]))
        expect(
            gm.page.get_by_role("button", name="Hide Road bandit from the players")
        ).to_be_visible()
        assert gm.problems == []
    finally:
        for context in contexts:
            context.close()
