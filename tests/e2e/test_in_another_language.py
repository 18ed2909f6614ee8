"""The pages in Brazilian Portuguese, whose words run longer than English: axe finds nothing on
them, the table's among them, no page scrolls sideways at 360 px and no target shrinks under
24x24 px; a player whose browser speaks English switches their pages to Portuguese on the
Account page; and at a table whose GM picked French, a player reading Portuguese and a GM
reading English see one log, in French. Set SHOTS_DIR to keep a screenshot of each."""

import json
import os
import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, BrowserContext, Page, expect

from fudgetable.management.commands._demo_tables import TABLES
from tests.e2e.conftest import DESKTOP
from tests.e2e.server import AppServer
from tests.e2e.table_pages import PASSWORD, Watched, log_in, until
from tests.e2e.test_accessibility import SMALL_TARGETS

PHONE_360 = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
VIEWPORTS = {"360x740": PHONE_360, "1280x800": DESKTOP}
TABLE = TABLES[0]

PAGES = f"""
import json
from django.urls import reverse
from campaigns.models import Campaign
from characters.models import Character

campaign = Campaign.objects.get(name={TABLE.name!r})
c = campaign.pk
pc = Character.objects.filter(campaign=campaign, owner__username="alice", kind="pc").first()
npc = Character.objects.filter(campaign=campaign, kind="npc").first()
print(json.dumps({{
    "alice": [
        reverse("account"),
        reverse("dashboard"),
        reverse("campaigns:detail", args=[c]),
        reverse("characters:list", args=[c]),
        reverse("characters:sheet", args=[c, pc.pk]),
        reverse("my_characters"),
        reverse("campaigns:table_aid", args=[c]),
        reverse("rolls:table", args=[c]),
    ],
    "gm": [
        reverse("campaigns:settings", args=[c]),
        reverse("characters:roster", args=[c]),
        reverse("characters:sheet", args=[c, npc.pk]),
        reverse("campaigns:invites", args=[c]),
        reverse("campaigns:session_zero", args=[c]),
        reverse("rolls:table", args=[c]),
    ],
    "": [reverse("dashboard"), reverse("login"), reverse("signup"), reverse("password_reset")],
}}))
"""


@pytest.fixture(scope="module")
def pages(demo_server: AppServer) -> dict[str, list[str]]:
    printed = demo_server.python(PAGES)
    return json.loads(printed.strip().splitlines()[-1])


def log_in_in_portuguese(context: BrowserContext, server: AppServer, username: str) -> Page:
    page = context.new_page()
    page.goto(f"{server.url}/login/")
    expect(page.get_by_role("heading", name="Entrar")).to_be_visible()
    page.locator("#id_username").fill(username)
    page.locator("#id_password").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    expect(page.get_by_role("heading", name="Suas campanhas")).to_be_visible()
    return page


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("SHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_the_pages_in_portuguese_pass_axe_and_fit_a_phone(
    demo_server: AppServer, browser: Browser, pages: dict[str, list[str]]
) -> None:
    axe = Axe()
    found = []
    options = {"resultTypes": ["violations"], "rules": {"target-size": {"enabled": True}}}
    for viewport, size in VIEWPORTS.items():
        for username, paths in pages.items():
            context = browser.new_context(locale="pt-BR", **size)
            try:
                page = (
                    log_in_in_portuguese(context, demo_server, username)
                    if username
                    else context.new_page()
                )
                for path in paths:
                    page.goto(f"{demo_server.url}{path}")
                    page.wait_for_load_state("networkidle")
                    where = f"{viewport} {username or 'logged out'} {path}"
                    assert page.locator("html").get_attribute("lang") == "pt-br", where
                    for violation in axe.run(page, options=options).response["violations"]:
                        targets = [node["target"] for node in violation["nodes"]][:3]
                        found.append(f"{where}: {violation['id']} {targets}")
                    if viewport == "360x740":
                        width = page.evaluate("document.documentElement.scrollWidth")
                        if width > 360:
                            found.append(f"{where}: {width} px wide")
                        found += [f"{where}: {small}" for small in page.evaluate(SMALL_TARGETS)]
                    name = path.strip("/").replace("/", "-") or "home"
                    shot(page, f"i18n-pt-{username or 'visitor'}-{name}-{viewport}")
            finally:
                context.close()
    assert found == [], "\n".join(found)


def test_a_player_switches_their_pages_to_portuguese_on_the_account_page(
    demo_server: AppServer, browser: Browser
) -> None:
    context = browser.new_context(locale="en-US", **PHONE_360)
    try:
        page = log_in(context, demo_server, "bob").page
        page.goto(f"{demo_server.url}/account/")
        page.get_by_label("Language of these pages").select_option("pt-br")
        page.get_by_role("button", name="Save language").click()
        expect(page.get_by_role("heading", name="Sua conta", level=1)).to_be_visible()
        expect(page.get_by_text("Idioma salvo.")).to_be_visible()
        page.get_by_role("link", name="Campanhas").click()
        expect(page.get_by_role("heading", name="Suas campanhas")).to_be_visible()
        # Back to the browser's language, so the demo login reads English for other tests.
        page.goto(f"{demo_server.url}/account/")
        page.get_by_label("Idioma destas páginas").select_option("")
        page.get_by_role("button", name="Salvar idioma").click()
        expect(page.get_by_role("heading", name="Your account", level=1)).to_be_visible()
    finally:
        context.close()


LANGUAGE_OF_THE_TABLE = """
from campaigns.models import Campaign
Campaign.objects.filter(name={name!r}).update(language={language!r})
"""


def test_a_player_reading_portuguese_and_the_gm_english_see_one_log_in_french(
    demo_server: AppServer, browser: Browser, pages: dict[str, list[str]]
) -> None:
    """The GM picked French for the table: what it pushes, and the log each page draws, is in
    French, so everyone reads the same log; each person's own page speaks their language."""
    table = pages["alice"][-1]
    demo_server.python(LANGUAGE_OF_THE_TABLE.format(name=TABLE.name, language="fr"))
    gm_context = browser.new_context(locale="en-US", **DESKTOP)
    player_context = browser.new_context(locale="pt-BR", **PHONE_360)
    try:
        gm = log_in(gm_context, demo_server, "gm")
        alice = Watched(log_in_in_portuguese(player_context, demo_server, "alice"))
        for watched in (gm, alice):
            watched.page.goto(f"{demo_server.url}{table}")
            until(watched.page, lambda w=watched: w.frames)  # its socket is listening
        expect(gm.page.get_by_role("heading", name="Roll", exact=True)).to_be_attached()
        expect(alice.page.get_by_role("heading", name="Rolagem", exact=True)).to_be_attached()

        # Her quick roll, in her words; its entry, pushed to both screens, in the table's.
        trait = TABLE.pcs["alice"].traits[0][0]
        quick = alice.page.locator("#quick-rolls")
        quick.get_by_role("button", name=re.compile(f"^Rolar {trait} ")).tap()
        for watched in (gm, alice):
            entry = watched.page.locator("#roll-log > li").filter(has_text=trait).last
            expect(entry.locator(".outcome")).to_contain_text("contre ")
            expect(entry.locator(".outcome")).to_contain_text("marge")
        # The log drawn again with the page, as a reload or another device draws it.
        gm.page.reload()
        logged = gm.page.locator("#roll-log > li").filter(has_text=trait).last
        expect(logged.locator(".outcome")).to_contain_text("marge")
        expect(gm.page.get_by_role("heading", name="Roll", exact=True)).to_be_attached()
        shot(alice.page, "i18n-table-pt-player-fr-table-360x740")
        shot(gm.page, "i18n-table-en-gm-fr-table-1280x800")
        assert gm.problems == [] and alice.problems == []
    finally:
        gm_context.close()
        player_context.close()
        demo_server.python(LANGUAGE_OF_THE_TABLE.format(name=TABLE.name, language="en"))
