"""Table talk in three browsers: the GM at a desktop, alice and bob on phones. The GM whispers
alice, and bob's screen never shows it (nor do his socket's frames); alice answers in
character; bob mentions her, and her Log tab says so; bob types "/r Athletics", and the result
shows with his sheet's line in every log."""

from playwright.sync_api import Browser, Page, expect

from tests.e2e.conftest import DESKTOP, PHONE
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PUSH, Watched, log_in, show, until

WHISPER = "The ring is fake"

SEED = """
from campaigns.models import Membership
from campaigns.services import campaign_create
from characters.models import Feature, Trait
from characters.services import character_create
from django.contrib.auth.models import User

people = {name: User.objects.get(username=name) for name in ("gm", "alice", "bob")}
campaign = campaign_create(owner=people["gm"], name="Talk at the ford", ruleset="fudge-lite")
for name, pc in (("alice", "Marisol"), ("bob", "Tobin")):
    Membership.objects.create(campaign=campaign, user=people[name], role="player")
    character = character_create(campaign=campaign, owner=people[name], name=pc)
    if not character.traits.filter(name="Athletics").exists():
        Trait.objects.create(character=character, kind="trait", name="Athletics", level=2)
Feature.objects.create(
    character=character, kind="gift", name="Long legs", target="Athletics", amount=1
)
print(campaign.pk)
"""


def at_table(watched: Watched, server: AppServer, campaign_id: str) -> None:
    watched.page.goto(f"{server.url}/campaigns/{campaign_id}/table/")
    until(watched.page, lambda: watched.frames)  # the table state: the socket is listening


def send(page: Page, line: str) -> None:
    composer = page.locator("#talk-line")
    composer.fill(line)
    composer.press("Enter")
    expect(composer).to_have_value("", timeout=PUSH)  # emptied once the table took it


def test_a_whisper_an_answer_in_character_and_a_typed_roll_at_one_table(
    demo_server: AppServer, browser: Browser
) -> None:
    server = demo_server
    campaign_id = server.python(SEED).strip()
    contexts = [browser.new_context(**DESKTOP), browser.new_context(**PHONE)]
    contexts.append(browser.new_context(**PHONE))
    try:
        gm = log_in(contexts[0], server, "gm")
        alice = log_in(contexts[1], server, "alice")
        bob = log_in(contexts[2], server, "bob")
        for watched in (gm, alice, bob):
            at_table(watched, server, campaign_id)
        show(alice, "log")
        show(bob, "log")

        # The GM whispers alice: picked in the composer's fold, sent with Enter.
        gm.page.get_by_text("To everyone").click()
        gm.page.locator("#talk-to").get_by_label("alice").check()
        expect(gm.page.locator("#talk-to summary")).to_contain_text("Whisper to alice")
        send(gm.page, WHISPER)
        expect(alice.page.locator("#roll-log")).to_contain_text(WHISPER, timeout=PUSH)
        expect(gm.page.locator("#roll-log")).to_contain_text("whispered to alice")

        # Alice answers in character (her PC is who she speaks as first).
        expect(alice.page.locator("#talk-as")).to_have_value(
            alice.page.locator("#talk-as option").first.get_attribute("value") or ""
        )
        send(alice.page, "Then we *run*.")
        for watched in (gm, alice, bob):
            said = watched.page.locator("#roll-log > li").filter(has_text="Then we run.")
            expect(said).to_contain_text("Marisol", timeout=PUSH)

        # A mention of alice badges her Log tab while she looks at another view.
        show(alice, "play")
        send(bob.page, "@alice look out")
        badge = alice.page.locator('[data-view-tab="log"] .tab-badge')
        expect(badge).to_have_class("tab-badge tab-badge-mention", timeout=PUSH)
        expect(badge).to_be_visible()
        show(alice, "log")

        # Bob rolls his trait as words; every log shows it with his sheet's line.
        send(bob.page, "/r Athletics")
        for watched in (gm, alice, bob):
            rolled = watched.page.locator("#roll-log > li").filter(has_text="Tobin: Athletics")
            expect(rolled).to_contain_text("From the sheet: Long legs", timeout=PUSH)

        # A wrong line is answered under bob's composer in words, and kept for him to mend.
        bob.page.locator("#talk-line").fill("/r Juggling")
        bob.page.locator("#talk-line").press("Enter")
        expect(bob.page.locator("#talk-answer")).to_contain_text("trait called Juggling")
        expect(bob.page.locator("#talk-line")).to_have_value("/r Juggling")

        # Bob's screen never showed the whisper, nor did any frame his socket received.
        expect(bob.page.locator("body")).not_to_contain_text(WHISPER)
        assert not any(WHISPER in frame for frame in bob.frames)
        assert any(WHISPER in frame for frame in alice.frames)
        for watched in (gm, alice, bob):
            assert not watched.problems, watched.problems
    finally:
        for context in contexts:
            context.close()
