"""How long a sheet edit on a phone takes to reach the GM's open copy of the sheet, next to how
long a roll takes to reach the GM's table.

    .venv/bin/python -m tests.benchmarks.sheet_push [--pairs 200] [--debug]

One daphne process on the embedded default (a throwaway SQLite file, the in-memory channel
layer), in production mode (DEBUG=0) unless --debug. A table of a GM and a player with her PC;
the GM has the table page and the PC's sheet open, a socket each, as a browser holds them.
The player, over HTTP as htmx posts, rolls from the table and then marks or clears a box of
her PC's injury track, one after the other, each waiting for the last to arrive:

- a roll has arrived when the GM's table socket brings its entry;
- an edit has arrived when the GM's sheet socket brings the sheet's live parts, drawn for
  the GM. The party strip on the GM's table is timed too.

It reports p50/p95/p99/max of each from the POST's start. Loopback only, one edit or roll at a
time: this is the latency a quiet table feels, not a load. Not collected by pytest;
docs/performance.md has its figures.
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

from tests.benchmarks.live_table import ENTRY, PRINT, SEED, _start_servers
from tests.benchmarks.load import Table, percentile
from tests.e2e.server import AppServer

WAIT = 5.0  # seconds: anything later is reported as lost
# The code before the sheet's parts were pushed sent a notice, and the page fetched them: run
# against that code (a second work tree), the GET is timed as the browser would make it.
NOTICE = re.compile(r'hx-get="([^"]+)"')


class Heard:
    """The frames one socket brought, each with the time it arrived."""

    def __init__(self) -> None:
        self.frames: list[tuple[float, str]] = []
        self.changed = asyncio.Event()

    async def listen(self, socket: ClientConnection) -> None:
        with contextlib.suppress(Exception):
            async for frame in socket:
                self.frames.append((time.perf_counter(), str(frame)))
                self.changed.set()

    async def first(self, since: float, wanted: re.Pattern[str] | str) -> tuple[float, str]:
        """The first frame after ``since`` that holds ``wanted``."""
        deadline = time.perf_counter() + WAIT
        while True:
            for arrived, frame in self.frames:
                if arrived >= since and re.search(wanted, frame):
                    return arrived, frame
            self.changed.clear()
            left = deadline - time.perf_counter()
            if left <= 0:
                raise TimeoutError(f"nothing holding {wanted!r} within {WAIT} s")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), left)


async def _open(server: AppServer, path: str, session: str) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{server.port}{path}",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        additional_headers={"Cookie": f"sessionid={session}"},
        compression=None,
        proxy=None,
        max_queue=None,
    )


async def _run(server: AppServer, table: Table, pairs: int) -> None:
    gm, player = table.sessions[0], table.sessions[-1]
    campaign, hero = table.campaign, table.hero
    csrf = secrets.token_hex(16)

    def headers(session: str) -> dict[str, str]:
        return {
            "Cookie": f"sessionid={session}; csrftoken={csrf}",
            "X-CSRFToken": csrf,
            "HX-Request": "true",
        }

    table_socket = await _open(server, f"/ws/campaigns/{campaign}/", gm)
    sheet_socket = await _open(server, f"/ws/campaigns/{campaign}/sheets/{hero}/", gm)
    on_table, on_sheet = Heard(), Heard()
    listeners = [
        asyncio.create_task(on_table.listen(table_socket)),
        asyncio.create_task(on_sheet.listen(sheet_socket)),
    ]
    await on_table.first(0, 'id="roll-log"')  # the table's state: the page is listening
    roll_ms, redraw_ms, strip_ms = [], [], []
    async with httpx.AsyncClient(base_url=server.url, timeout=30, trust_env=False) as http:
        for number in range(pairs + 10):
            warm = number < 10  # templates, URLs and the ruleset's first reads
            start = time.perf_counter()
            response = await http.post(
                f"/campaigns/{campaign}/table/roll/",
                data={
                    "kind": "check",
                    "character": str(hero),
                    "trait": str(table.trait),
                    "key": f"push-{number}-{secrets.token_hex(4)}",
                },
                headers=headers(player),
            )
            made = ENTRY.search(response.text)
            assert response.status_code == 200 and made, response.text[:300]
            arrived, _ = await on_table.first(start, f'id="roll-{made.group(1)}"')
            if not warm:
                roll_ms.append((arrived - start) * 1000)

            start = time.perf_counter()
            response = await http.post(
                f"/campaigns/{campaign}/characters/{hero}/track-box/",
                data={"track": "injury", "box": f"1:{'clear' if number % 2 else 'mark'}"},
                headers=headers(player),
            )
            assert response.status_code == 200, response.text[:300]
            redrawn, frame = await on_sheet.first(start, 'id="tracks"|id="sheet-live"')
            notice = NOTICE.search(frame)
            if notice:
                redraw = await http.get(notice.group(1), headers=headers(gm))
                frame, redrawn = redraw.text, time.perf_counter()
            assert "Award XP" in frame  # the GM's copy
            strip, _ = await on_table.first(start, 'id="party"')
            if not warm:
                redraw_ms.append((redrawn - start) * 1000)
                strip_ms.append((strip - start) * 1000)
    for socket in (table_socket, sheet_socket):
        await socket.close()
    for task in listeners:
        task.cancel()

    print(f"{pairs} rolls and {pairs} sheet edits, one at a time (ms from the POST's start)")
    print(f"{'reaches the GM':<44} {'p50':>6} {'p95':>6} {'p99':>6} {'max':>6}")
    for name, values in (
        ("a roll: its entry on the table socket", roll_ms),
        ("an edit: its live parts on the sheet socket", redraw_ms),
        ("an edit: the party strip on the table", strip_ms),
    ):
        cells = " ".join(f"{percentile(values, p):6.1f}" for p in (50, 95, 99))
        cells += f" {max(values):6.1f}"
        print(f"{name:<44} {cells}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200, help="rolls and edits (default 200)")
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    args = parser.parse_args()
    if not 1 <= args.pairs <= 5000:
        parser.error("--pairs is 1 to 5000")
    with tempfile.TemporaryDirectory(prefix="fudgetable-sheet-push-") as workdir:
        (server,) = _start_servers(Path(workdir), debug=args.debug, count=1, scaled={}, gc_log=None)
        printed = server.python(SEED.format(tables=1, sockets=2) + PRINT)
        (row,) = json.loads(printed.strip().splitlines()[-1])
        try:
            server.start()
            asyncio.run(_run(server, Table(**row), args.pairs))
        finally:
            server.stop()


if __name__ == "__main__":
    main()
