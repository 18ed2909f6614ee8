"""Another table's rolls while one person holds many sockets asking to catch up (issue 37).

    .venv/bin/python -m tests.benchmarks.socket_hog [--rolls 30] [--root PATH]

One daphne process on the embedded default, in production mode. A table of a GM and a player;
and one other person with 4 campaigns of their own, who opens 8 table sockets at each (32;
those past their limit are turned away), each with 60 rolls in its log, and has every open
one ask to catch up 5 times a second, each ask naming a ``since`` of its own, as a hostile
page may. The player rolls over
HTTP, one at a time, first with the hog away, then with it on; a roll has arrived when the
GM's socket brings its entry. It reports p50/max of each, and the time a new socket of the
GM takes to bring the table. ``--root``: another checkout's code (the code before, to
compare). Not collected by pytest; docs/performance.md has its figures.
"""

import argparse
import asyncio
import contextlib
import json
import re
import secrets
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from tests.benchmarks import sheet_push
from tests.benchmarks.abuse_server import abuse_server, seed_and_run
from tests.benchmarks.live_table import PRINT, SEED
from tests.benchmarks.load import Table, percentile
from tests.benchmarks.sheet_push import Heard
from tests.e2e.server import ROOT, AppServer

CAMPAIGNS, SOCKETS, ASKS_A_SECOND, LOGGED = 4, 8, 5, 60
sheet_push.WAIT = 60.0  # the code before took seconds a roll
ENTRY = re.compile(r'<li id="roll-[\w-]{22}"')
HOG = f"""
hog = User.objects.create_user("hog", password=make_password(None))
campaigns = [campaign_create(owner=hog, name=f"Hog {{n}}").pk for n in range({CAMPAIGNS})]
from rolls.services import roll_check
for pk in campaigns:  # a log to build: each whole table state is tens of KB
    gm = Membership.objects.get(campaign_id=pk, user=hog)
    for n in range({LOGGED}):
        roll_check(membership=gm, key=f"hog-{{pk}}-{{n}}", level=1, trait_name="Stealth")
print(json.dumps({{"session": session_for(hog), "campaigns": campaigns}}))
"""


async def _open(server: AppServer, campaign: int, session: str) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws/campaigns/{campaign}/",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        additional_headers={"Cookie": f"sessionid={session}"},
        compression=None,
        proxy=None,
        max_queue=None,
    )


async def _hog_socket(server: AppServer, campaign: int, session: str, opened: list[int]) -> None:
    """One of the hog's sockets: asks to catch up, each time saying it saw another number."""
    with contextlib.suppress(Exception):
        async with await _open(server, campaign, session) as socket:
            first = str(await socket.recv())
            if 'id="notice"' in first:
                return  # turned away at the limit
            opened.append(campaign)
            drain = asyncio.create_task(_drain(socket))
            try:
                for since in range(1, 1_000_000):
                    ask = {"catch_up": True, "since": str(since), "first": "0", "last": "0"}
                    await socket.send(json.dumps(ask))
                    await asyncio.sleep(1 / ASKS_A_SECOND)
            finally:
                drain.cancel()


async def _drain(socket: ClientConnection) -> None:
    with contextlib.suppress(Exception):
        async for _ in socket:
            pass


async def _rolls(server: AppServer, table: Table, count: int, heard: Heard) -> list[float]:
    csrf = secrets.token_hex(16)
    headers = {
        "Cookie": f"sessionid={table.sessions[-1]}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
    }
    seconds = []
    async with httpx.AsyncClient(base_url=server.url, timeout=60, trust_env=False) as http:
        for _ in range(count):
            start = time.perf_counter()
            response = await http.post(
                f"/campaigns/{table.campaign}/table/roll/",
                data={
                    "kind": "check",
                    "character": str(table.hero),
                    "trait": str(table.trait),
                    "key": secrets.token_hex(8),
                },
                headers=headers,
            )
            assert response.status_code == 200, response.text[:300]
            made = ENTRY.search(response.text)
            assert made, response.text[:300]
            arrived, _ = await heard.first(start, made.group(0))
            seconds.append(arrived - start)
    return seconds


async def _handshake(server: AppServer, table: Table) -> float:
    start = time.perf_counter()
    async with await _open(server, table.campaign, table.sessions[0]) as socket:
        while 'id="roll-log"' not in str(await socket.recv()):
            pass
    return time.perf_counter() - start


def _line(name: str, seconds: list[float]) -> str:
    return f"{name:<28} p50 {percentile(seconds, 50):6.3f} s  max {max(seconds):6.3f} s"


async def _run(server: AppServer, table: Table, hog: dict, rolls: int) -> None:
    gm = await _open(server, table.campaign, table.sessions[0])
    heard = Heard()
    listening = asyncio.create_task(heard.listen(gm))
    await heard.first(0, 'id="roll-log"')
    await _rolls(server, table, 5, heard)  # warm
    quiet = await _rolls(server, table, rolls, heard)
    opened: list[int] = []
    hogs = [
        asyncio.create_task(_hog_socket(server, campaign, hog["session"], opened))
        for campaign in hog["campaigns"]
        for _ in range(SOCKETS)
    ]
    await asyncio.sleep(3)
    loud = await _rolls(server, table, rolls, heard)
    handshake = await _handshake(server, table)
    for task in (*hogs, listening):
        task.cancel()
    await gm.close()
    print(f"hog sockets open: {len(opened)} of {CAMPAIGNS * SOCKETS}")
    print(_line("another table's roll, quiet", quiet))
    print(_line("the same, the hog asking", loud))
    print(f"a new socket of the GM's table, the hog asking: {handshake:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fudgetable-socket-hog-") as workdir:
        server = abuse_server(Path(workdir), args.root)
        seed = SEED.format(tables=1, sockets=2) + PRINT + HOG
        seed_and_run(server, seed, lambda table, hog: _run(server, table, hog, args.rolls))


if __name__ == "__main__":
    main()
