"""Times the GM's event POSTs in process: spotlight moves and countdown marks, as the table's
buttons post them.

    .venv/bin/python -m tests.benchmarks.gm_event_post [--requests 40] [--moves-before 10]
        [--over socket] [--profile move|mark] [--debug]

A table of a GM and seven players, each with a PC, a running session and a six-box countdown.
The GM moves the spotlight round the PCs, and marks the countdown up to full and unmarks it
down to empty again, through Django's test client as htmx does. ``--moves-before`` first
makes that many moves, so the session has that many spotlight spans. The figures are the
server's time for the POST (middleware, access check, the service, both audiences' fragments
for the push, the GM's answer) without a network or sockets: the part of a GM event's CPU
that the live-table benchmark cannot take apart. Production mode (DEBUG=0) on a throwaway
SQLite database unless --debug. With --over socket each is run as the table's socket runs a
command. Not collected by pytest; docs/performance.md has its figures.
"""

import argparse
import itertools
import tempfile
from collections.abc import Callable
from pathlib import Path

from tests.benchmarks.inprocess import (
    add_over,
    mode,
    poster,
    print_profile,
    start_django,
    table_of_players,
    time_each,
)

PLAYERS, BOXES = 7, 6


def _setup(over: str) -> dict[str, Callable[[], None]]:
    """Writes the table; returns a spotlight move and a countdown mark, ready to call."""
    from rolls.countdowns.services import countdown_create
    from rolls.sessions.services import session_start

    gm, campaign, pcs = table_of_players(PLAYERS)
    session_start(campaign=campaign)
    countdown = countdown_create(campaign=campaign, name="Bench clock", boxes=BOXES)
    post = poster(gm, over=over)
    base = f"/campaigns/{campaign.pk}/table"
    holders = itertools.cycle(pcs)
    # Up to full, down to empty, and again.
    commands = itertools.cycle(["mark"] * BOXES + ["unmark"] * BOXES)

    return {
        "move": lambda: post(f"{base}/spotlight/move/", {"character": next(holders).pk}),
        "mark": lambda: post(f"{base}/countdowns/{countdown.pk}/{next(commands)}/", {}),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=40, help="timed POSTs of each kind")
    parser.add_argument(
        "--moves-before", type=int, default=10, help="spotlight moves made before timing"
    )
    parser.add_argument("--profile", choices=["move", "mark"], help="print a cProfile summary")
    add_over(parser)
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="fudgetable-bench-") as workdir:
        start_django(Path(workdir), debug=args.debug)
        events = _setup(args.over)
        for _ in range(args.moves_before):
            events["move"]()
        print(
            f"GM events over {args.over}, {args.requests} of each, "
            f"after {args.moves_before} moves, "
            f"{mode(args.debug)}"
        )
        time_each(events, args.requests, "POST")
        if args.profile:
            print_profile(events[args.profile], 50)


if __name__ == "__main__":
    main()
