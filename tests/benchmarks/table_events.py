"""The live-table benchmark's second load: the GM's spotlight moves and countdown marks.

Each table gets a PC per player, a running session and a public countdown of six boxes. The
GM posts, alternately, a spotlight move (round the PCs) and a countdown mark (up to full, then
unmarks down to empty, and again), as the table page's buttons do. Every socket of the table
then gets the new spotlight or countdown list, and the fragment itself says which event it
is ("The spotlight is on <name>", "Bench clock: <n> of 6 boxes marked"), so nothing is added
for the benchmark. The same words come round again (every few events), so a frame goes to
the oldest event with those words that this socket has not had yet.
"""

import re
import time
from collections.abc import Callable

import httpx

from tests.benchmarks.load import Samples, Table

BOXES = 6
SPOTLIGHT = re.compile(r"The spotlight is on <strong>[^<]+</strong>")
COUNTDOWN = re.compile(rf"Bench clock: \d+ of {BOXES} boxes marked")

SEED = f"""
from rolls.countdowns.services import countdown_create
from campaigns.models import Campaign
from characters.services import character_create
from rolls.sessions.services import session_start

for row in tables:
    campaign = Campaign.objects.get(pk=row["campaign"])
    people = Membership.objects.filter(campaign=campaign).order_by("pk")
    pcs = [
        character_create(campaign=campaign, owner=m.user, name=f"PC{{campaign.pk}}-{{n}}")
        for n, m in enumerate(people[1:])
    ]
    row["pcs"] = [[pc.pk, pc.name] for pc in pcs]
    session_start(campaign=campaign)
    row["countdown"] = countdown_create(campaign=campaign, name="Bench clock", boxes={BOXES}).pk
"""


def _marks_after(step: int) -> int:
    """Marked boxes after the countdown's ``step``-th event (from 1): up to full, down to
    empty, and again."""
    phase = step % (2 * BOXES)
    return phase if phase <= BOXES else 2 * BOXES - phase


def words(table: Table, number: int) -> str:
    """What event ``number`` of this table makes its fragment say: even events move the
    spotlight, odd ones mark or unmark the countdown."""
    if number % 2 == 0:
        name = table.pcs[(number // 2) % len(table.pcs)][1]
        return f"The spotlight is on <strong>{name}</strong>"
    return f"Bench clock: {_marks_after(number // 2 + 1)} of {BOXES} boxes marked"


def note(table: Table, number: int, start: float) -> None:
    """Event ``number`` of this table leaves now."""
    table.posted[number] = start
    table.awaiting.setdefault(words(table, number), []).append(number)


def command(table: Table, number: int) -> tuple[str, dict[str, str]]:
    """Event ``number``'s POST, as the table page's button posts it: its path and its form."""
    base = f"/campaigns/{table.campaign}/table"
    if number % 2 == 0:
        pc = table.pcs[(number // 2) % len(table.pcs)][0]
        return f"{base}/spotlight/move/", {"character": str(pc)}
    step = number // 2 + 1
    verb = "mark" if _marks_after(step) > _marks_after(step - 1) else "unmark"
    return f"{base}/countdowns/{table.countdown}/{verb}/", {}


async def post(
    http: httpx.AsyncClient, table: Table, number: int, csrf: str, samples: Samples
) -> None:
    await post_as_gm(http, table, number, csrf, samples, command=command, note=note, ok=200)


async def post_as_gm(
    http: httpx.AsyncClient,
    table: Table,
    number: int,
    csrf: str,
    samples: Samples,
    *,
    command: Callable[[Table, int], tuple[str, dict[str, str]]],
    note: Callable[[Table, int, float], None],
    ok: int,
) -> None:
    """Event ``number``'s POST from the GM's page, as htmx sends it; an answer but ``ok`` is
    an error."""
    url, data = command(table, number)
    headers = {
        "Cookie": f"sessionid={table.sessions[0]}; csrftoken={csrf}",
        "X-CSRFToken": csrf,
        "HX-Request": "true",
    }
    start = time.perf_counter()
    note(table, number, start)
    try:
        response = await http.post(url, data=data, headers=headers)
    except httpx.HTTPError as error:
        samples.post_errors.append(f"{type(error).__name__}: {error}")
        return
    samples.post_ms.append((time.perf_counter() - start) * 1000)
    if response.status_code != ok:
        samples.post_errors.append(f"{response.status_code}: {response.text[:200]}")


def match(table: Table, index: int, frame: str, now: float) -> None:
    """Notes the events this frame brings to socket ``index``."""
    for said in SPOTLIGHT.findall(frame) + COUNTDOWN.findall(frame):
        waiting = table.awaiting.get(said, [])
        number = next((n for n in waiting if (index, n) not in table.arrived), None)
        if number is not None:
            table.arrived[(index, number)] = now
            table.frame_bytes.append(len(frame))
