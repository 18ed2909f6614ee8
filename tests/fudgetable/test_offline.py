"""Installable and offline-readable: the manifest and its icons, the service worker served from
the root with this deploy's version, and the mark on the pages whose copy a device may keep."""

import json
import struct
import time
from pathlib import Path

import pytest
from django.contrib.sessions.models import Session
from django.contrib.staticfiles import finders
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from characters.services import character_create
from fudgetable import offline
from fudgetable.sessions import ENDS_AT

pytestmark = pytest.mark.django_db


def png_size(path: str) -> tuple[int, int]:
    header = Path(path).read_bytes()[:24]
    assert header[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", header[16:24])


def test_the_manifest_names_the_app_its_icons_and_how_it_opens(client):
    answer = client.get(reverse("manifest"))
    assert answer.status_code == 200
    assert answer["Content-Type"] == "application/manifest+json"
    manifest = json.loads(answer.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= sizes
    for name, size, _ in offline.ICONS:
        width, height = png_size(finders.find(name))
        assert f"{width}x{height}" == size
    # Light and dark theme colours for the browser's bar, on every page.
    page = client.get(reverse("login")).content.decode()
    assert f'content="{offline.THEME_LIGHT}" media="(prefers-color-scheme: light)"' in page
    assert f'content="{offline.THEME_DARK}" media="(prefers-color-scheme: dark)"' in page
    assert f'href="{reverse("manifest")}"' in page


def test_the_service_worker_is_served_from_the_root_with_this_deploys_version(client):
    answer = client.get("/sw.js")
    source = answer.content.decode()
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"]
    assert "Content-Security-Policy" in answer  # the worker runs under the strict policy too
    config = json.loads(source.split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["version"] == offline.version()
    assert config["logout"] == reverse("logout") and config["marker"] == offline.OFFLINE_COPY
    assert "/static/css/app.css" in config["pageFiles"]


def test_the_service_worker_is_served_with_the_production_static_storage(client, production_static):
    """scripts/run's storage names only the files in its manifest: asking it for the static
    folder itself answered 500, so no worker ever registered in production."""
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    config = json.loads(answer.content.decode().split("const CONFIG = ", 1)[1].split(";\n", 1)[0])
    assert config["staticUrl"] == "/static/"
    css = next(name for name in config["pageFiles"] if name.startswith("/static/css/app."))
    assert css != "/static/css/app.css"  # the manifest's name, with its hash
    for name in config["pageFiles"]:
        assert name.startswith(config["staticUrl"])
    assert client.get(reverse("login")).status_code == 200


def test_a_new_deploy_has_a_new_version(monkeypatch, tmp_path):
    before = offline.version()
    changed = tmp_path / "service_worker.js"
    changed.write_text(offline.WORKER.read_text() + "\n// a new deploy\n")
    monkeypatch.setattr(offline, "WORKER", changed)
    offline.version.cache_clear()
    try:
        assert offline.version() != before
    finally:
        offline.version.cache_clear()


def test_a_page_is_marked_as_its_persons_own_copy(client_for, campaign, owner, member, outsider):
    hero = character_create(campaign=campaign, owner=member, name="Ada")
    sheet = reverse("characters:sheet", args=[campaign.pk, hero.pk])
    for person in (owner, member):
        answer = client_for(person).get(sheet)
        assert answer[offline.OFFLINE_COPY] == str(person.pk)
    assert offline.OFFLINE_COPY not in client_for(outsider).get(sheet)
    assert offline.OFFLINE_COPY not in client_for(member).get(sheet, headers={"HX-Request": "true"})
    for page in ("dashboard", "my_characters"):
        assert client_for(member).get(reverse(page))[offline.OFFLINE_COPY] == str(member.pk)
    table = reverse("rolls:table", args=[campaign.pk])
    assert client_for(member).get(table)[offline.OFFLINE_COPY] == str(member.pk)
    # A visitor's front door, a log-in page, a form: nothing to keep.
    assert offline.OFFLINE_COPY not in client_for(outsider).get(reverse("account"))
    assert offline.OFFLINE_COPY not in Client().get(reverse("dashboard"))


def test_a_kept_page_says_when_its_persons_session_ends(client, member):
    """The worker deletes the copies past that time: a session that ended without a log-out
    leaves nothing readable on the device."""
    client.force_login(member)
    key = client.session.session_key
    ends = int(client.get(reverse("dashboard"))[offline.OFFLINE_COPY_UNTIL])
    assert abs(ends - Session.objects.get(session_key=key).expire_date.timestamp()) <= 1
    # A session that ends sooner (Django's set_expiry) says so on the next page.
    session = client.session
    session.set_expiry(60)
    session.save()
    ends = int(client.get(reverse("my_characters"))[offline.OFFLINE_COPY_UNTIL])
    assert abs(ends - (time.time() + 60)) <= 2
    # A session saved before it kept its end is given one, and saved with it.
    session = client.session
    stored = {name: value for name, value in session.load().items() if name != ENDS_AT}
    Session.objects.filter(session_key=key).update(session_data=session.encode(stored))
    cache.clear()  # the sessions' cache, which holds it as saved
    ends = int(client.get(reverse("dashboard"))[offline.OFFLINE_COPY_UNTIL])
    assert client.session[ENDS_AT] == pytest.approx(ends, abs=1)
