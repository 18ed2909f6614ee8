"""Another table's rolls while one person sends pictures that cost the server seconds (issue 37).

    .venv/bin/python -m tests.benchmarks.upload_hog [--rolls 30] [--room] [--root PATH]

One daphne process on the embedded default, in production mode. A table of a GM and a player;
and one other person, GM of a campaign of their own whose pictures fill its 8 MB (``--room``:
with none kept), who sends a pixel bomb, a PNG of about 113 KB that unpacks into 39.9 million
pixels, as a new scene's backdrop, two at once, over and over. ``UPLOADS_PER_HOUR`` is raised
for the run so that the limit does not stop them: what is measured is what each costs, and
whether play waits on it. The player rolls over HTTP, one at a time, first with the hog away
(the floor of this run), then while it sends; a roll has arrived when the GM's socket brings
its entry. It reports p50/max of each, the uploads answered and how, the server's CPU seconds
an upload, and its resident memory before, at its peak and 5 s after the hog stopped.
``--root``: another checkout's code (the code before, to compare). Not collected by pytest;
docs/performance.md has its figures.
"""

import argparse
import asyncio
import collections
import io
import secrets
import tempfile
import threading
import time
from pathlib import Path

import httpx
import psutil
from PIL import Image

from tests.benchmarks.abuse_server import abuse_server, seed_and_run
from tests.benchmarks.live_table import PRINT, SEED
from tests.benchmarks.load import Table
from tests.benchmarks.sheet_push import Heard
from tests.benchmarks.socket_hog import _line, _open, _rolls
from tests.e2e.server import ROOT, AppServer

AT_ONCE = 2
BOMB_SIDES = (6320, 6310)  # 39.9 million pixels, under the 40 million the code before took
HOG = """
hog = User.objects.create_user("hog", password=make_password(None))
campaign = campaign_create(owner=hog, name="Hog")
from rolls.scene.models import Picture
if {full}:  # one kept picture's worth of bytes that fills the campaign's 8 MB
    import os
    size = 8 * 1024 * 1024
    Picture.objects.create(
        campaign=campaign, data=os.urandom(size), content_type="image/webp",
        width=1, height=1, size=size, digest="0" * 64,
    )
print(json.dumps({{"session": session_for(hog), "campaign": campaign.pk}}))
"""


def pixel_bomb() -> bytes:
    """A PNG of ``BOMB_SIDES`` black pixels: a few hundred times smaller than what it unpacks
    into, and within every size limit."""
    out = io.BytesIO()
    Image.new("RGB", BOMB_SIDES).save(out, "PNG", compress_level=9)
    return out.getvalue()


class Memory:
    """The server's resident memory, sampled every 10 ms in a thread of its own."""

    def __init__(self, pid: int) -> None:
        self.process = psutil.Process(pid)
        self.peak = 0
        self.running = True
        self.thread = threading.Thread(target=self._sample, daemon=True)
        self.thread.start()

    def now(self) -> int:
        return int(self.process.memory_info().rss)

    def _sample(self) -> None:
        while self.running:
            self.peak = max(self.peak, self.now())
            time.sleep(0.01)

    def stop(self) -> None:
        self.running = False
        self.thread.join()


def cpu_seconds(process: psutil.Process) -> float:
    times = process.cpu_times()
    return float(times.user + times.system)


async def _hog(server: AppServer, hog: dict, bomb: bytes, answers: collections.Counter) -> None:
    """One of the hog's pages: sends the bomb as a new scene's backdrop, again and again."""
    csrf = secrets.token_hex(16)
    headers = {"Cookie": f"sessionid={hog['session']}; csrftoken={csrf}", "X-CSRFToken": csrf}
    url = f"/campaigns/{hog['campaign']}/table/scenes/"
    async with httpx.AsyncClient(base_url=server.url, timeout=120, trust_env=False) as http:
        while True:
            response = await http.post(
                url,
                data={"title": "Bomb"},
                files={"backdrop": ("bomb.png", bomb, "image/png")},
                headers=headers,
            )
            answers[_answer(response)] += 1


def _answer(response: httpx.Response) -> str:
    """How the server answered an upload, in a few words."""
    if response.status_code == 302:
        return "302 taken"
    page = response.text
    for words in ("fill their", "too many pixels", "pictures an hour", "too busy", "try again"):
        if words in page:
            return f"{response.status_code} {words!r}"
    return str(response.status_code)


async def _run(server: AppServer, table: Table, hog: dict, rolls: int) -> None:
    assert server.process is not None
    process = psutil.Process(server.process.pid)
    gm = await _open(server, table.campaign, table.sessions[0])
    heard = Heard()
    listening = asyncio.create_task(heard.listen(gm))
    await heard.first(0, 'id="roll-log"')
    await _rolls(server, table, 5, heard)  # warm
    before = cpu_seconds(process)
    quiet = await _rolls(server, table, rolls, heard)
    roll_cpu = (cpu_seconds(process) - before) / rolls
    memory = Memory(server.process.pid)
    resident = memory.now()
    bomb = pixel_bomb()
    answers: collections.Counter[str] = collections.Counter()
    before = cpu_seconds(process)
    hogs = [asyncio.create_task(_hog(server, hog, bomb, answers)) for _ in range(AT_ONCE)]
    await asyncio.sleep(3)
    loud = await _rolls(server, table, rolls, heard)
    for task in hogs:
        task.cancel()
    spent = cpu_seconds(process) - before
    await asyncio.sleep(5)
    after = memory.now()
    memory.stop()
    listening.cancel()
    await gm.close()
    uploads = sum(answers.values())
    per_upload = (spent - roll_cpu * rolls) / max(uploads, 1)
    print(f"the bomb: {len(bomb) // 1024} KB, {BOMB_SIDES[0]} x {BOMB_SIDES[1]} pixels")
    print(f"uploads answered: {uploads} ({', '.join(f'{n} x {a}' for a, n in answers.items())})")
    print(f"server CPU an upload: {per_upload:.3f} s (a roll's: {roll_cpu:.3f} s)")
    print(_line("another table's roll, quiet", quiet))
    print(_line("the same, the hog sending", loud))
    megabytes = 1024 * 1024
    print(
        f"server memory: {resident / megabytes:.0f} MB before, peak {memory.peak / megabytes:.0f}"
        f" MB, {after / megabytes:.0f} MB 5 s after"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rolls", type=int, default=30)
    parser.add_argument("--room", action="store_true", help="the hog's campaign has room")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="fudgetable-upload-hog-") as workdir:
        server = abuse_server(Path(workdir), args.root, UPLOADS_PER_HOUR="100000")
        seed = SEED.format(tables=1, sockets=2) + PRINT + HOG.format(full=not args.room)
        seed_and_run(server, seed, lambda table, hog: _run(server, table, hog, args.rolls))


if __name__ == "__main__":
    main()
