"""What the app accepts, it can always export and restore: Hypothesis fills a campaign through
the app's own forms (its name and pitch, GM moves, session zero, a PC's profile, a roll and its
GM note, a countdown) with any text a browser can send, NUL bytes, line separators, marks and
emoji included. Whatever the forms refuse is refused in words (never a 500); whatever they
accept backs up, restores through the restore page, and backs up again as the same document.

Before, GM moves saved with a NUL byte made the campaign's own backup unrestorable, and a log
entry restored on SQLite with a lone surrogate made its export answer 500 for good.

The second property plays a table through its pages too: scenes with a backdrop or none, their
areas, the ranges between them, figures, cards (to the GMs, everyone, or a player) with
pictures, messages and whispers (to the GMs, from a GM, and between players, which the GMs'
backup leaves out). Before, ranges were written in the order of the text of their rows' ids,
so the new ids of a restore reordered them ("10-11" sorts before "9-10").
"""

import io
import json

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from PIL import Image

from campaigns.models import Campaign, Membership, SessionZero
from characters.models import Character
from fudgetable.rules import areas as area_rules
from fudgetable.shown_ids import AREA
from rolls.models import Roll
from rolls.scene.models import Card, Scene
from tests.factories import MembershipFactory
from tests.rolls.backup.test_campaign_backup import join_everyone
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
# Any text a browser can send in a form: every code point but the surrogates, which no
# encoding of a form can carry (the socket's JSON can, and is held to the rule: see
# tests/rolls/table/test_socket_commands_strict.py).
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


# A table: up to two scenes of up to five areas, ranges between them, cards and talk. Its names
# are mostly ones the forms keep, so that most examples get to the backup with a scene.
NAME = st.one_of(*[KEPT.filter(str.strip)] * 3, TEXT)
RANGE_KEYS = [scale.key for scale in area_rules.ranges_for("fudge-lite")]
PAIRS = 10  # of five areas
CARD = st.fixed_dictionaries(
    {
        "title": NAME,
        "text": LINES,
        "area": st.integers(0, 5),  # its area's place in the scene; past the last, none
        "shown": st.sampled_from(["gm", "everyone", "some"]),
        "picture": st.booleans(),
    }
)
SCENE = st.fixed_dictionaries(
    {
        "title": NAME,
        "backdrop": st.booleans(),
        "areas": st.lists(NAME, min_size=2, max_size=5),
        # Each pair of areas in turn: a range, or "" for none set.
        "ranges": st.lists(st.sampled_from([*RANGE_KEYS, ""]), min_size=PAIRS, max_size=PAIRS),
        "figures": st.booleans(),
        "cards": st.lists(CARD, max_size=3),
        "show": st.booleans(),
    }
)
TALK = st.lists(
    st.tuples(st.sampled_from(["say", "to-gms", "from-gm", "between"]), NAME),
    min_size=1,
    max_size=4,
)
PLAIN = {"light": "good", "cover": "none"}  # an area's terrain, as the form's defaults
COLOURS = st.tuples(*(st.integers(0, 255) for _ in range(3)))


def upload(colour: tuple[int, int, int]) -> SimpleUploadedFile:
    """A PNG as a phone sends one; the table keeps it drawn again as WebP."""
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, "PNG")
    return SimpleUploadedFile("picture.png", out.getvalue(), content_type="image/png")


def scratch_areas(gm, campaign: Campaign, count: int) -> None:
    """A scene prepared and thrown away: the ids of the areas after it move on, so that where
    ids of one digit turn into two (9, 10) falls anywhere in the scenes kept and restored."""
    if not count:
        return
    answered(gm.post(reverse("rolls:scenes", args=[campaign.pk]), {"title": "Scratch"}))
    scratch = Scene.objects.filter(campaign=campaign).latest("pk")
    edit = reverse("rolls:scene_edit", args=[campaign.pk, scratch.pk])
    for _ in range(count):
        answered(gm.post(edit, {"action": "area-new", "name": "x", **PLAIN}))
    answered(gm.post(edit, {"action": "delete"}))


def play(gm, player, other, campaign: Campaign, table: dict, colour) -> None:
    """The scenes and the talk of ``table``, each posted as its person's browser would."""
    pk = campaign.pk
    scratch_areas(gm, campaign, table["scratch"])
    for plan in table["scenes"]:
        new = {"title": plan["title"], "description": ""}
        if plan["backdrop"]:
            new["backdrop"] = upload(colour)
        if answered(gm.post(reverse("rolls:scenes", args=[pk]), new)) != 302:
            continue
        scene = Scene.objects.filter(campaign=campaign).latest("pk")
        edit = reverse("rolls:scene_edit", args=[pk, scene.pk])
        for name in plan["areas"]:
            answered(gm.post(edit, {"action": "area-new", "name": name, **PLAIN}))
        areas = list(scene.areas.values_list("pk", flat=True))
        pairs = [(a, b) for at, a in enumerate(areas) for b in areas[at + 1 :]]
        ranges = {"action": "ranges"}
        for turn, ((first, second), key) in enumerate(zip(pairs, plan["ranges"], strict=False)):
            if turn % 2:  # the page names a pair either way round
                first, second = second, first
            ranges[f"range-{AREA.encode(first)}-{AREA.encode(second)}"] = key
        answered(gm.post(edit, ranges))
        if plan["figures"]:
            people = Character.objects.filter(campaign=campaign).values_list("pk", flat=True)
            figures = {"action": "figures-add", "character": [str(c) for c in people]}
            answered(gm.post(edit, {**figures, "area": AREA.encode(areas[0]) if areas else ""}))
        for card in plan["cards"]:
            new_card = {"action": "card-new", "title": card["title"], "text": card["text"]}
            new_card["shown"] = "everyone" if card["shown"] == "everyone" else "gm"
            new_card["area"] = AREA.encode(areas[card["area"]]) if card["area"] < len(areas) else ""
            if card["picture"]:
                new_card["picture"] = upload(colour[::-1])
            answered(gm.post(edit, new_card))
            made = Card.objects.filter(scene=scene).order_by("pk").last()
            if card["shown"] == "some" and made is not None:
                reveal = {"shown": "some", "people": [str(player.user.pk)]}
                url = reverse("rolls:card_reveal", args=[pk, made.pk])
                answered(gm.post(url, reveal, headers=HX))
        if plan["show"]:
            answered(gm.post(edit, {"action": "show"}))
    for kind, text in table["talk"]:
        said = {"line": text, "key": fresh_key()}
        if kind == "say":
            client = gm
        elif kind == "to-gms":
            client, said["to"] = player, ["gms"]
        elif kind == "from-gm":
            client, said["to"] = gm, [str(player.user.pk)]
        else:
            client, said["to"] = other, [str(player.user.pk)]
        answered(client.post(reverse("rolls:say", args=[pk]), said, headers=HX))


@settings(
    max_examples=30,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    texts=st.fixed_dictionaries({field: TEXT for field in ("name", "pc", "label")}),
    table=st.fixed_dictionaries(
        {
            "scratch": st.integers(0, 12),
            "scenes": st.lists(SCENE, min_size=1, max_size=2),
            "talk": TALK,
        }
    ),
    colour=COLOURS,
)
def test_any_table_played_restores_to_the_same_document(
    owner, member, client_for, texts, table, colour
):
    # Each example in a transaction of its own, undone after it: on SQLite the ids start
    # again where the last example's did, so "scratch" decides where 9 turns into 10.
    with transaction.atomic():
        play_and_restore(owner, member, client_for, texts, table, colour)
        transaction.set_rollback(True)


def play_and_restore(owner, member, client_for, texts, table, colour) -> None:
    other = User.objects.get_or_create(username="second-player")[0]
    gm = client_for(owner)
    blank = dict.fromkeys(FIELDS, "")
    campaign = fill(gm, {**blank, "name": "x", **{k: v for k, v in texts.items() if v}})
    for person in (member, other):
        MembershipFactory(campaign=campaign, user=person, role=Membership.Role.PLAYER)
    player, second = client_for(member), client_for(other)
    player.user, second.user = member, other
    play(gm, player, second, campaign, table, colour)
    before = backup_of(gm, campaign)
    upload_file = SimpleUploadedFile("backup.json", json.dumps(before).encode())
    restored = gm.post(reverse("campaign_restore"), {"file": upload_file})
    assert restored.status_code == 302, restored.context and restored.context["problems"]
    again = Campaign.objects.latest("pk")
    assert again.pk != campaign.pk
    join_everyone(again, before)
    assert backup_of(gm, again) == before
    scenes = before["scenes"]
    event(f"{len(scenes)} scenes, {sum(len(s['ranges']) for s in scenes)} ranges")
    event(f"{len(before['pictures'])} pictures, {sum(len(s['cards']) for s in scenes)} cards")
    event(f"{sum('whisper_to' in entry for entry in before['log'])} whispers")
