"""A pixel bomb under the size limit, sent to a real daphne as issue 37's attacker sent it: a
PNG of about 113 KB that unpacks into 39.9 million pixels, two at a time, by a GM to a scene's
backdrop. Each cost 0.7-1.8 s of CPU to draw, drawn before the campaign's full 8 MB was
looked at, and two at once held both of the embedded default's turns, so another table's
rolls waited seconds. Now a full campaign refuses before a pixel is decoded, and a picture
that is drawn goes up in a turn of its own, never one play takes."""

import asyncio
import functools
import io
import json
import secrets
import time
from collections.abc import Iterator

import httpx
import psutil
import pytest
from PIL import Image

from tests.benchmarks.live_table import SESSION_FOR
from tests.e2e.server import AppServer

BOMB_SIDES = (6320, 6310)  # 39.9 million pixels: within the 40 million taken
SEED = (
    SESSION_FOR
    + """
import json, os
from django.contrib.auth.models import User
from campaigns.models import Membership
from campaigns.services import campaign_create, membership_add
from characters.services import character_create
from rolls.scene.models import Picture

gm, player, hog = (User.objects.create_user(name) for name in ("gm", "player", "hog"))
table = campaign_create(owner=gm, name="The other table")
membership_add(campaign=table, user=player, role=Membership.Role.PLAYER)
hero = character_create(campaign=table, owner=player, name="Louie")
full, roomy = (campaign_create(owner=hog, name=name) for name in ("Full", "Roomy"))
size = 8 * 1024 * 1024  # what the full campaign keeps already: its pictures' 8 MB
Picture.objects.create(
    campaign=full, data=os.urandom(size), content_type="image/webp", width=1, height=1,
    size=size, digest="0" * 64,
)
print(json.dumps({
    "table": table.pk, "hero": hero.pk, "trait": hero.traits.order_by("position").first().pk,
    "player": session_for(player), "hog": session_for(hog), "full": full.pk, "roomy": roomy.pk,
}))
"""
)


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[AppServer, dict]]:
    """One daphne on the embedded default (two turns), production mode."""
    server = AppServer(tmp_path_factory.mktemp("bomb"))
    server.manage("migrate", "--no-input", "-v", "0")
    seeded = json.loads(server.python(SEED).strip().splitlines()[-1])
    try:
        server.start()
        yield server, seeded
    finally:
        server.stop()


@functools.cache
def pixel_bomb() -> bytes:
    """Made once, before any is sent: making one takes a second of the test's own CPU."""
    out = io.BytesIO()
    Image.new("RGB", BOMB_SIDES).save(out, "PNG", compress_level=9)
    return out.getvalue()


def headers(session: str) -> dict[str, str]:
    csrf = secrets.token_hex(16)
    return {"Cookie": f"sessionid={session}; csrftoken={csrf}", "X-CSRFToken": csrf}


async def upload(http: httpx.AsyncClient, seeded: dict, campaign: int) -> tuple[float, str]:
    """The bomb as a new scene's backdrop: when it was answered, and how (302: taken)."""
    response = await http.post(
        f"/campaigns/{campaign}/table/scenes/",
        data={"title": "Bomb"},
        files={"backdrop": ("bomb.png", pixel_bomb(), "image/png")},
        headers=headers(seeded["hog"]),
    )
    answer = "taken" if response.status_code == 302 else response.text
    return time.perf_counter(), answer


async def roll(http: httpx.AsyncClient, seeded: dict) -> float:
    """The other table's player rolls; when it was answered."""
    response = await http.post(
        f"/campaigns/{seeded['table']}/table/roll/",
        data={
            "kind": "check",
            "character": str(seeded["hero"]),
            "trait": str(seeded["trait"]),
            "key": secrets.token_hex(8),
        },
        headers={**headers(seeded["player"]), "HX-Request": "true"},
    )
    assert response.status_code == 200, response.text[:300]
    return time.perf_counter()


def client(server: AppServer) -> httpx.AsyncClient:
    return httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False)


def test_a_pixel_bomb_sent_to_a_full_campaign_is_refused_before_it_is_drawn(seeded):
    server, seeded = seeded
    assert server.process is not None
    process = psutil.Process(server.process.pid)

    async def attack() -> list[tuple[float, str]]:
        pixel_bomb()
        async with client(server) as http:
            answers = []
            for _ in range(2):  # two at a time, twice
                sent = [upload(http, seeded, seeded["full"]) for _ in range(2)]
                answers += await asyncio.gather(*sent)
            return answers

    before = process.cpu_times()
    answers = asyncio.run(attack())
    after = process.cpu_times()
    assert all("pictures fill their 8 MB" in page for _, page in answers)
    # Drawn, each cost 0.7-1.8 s; refused unread, a page's worth.
    spent = after.user + after.system - before.user - before.system
    assert spent < 1.0, f"{spent:.2f} s of CPU for 4 refusals"


def test_a_pixel_bomb_that_is_drawn_holds_up_no_other_tables_roll_nor_memory(seeded):
    """Two at once to a campaign with room: both are taken, drawn one after the other in
    their own turn, and a roll sent while they are drawn is answered before either. The
    memory they took goes back to the system: it stayed, 180 MB of it (600 MB at two at a
    time), in the heaps of the threads that had drawn them."""
    server, seeded = seeded
    assert server.process is not None
    process = psutil.Process(server.process.pid)
    before = process.memory_info().rss

    async def attack() -> tuple[float, list[tuple[float, str]]]:
        async with client(server) as hog, client(server) as player:
            await roll(player, seeded)  # warm
            pixel_bomb()
            sent = [asyncio.create_task(upload(hog, seeded, seeded["roomy"])) for _ in range(2)]
            await asyncio.sleep(0.3)  # both bodies are in, the first being drawn
            rolled = await roll(player, seeded)
            return rolled, list(await asyncio.gather(*sent))

    rolled, answers = asyncio.run(attack())
    assert [answer for _, answer in answers] == ["taken", "taken"]
    assert rolled < min(answered for answered, _ in answers)
    time.sleep(0.5)
    kept = (process.memory_info().rss - before) / 2**20
    assert kept < 60, f"{kept:.0f} MB kept after two pictures were drawn"
