"""Every page, checked by axe-core in Chromium at a phone's 360x740 and a desktop's 1280x800, as
the GM, as a player and logged out, at a table with a session running: no violation of any
impact, colour contrast and WCAG 2.2's target size included. Then the phone's layout: no page
scrolls sideways, and nothing a thumb can tap is under 24x24 CSS px (stricter than axe, which
lets a small target pass when it has room around it).

axe is run with Playwright's ``page.evaluate`` (axe-playwright-python), which the DevTools
protocol runs outside the page's Content-Security-Policy: the CSP stays as it is served, and
nothing in it is loosened for the test."""

import json
from collections.abc import Iterator

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP
from tests.e2e.server import AppServer
from tests.e2e.table_pages import log_in

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
VIEWPORTS = {"360x740": PHONE_360, "1280x800": DESKTOP}
# A table no other browser test plays at, so its running session changes nothing of theirs.
DUKES_SECRET = TABLES[2]
EAST_MARCH = TABLES[1]
OTHER_TABLES = [table.name for table in TABLES if table is not DUKES_SECRET]

PAGES = f"""
import json
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.urls import reverse
from django.utils.http import urlsafe_base64_encode
from campaigns.models import Campaign
from campaigns.services import invite_create
from characters.models import Character
from rolls.models import PlaySession
from rolls.sessions.services import session_start

campaign = Campaign.objects.get(name={DUKES_SECRET.name!r})
if not PlaySession.objects.filter(campaign=campaign, ended_at__isnull=True).exists():
    session_start(campaign=campaign)
c = campaign.pk
pc = Character.objects.get(campaign=campaign, owner__username="alice", kind="pc").pk
npc = Character.objects.filter(campaign=campaign, kind="npc").first().pk
invite = invite_create(campaign=campaign, created_by=campaign.owner)
# A scene shown at the table, with a hidden area: its pages and its place on the table's.
from rolls.scene import services as scenes
scene = campaign.scenes.first() or scenes.scene_create(campaign=campaign, title="The study")
if not scene.areas.exists():
    study = scenes.area_create(scene=scene, name="Study", light="dim", notes="Ledgers")
    scenes.area_create(scene=scene, name="Hidden stair", hidden=True)
    scenes.figure_add(scene=scene, character=Character.objects.get(pk=pc), area=study)
    scenes.scene_switch(campaign=campaign, scene=scene)
# The other rulesets' tables bring their own panels: EZFudge's fight and medical care, Fate's
# challenges, Peupfudge's contest of many, Fudge Lite's countdowns.
others = {{t: Campaign.objects.get(name=t).pk for t in {OTHER_TABLES!r}}}
ez = others[{EAST_MARCH.name!r}]
jason = Character.objects.get(campaign_id=ez, owner__username="alice", kind="pc").pk
tables = [reverse("rolls:table", args=[pk]) for pk in others.values()]
bob = User.objects.get(username="bob")
bob_id = urlsafe_base64_encode(str(bob.pk).encode())
bob_token = default_token_generator.make_token(bob)
new_password = reverse("password_reset_confirm", args=[bob_id, bob_token])
from campaigns.accounts.email_change import confirm_token
new_address = reverse(
    "account_email_confirm", args=[confirm_token(user=bob, email="bob@new.example.org")]
)
shared = [
    reverse("dashboard"),
    reverse("account"),
    reverse("campaigns:detail", args=[c]),
    reverse("rolls:table", args=[c]),
    reverse("rolls:log", args=[c]),
    reverse("characters:list", args=[c]),
    reverse("characters:sheet", args=[c, pc]),
    reverse("characters:create", args=[c]),
    reverse("my_characters"),
    reverse("campaigns:table_aid", args=[c]),
]
print(json.dumps({{
    "gm": shared + [
        reverse("campaigns:settings", args=[c]),
        reverse("campaigns:session_zero", args=[c]),
        reverse("campaigns:invites", args=[c]),
        reverse("campaigns:create"),
        reverse("campaign_restore"),
        reverse("characters:roster", args=[c]),
        reverse("characters:sheet", args=[c, npc]),
        reverse("characters:copy", args=[c, npc]),
        reverse("characters:roster_copy", args=[c]),
        reverse("rolls:scenes", args=[c]),
        reverse("rolls:scene_edit", args=[c, scene.pk]),
        *tables,
    ],
    "alice": shared + [
        *tables,
        reverse("rolls:medical_care", args=[ez, jason]),
        reverse("password_reset_complete"),
        reverse("characters:copy", args=[ez, jason]),
    ],
    "": [
        reverse("dashboard"),  # the front door
        reverse("join", args=[invite.token]),
        reverse("login"),
        reverse("signup"),
        reverse("password_reset"),
        reverse("password_reset_done"),
        new_password,  # a good link: the form for a new password
        reverse("password_reset_confirm", args=[bob_id, "used-up"]),
        new_address,  # the link that confirms a new e-mail address
    ],
}}))
"""


@pytest.fixture(scope="module")
def pages(demo_server: AppServer) -> dict[str, list[str]]:
    """The pages each person reaches, by username ("" is logged out)."""
    printed = demo_server.python(PAGES)
    return json.loads(printed.strip().splitlines()[-1])


def visits(
    browser: Browser, server: AppServer, pages: dict[str, list[str]]
) -> Iterator[tuple[str, str, str, Page]]:
    """Each page at each viewport, loaded and settled, as whom."""
    for viewport, options in VIEWPORTS.items():
        for username, paths in pages.items():
            context = browser.new_context(**options)
            try:
                page = log_in(context, server, username).page if username else context.new_page()
                for path in paths:
                    page.goto(f"{server.url}{path}")
                    page.wait_for_load_state("networkidle")
                    yield viewport, username or "logged out", path, page
            finally:
                context.close()


# Every visible control, with its size: a link, a button, a field, a disclosure's summary.
SMALL_TARGETS = """() => [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')]
  .filter(e => e.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(e => [e, e.getBoundingClientRect()])
  .filter(([e, r]) => r.width < 24 || r.height < 24)
  .map(([e, r]) => `${e.outerHTML.slice(0, 80)}: ${Math.round(r.width)}x${Math.round(r.height)}`)
"""


def test_every_page_passes_axe_and_fits_a_phone(
    demo_server: AppServer, browser: Browser, pages: dict[str, list[str]]
) -> None:
    """One visit a page and size, to keep CI short: axe at both sizes, the layout at 360."""
    axe = Axe()
    found = []
    options = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
    for viewport, who, path, page in visits(browser, demo_server, pages):
        where = f"{viewport} {who} {path}"
        for violation in axe.run(page, options=options).response["violations"]:
            targets = [node["target"] for node in violation["nodes"]][:3]
            found.append(f"{where}: {violation['id']} ({violation['impact']}) {targets}")
        if viewport == "360x740":
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > 360:
                found.append(f"{where}: {width} px wide")
            found += [f"{where}: {small}" for small in page.evaluate(SMALL_TARGETS)]
    assert found == [], "\n".join(found)
