"""What the table page costs the network: its first load (compressed on the wire, and as
HTML), and what its socket sends when the page connects, when it reconnects having missed
nothing, and when it reconnects having missed one roll. At a busy table of N entries (the
demo's EZFudge table with countdowns, a challenge, a call and a fight: tests/e2e/busy_table.py),
for the GM and a player.

    .venv/bin/python -m tests.benchmarks.table_bytes [--entries 40] [--root PATH] [--scene]

The browser is played by httpx and websockets: the page's address for its socket is the one
live.js makes from what the page shows (its table's number and the first and last entries of
its log), or the bare address where the page shows none (code from before pages said what they
saw). ``--root`` runs another checkout's code with this one's tooling, to compare before and
after (`git worktree add ../base <rev>`). One daphne on a throwaway SQLite file, production
mode. A frame's "deflated" size is what permessage-deflate would send of it. ``--scene``
measures twice: with no scene shown, then with a scene of 12 areas, 30 figures and 20 cards
(``BIG_SCENE``), and prints what the scene adds. Not collected by pytest;
docs/performance.md has its figures.
"""

import argparse
import asyncio
import re
import tempfile
import zlib
from pathlib import Path
from urllib.parse import urlencode

import httpx
from websockets.asyncio.client import connect

from tests.e2e.busy_table import busy_table
from tests.e2e.server import ROOT, AppServer

PASSWORD = "fudge-demo"
SEQ = re.compile(r'id="table-seq" data-seq="(\d+)"')
ENTRY = re.compile(r'<li id="roll-([\w-]{22})" class="roll-entry')


class Browser:
    """A logged-in person's requests. Cookies are kept by hand: production mode marks them
    Secure, which a cookie jar does not send over the plain loopback this runs on."""

    def __init__(self, server: AppServer, username: str) -> None:
        self.http = httpx.Client(base_url=server.url, headers={"Accept-Encoding": "gzip"})
        self.cookies: dict[str, str] = {}
        self.get("/login/")
        self.post(
            "/login/",
            {"username": username, "password": PASSWORD, "csrfmiddlewaretoken": self.csrf},
            referer=f"{server.url}/login/",
        )
        assert "sessionid" in self.cookies, "the log-in did not take"

    @property
    def csrf(self) -> str:
        return self.cookies["csrftoken"]

    @property
    def cookie_header(self) -> str:
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items())

    def _keep(self, response: httpx.Response) -> httpx.Response:
        for header in response.headers.get_list("set-cookie"):
            name, value = header.split(";", 1)[0].split("=", 1)
            self.cookies[name.strip()] = value.strip()
        return response

    def get(self, path: str) -> httpx.Response:
        return self._keep(self.http.get(path, headers={"Cookie": self.cookie_header}))

    def post(self, path: str, data: dict, *, referer: str) -> httpx.Response:
        headers = {"Cookie": self.cookie_header, "Referer": referer}
        return self._keep(self.http.post(path, data=data, headers=headers))


def seen_in(html: str) -> dict[str, str]:
    """What live.js would say the page saw: nothing, where the page shows no table number."""
    found = SEQ.search(html)
    if not found:
        return {}
    entries = ENTRY.findall(html)
    first, last = (entries[0], entries[-1]) if entries else ("0", "0")
    return {"since": found.group(1), "first": first, "last": last}


def deflated(data: bytes) -> int:
    """What permessage-deflate sends of a frame: raw deflate, its closing four bytes off."""
    packer = zlib.compressobj(6, zlib.DEFLATED, -15)
    return len(packer.compress(data) + packer.flush(zlib.Z_SYNC_FLUSH)) - 4


async def state_bytes(
    server: AppServer, browser: Browser, path: str, seen: dict
) -> tuple[int, int]:
    """What the socket sends on connect, up to and including the table state: as sent, and
    deflated frame by frame."""
    query = f"?{urlencode(seen)}" if seen else ""
    url = f"ws://127.0.0.1:{server.port}/ws{path.removesuffix('table/')}{query}"
    headers = {"Cookie": browser.cookie_header}
    sent = packed = 0
    async with connect(url, origin=server.url, additional_headers=headers) as socket:
        while True:
            frame = await asyncio.wait_for(socket.recv(), timeout=10)
            data = frame.encode() if isinstance(frame, str) else frame
            sent += len(data)
            packed += deflated(data)
            if "data-state" in str(frame):
                return sent, packed


def roll_while_away(server: AppServer, campaign: str) -> None:
    """One public roll at the table, made behind the page's back."""
    server.python(
        f"""
        from campaigns.models import Membership
        from rolls.services import roll_reading
        import uuid
        gm = Membership.objects.select_related("campaign").get(
            campaign_id={campaign}, role="gm")
        roll_reading(membership=gm, key=uuid.uuid4().hex, reaction=False, label="While away")
        """
    )


def measure(server: AppServer, path: str, campaign: str) -> dict[str, dict[str, int]]:
    results = {}
    for who in ("gm", "alice"):
        browser = Browser(server, who)
        page = browser.get(path)
        assert page.status_code == 200, page.status_code
        html = page.text
        wire = int(page.headers.get("content-length") or len(page.content))
        seen = seen_in(html)
        on_connect = asyncio.run(state_bytes(server, browser, path, seen))
        results[who] = {
            "page on the wire": wire,
            "page as HTML": len(html.encode()),
            "entries in the page": len(ENTRY.findall(html)),
            "socket on connect": on_connect[0],
            "reconnect, nothing missed": asyncio.run(state_bytes(server, browser, path, seen))[0],
        }
        results[who]["_seen"] = seen  # type: ignore[assignment]
    roll_while_away(server, campaign)
    for who in ("gm", "alice"):
        seen = results[who].pop("_seen")  # type: ignore[arg-type]
        missed = asyncio.run(state_bytes(server, Browser(server, who), path, seen))  # type: ignore[arg-type]
        results[who]["reconnect, one roll missed"] = missed[0]
        results[who]["  the same, deflated"] = missed[1]
    return results


# A scene of 12 areas (one hidden), 30 figures (the PCs, NPCs the players met and some they
# did not) and 20 cards (a third shown to everyone, a few to bob, the rest kept for the GMs).
BIG_SCENE = """
from campaigns.models import Campaign, Membership
from characters.services import npc_create
from rolls.scene import cards as scene_cards, services as scenes
campaign = Campaign.objects.get(pk={campaign})
gm = Membership.objects.select_related("campaign").get(campaign=campaign, user=campaign.owner)
bob = Membership.objects.get(campaign=campaign, user__username="bob").user_id
scene = scenes.scene_create(campaign=campaign, title="The great hall of Brannoc's keep",
                            description="Smoke under the rafters; the feast is over.")
lights, covers = ("good", "dim", "dark"), ("none", "partial", "heavy")
areas = [
    scenes.area_create(scene=scene, name=f"Hall {{n + 1}}", light=lights[n % 3],
                       cover=covers[n % 3], hidden=n == 11,
                       notes="Trestle tables, benches overturned, a hound asleep by the fire")
    for n in range(12)
]
scenes.ranges_set(scene=scene, ranges={{(areas[n].pk, areas[n + 1].pk): "S" for n in range(11)}})
characters = list(campaign.characters.order_by("kind", "pk"))
while len(characters) < 30:
    characters.append(npc_create(campaign=campaign, name=f"Guard {{len(characters)}}"))
for n, character in enumerate(characters[:30]):
    if character.is_npc and n % 2:
        character.revealed = True
        character.save(update_fields=["revealed"])
    scenes.figure_add(scene=scene, character=character, area=areas[n % 11])
for n in range(20):
    card = scene_cards.card_create(
        membership=gm, scene=scene, title=f"Clue {{n + 1}}: the steward's ledger",
        text="A page torn from the ledger: three barrels of wine, paid twice, to a name "
             "nobody at the keep admits to knowing.",
        area=areas[n % 11] if n % 2 else None, shown="everyone" if n % 3 == 0 else "gm")
    if n % 5 == 1:
        scene_cards.card_reveal(membership=gm, card=card, shown="some", people=[bob])
print(scene.pk)
"""


def show_scene(server: AppServer, campaign: str, scene: str | None) -> None:
    server.python(
        f"""
        from campaigns.models import Campaign
        from rolls.scene import services as scenes
        from rolls.scene.models import Scene
        campaign = Campaign.objects.get(pk={campaign})
        shown = Scene.objects.get(pk={scene}) if {scene!r} else None
        scenes.scene_switch(campaign=campaign, scene=shown)
        """
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=40)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run")
    parser.add_argument(
        "--scene", action="store_true", help="what a scene of 12 areas, 30 figures, 20 cards adds"
    )
    args = parser.parse_args()
    runs: dict[str, dict[str, dict[str, int]]] = {}
    with tempfile.TemporaryDirectory() as workdir:
        server = AppServer(
            Path(workdir),
            root=args.root.resolve(),
            DEBUG="0",
            SECRET_KEY="benchmark-" + "x" * 60,
            ALLOWED_HOSTS="127.0.0.1",
            SECURE_SSL_REDIRECT="0",
        )
        server.manage("migrate", "--no-input", "-v", "0")
        server.manage("collectstatic", "--no-input", "-v", "0")
        server.manage("demo", "-v", "0")
        campaign = server.python(busy_table(args.entries)).strip().splitlines()[-1]
        big = server.python(BIG_SCENE.format(campaign=campaign)).strip().splitlines()[-1]
        server.start()
        path = f"/campaigns/{campaign}/table/"
        try:
            if args.scene:
                show_scene(server, campaign, None)
                runs["no scene shown"] = measure(server, path, campaign)
                show_scene(server, campaign, big)
                runs["the scene of 12 areas, 30 figures, 20 cards"] = measure(
                    server, path, campaign
                )
            else:
                runs["as it stands"] = measure(server, path, campaign)
        finally:
            server.stop()
    print(f"{args.root.resolve()}: a table of {args.entries} entries, bytes")
    for run, results in runs.items():
        print(f"{run}:")
        for who, figures in results.items():
            print(f"  {who}")
            for name, value in figures.items():
                print(f"    {name:28} {value:>8,}")
    if len(runs) == 2:
        without, with_scene = runs.values()
        print("what the scene adds:")
        for who in with_scene:
            for name in ("page on the wire", "  the same, deflated", "reconnect, one roll missed"):
                added = with_scene[who][name] - without[who][name]
                print(f"  {who:6} {name.strip():28} {added:>+8,}")


if __name__ == "__main__":
    main()
