"""What the app accepts, it can always export and restore: Hypothesis fills a campaign through
the app's own forms (its name and pitch, GM moves, session zero, a PC's profile, a roll and its
GM note, a countdown) with any text a browser can send, NUL bytes, line separators, marks and
emoji included. Whatever the forms refuse is refused in words (never a 500); whatever they
accept backs up, restores through the restore page, and backs up again as the same document.

Before, GM moves saved with a NUL byte made the campaign's own backup unrestorable, and a log
entry restored on SQLite with a lone surrogate made its export answer 500 for good.
"""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from campaigns.models import Campaign, SessionZero
from characters.models import Character
from rolls.models import Roll
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
# Any text a browser can send in a form: every code point but the surrogates, which no
# encoding of a form can carry (the socket's JSON can, and is held to the rule: see
# tests/rolls/test_socket_commands_strict.py).
ANY = st.characters(exclude_categories=["Cs"])
EDGES = st.sampled_from(["\x00", "\t", "\r\n", "\r", "\x85", "\u2028", "\u202e", "e\u0301", "🎲"])
RAW = st.lists(st.one_of(ANY, EDGES), max_size=12).map("".join)
# Mostly text the rule keeps, so that most examples get past the forms to the backup.
KEPT = st.text(st.characters(exclude_categories=["Cs", "Cc"]), min_size=1, max_size=12)
TEXT = st.one_of(KEPT, KEPT, KEPT, RAW)
LINES = st.lists(TEXT, max_size=3).map("\n".join)


def answered(response) -> int:
    """A form's answer: a refusal is in words, never a 500."""
    assert response.status_code < 500, response.content[:500]
    return response.status_code


def fill(client, texts: dict[str, str]) -> Campaign:
    """The campaign the forms make of ``texts``: each form posted as a GM's browser would,
    keeping whatever it accepts."""
    new = {"name": texts["name"], "pitch": texts["pitch"], "ruleset": "fudge-lite"}
    if answered(client.post(reverse("campaigns:create"), new)) != 302:
        client.post(reverse("campaigns:create"), {**new, "name": "Refused", "pitch": ""})
    campaign = Campaign.objects.latest("pk")
    pk = campaign.pk
    answered(client.post(reverse("campaigns:gm_moves", args=[pk]), {"moves": texts["moves"]}))
    zero = SessionZero.objects.get_or_create(campaign=campaign)[0]
    zero_form = {"lines": texts["lines"], "veils": texts["veils"], "version": zero.version}
    answered(client.post(reverse("campaigns:session_zero", args=[pk]), zero_form))
    pc_form = {"name": texts["pc"]}
    if answered(client.post(reverse("characters:create", args=[pk]), pc_form)) == 302:
        pc = Character.objects.filter(campaign=campaign).latest("pk")
        profile = {
            "name": pc.name,
            "description": texts["description"],
            "notes": texts["notes"],
            "mass_scale": 0,
            "version": pc.version,
        }
        answered(client.post(reverse("characters:profile", args=[pk, pc.pk]), profile))
    roll = {"kind": "reaction", "label": texts["label"], "key": fresh_key()}
    if answered(client.post(reverse("rolls:roll", args=[pk]), roll, headers=HX)) == 200:
        made = Roll.objects.filter(campaign=campaign).latest("pk")
        url = reverse("rolls:note", args=[pk, made.pk])
        answered(client.post(url, {"note": texts["note"]}, headers=HX))
    countdown = {"name": texts["countdown"], "boxes": 3, "outcome": texts["outcome"]}
    countdown["visibility"] = "public"
    answered(client.post(reverse("rolls:countdown_create", args=[pk]), countdown, headers=HX))
    return campaign


def backup_of(client, campaign: Campaign) -> dict:
    response = client.get(reverse("campaign_export", args=[campaign.pk]))
    assert response.status_code == 200
    document = json.loads(response.content)
    del document["exported_at"]
    return document


FIELDS = ["name", "pitch", "moves", "lines", "veils", "pc", "description", "notes"]
FIELDS += ["label", "note", "countdown", "outcome"]
MANY_LINES = {"moves", "lines", "veils", "pitch", "notes"}


@settings(
    max_examples=20,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    texts=st.fixed_dictionaries(
        {
            field: LINES if field in {"moves", "lines", "veils", "pitch", "notes"} else TEXT
            for field in FIELDS
        }
    )
)
def test_any_campaign_the_forms_accept_restores_to_the_same_document(owner, client_for, texts):
    client = client_for(owner)
    campaign = fill(client, texts)
    before = backup_of(client, campaign)
    upload = SimpleUploadedFile("backup.json", json.dumps(before).encode())
    restored = client.post(reverse("campaign_restore"), {"file": upload})
    assert restored.status_code == 302, restored.context and restored.context["problems"]
    again = Campaign.objects.latest("pk")
    assert again.pk != campaign.pk
    assert backup_of(client, again) == before
    event(f"{len(before['log'])} log entries, {len(before['characters'])} characters")
