"""Whispers on phones 360 px wide: alice picks bob in the composer (the picker fits the screen
and names him with his PC), whispers, and the picker is back to everyone, so her next line
reaches carol; bob taps Reply on the whisper and his answer reaches alice alone. A typed roll
offers its Fudge point under the composer, and spending it takes one from the sheet."""

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, log_in, show
from tests.e2e.test_table_talk import at_table, send

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
WHISPER = "Meet me by the well"
REPLY = "On my way, alone"

SEED = """
from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.models import Trait
from characters.services import character_create
from django.contrib.auth.models import User

if not User.objects.filter(username="carol").exists():
    User.objects.create_user("carol", password="fudge-demo")
people = {name: User.objects.get(username=name) for name in ("gm", "alice", "bob", "carol")}
campaign = campaign_create(owner=people["gm"], name="Whispers at the well", ruleset="fudge-lite")
for name, pc in (("alice", "Marisol"), ("bob", "Tobin"), ("carol", "Wren")):
    Membership.objects.create(campaign=campaign, user=people[name], role="player")
    character = character_create(campaign=campaign, owner=people[name], name=pc)
    if not character.traits.filter(name="Athletics").exists():
        Trait.objects.create(character=character, kind="trait", name="Athletics", level=1)
print(campaign.pk)
"""


def fits(page: Page, selector: str) -> None:
    """The element is wholly inside the viewport's width: nothing of it is cut off."""
    box = page.locator(selector).bounding_box()
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (box, width)


def test_a_whisper_then_everyone_and_a_reply_on_phones(
    demo_server: AppServer, browser: Browser
) -> None:
    server = demo_server
    campaign_id = server.python(SEED).strip()
    contexts = [browser.new_context(**DESKTOP)]
    contexts += [browser.new_context(**PHONE_360) for _ in range(3)]
    try:
        gm, alice, bob, carol = (
            log_in(context, server, name)
            for context, name in zip(contexts, ("gm", "alice", "bob", "carol"), strict=True)
        )
        for watched in (gm, alice, bob, carol):
            at_table(watched, server, campaign_id)
        for watched in (alice, bob, carol):
            show(watched, "log")

        # Alice picks bob, named as the table knows him; the picker fits her screen.
        page = alice.page
        page.locator("#talk-to summary").click()
        expect(page.locator("#talk-to fieldset")).to_be_visible()
        fits(page, "#talk-to fieldset")
        page.locator("#talk-to").get_by_label("bob (Tobin)").check()
        expect(page.locator("#talk-to summary")).to_contain_text("Whisper to bob (Tobin)")
        send(page, WHISPER)
        expect(bob.page.locator("#roll-log")).to_contain_text(WHISPER, timeout=PUSH)

        # The picker is back to everyone, and says so; her next line reaches carol.
        expect(page.locator("#talk-to summary")).to_have_text("To everyone")
        expect(page.locator("#talk-to")).not_to_have_class("fold-menu composer-to whispering")
        expect(page.locator("#talk-to input:checked")).to_have_count(0)
        expect(page.locator("#talk-answer")).to_contain_text("Your next line goes to everyone")
        send(page, "Lovely weather, everyone")
        expect(carol.page.locator("#roll-log")).to_contain_text("Lovely weather", timeout=PUSH)
        expect(gm.page.locator("#roll-log")).to_contain_text("Lovely weather", timeout=PUSH)

        # Bob taps Reply on the whisper: his composer whispers to alice, and only to her.
        whisper = bob.page.locator("#roll-log > li").filter(has_text=WHISPER)
        whisper.get_by_role("button", name="Reply").click()
        expect(bob.page.locator("#talk-to summary")).to_have_text("Whisper to alice (Marisol)")
        expect(bob.page.locator("#talk-line")).to_be_focused()
        send(bob.page, REPLY)
        expect(alice.page.locator("#roll-log")).to_contain_text(REPLY, timeout=PUSH)
        expect(bob.page.locator("#talk-to summary")).to_have_text("To everyone")
        # Carol (and the GM: whispers between players are theirs) never saw either.
        send(carol.page, "MARKER from carol")
        for watched in (gm, carol):
            expect(watched.page.locator("#roll-log")).to_contain_text("MARKER", timeout=PUSH)
            for words in (WHISPER, REPLY):
                expect(watched.page.locator("body")).not_to_contain_text(words)
                assert not any(words in frame for frame in watched.frames)
        # Nobody but its people is offered a Reply; alice can answer bob's reply in turn.
        expect(carol.page.locator(".talk-reply")).to_have_count(0)
        expect(alice.page.locator(".talk-reply")).to_have_count(2)

        # A typed roll: the Fudge point is offered under alice's composer, and spent there.
        send(page, "/r Athletics vs Superb")
        rolled = page.locator("#talk-rolled")
        expect(rolled).to_contain_text("Spend a Fudge point of Marisol's")
        rolled.get_by_role("button", name="+1").click()
        expect(rolled).to_contain_text("Marisol: Athletics (Fudge point)")
        expect(gm.page.locator("#roll-log")).to_contain_text(
            "Marisol: Athletics (Fudge point)", timeout=PUSH
        )
        rolled.get_by_role("button", name="Close").click()  # put away once she is done
        expect(rolled).to_be_hidden()
        for watched in (gm, alice, bob, carol):
            assert not watched.problems, watched.problems
    finally:
        for context in contexts:
            context.close()
