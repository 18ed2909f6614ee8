"""What the table page costs the network: its first load (compressed on the wire, and as
HTML), and what its socket sends when the page connects, when it reconnects having missed
nothing, and when it reconnects having missed one roll. At a busy table of N entries (the
demo's EZFudge table with countdowns, a challenge, a call and a fight: tests/e2e/busy_table.py),
for the GM and a player.

    .venv/bin/python -m tests.benchmarks.table_bytes [--entries 40] [--root PATH]

The browser is played by httpx and websockets: the page's address for its socket is the one
live.js makes from what the page shows (its table's number and the first and last entries of
its log), or the bare address where the page shows none (code from before pages said what they
saw). ``--root`` runs another checkout's code with this one's tooling, to compare before and
after (`git worktree add /work/base <rev>`). One daphne on a throwaway SQLite file, production
mode. Not collected by pytest; docs/performance.md has its figures.
"""

import argparse
import asyncio
import re
import tempfile
from pathlib import Path
from urllib.parse import urlencode

import httpx
from websockets.asyncio.client import connect

from tests.e2e.busy_table import busy_table
from tests.e2e.server import ROOT, AppServer

PASSWORD = "fudge-demo"
SEQ = re.compile(r'id="table-seq" data-seq="(\d+)"')
ENTRY = re.compile(r'<li id="roll-(\d+)" class="roll-entry')


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


async def state_bytes(server: AppServer, browser: Browser, path: str, seen: dict) -> int:
    """What the socket sends on connect, up to and including the table state."""
    query = f"?{urlencode(seen)}" if seen else ""
    url = f"ws://127.0.0.1:{server.port}/ws{path.removesuffix('table/')}{query}"
    headers = {"Cookie": browser.cookie_header}
    sent = 0
    async with connect(url, origin=server.url, additional_headers=headers) as socket:
        while True:
            frame = await asyncio.wait_for(socket.recv(), timeout=10)
            sent += len(frame.encode() if isinstance(frame, str) else frame)
            if "data-state" in frame:
                return sent


def roll_while_away(server: AppServer, campaign: str) -> None:
    """One public roll at the table, made behind the page's back."""
    server.python(
        f"""
        from campaigns.models import Membership
        from rolls.services import roll_reading
        gm = Membership.objects.select_related("campaign").get(
            campaign_id={campaign}, role="gm")
        roll_reading(membership=gm, key="while-away", reaction=False, label="While away")
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
        results[who] = {
            "page on the wire": wire,
            "page as HTML": len(html.encode()),
            "entries in the page": len(ENTRY.findall(html)),
            "socket on connect": asyncio.run(state_bytes(server, browser, path, seen)),
            "reconnect, nothing missed": asyncio.run(state_bytes(server, browser, path, seen)),
        }
        results[who]["_seen"] = seen  # type: ignore[assignment]
    roll_while_away(server, campaign)
    for who in ("gm", "alice"):
        seen = results[who].pop("_seen")  # type: ignore[arg-type]
        missed = asyncio.run(state_bytes(server, Browser(server, who), path, seen))  # type: ignore[arg-type]
        results[who]["reconnect, one roll missed"] = missed
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entries", type=int, default=40)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to run")
    args = parser.parse_args()
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
        server.start()
        try:
            results = measure(server, f"/campaigns/{campaign}/table/", campaign)
        finally:
            server.stop()
    print(f"{args.root.resolve()}: a table of {args.entries} entries, bytes")
    for who, figures in results.items():
        print(f"  {who}")
        for name, value in figures.items():
            print(f"    {name:28} {value:>8,}")


if __name__ == "__main__":
    main()
