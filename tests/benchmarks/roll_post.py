"""Times the roll POST: trait checks posted as the table's roll form posts them, in-process.

    .venv/bin/python -m tests.benchmarks.roll_post [--requests 300] [--gm] [--over socket]
        [--debug] [--profile]

A table of a GM and seven players, each with a PC, five NPCs and a running session; a player
(or, with --gm, the GM) posts trait checks through Django's test client as htmx does, each with
a fresh idempotency key. The figures are the server's time for the POST (middleware, access
check, the roll, its two audiences' fragments, the answer) without a network or sockets: the
part of a roll's CPU that the live-table benchmark cannot take apart. Production mode
(DEBUG=0) on a throwaway SQLite database unless --debug; --profile prints a cProfile summary.
With --over socket the roll is run as the table's socket runs a command (no middleware, no
session or user lookup: the socket settled those at its handshake). Not collected by pytest
(no test_ prefix): docs/performance.md records its figures.
"""

import argparse
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

from tests.benchmarks.inprocess import (
    add_over,
    mode,
    poster,
    print_profile,
    start_django,
    summary,
    table_of_players,
    timed,
)

PLAYERS, NPCS = 7, 5


def _setup(*, as_gm: bool, over: str) -> Callable[[], None]:
    """Writes the table; returns one roll POST, ready to call."""
    from django.urls import reverse

    from characters.models import Character
    from characters.services import character_create
    from rolls.sessions.services import session_start

    gm, campaign, heroes = table_of_players(PLAYERS)
    for number in range(NPCS):
        character_create(campaign=campaign, owner=gm, name=f"NPC {number}", kind=Character.Kind.NPC)
    session_start(campaign=campaign)
    hero = heroes[0]
    send = poster(gm if as_gm else hero.owner, over=over)
    url = reverse("rolls:roll", args=[campaign.pk])
    trait = hero.traits.order_by("position").first()
    assert trait is not None

    def post() -> None:
        send(url, {"key": uuid.uuid4().hex, "kind": "check", "trait": trait.pk, "difficulty": "0"})

    return post


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=300, help="timed POSTs (default 300)")
    parser.add_argument("--gm", action="store_true", help="the GM rolls, not a player")
    add_over(parser)
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="fudgetable-bench-") as workdir:
        start_django(Path(workdir), debug=args.debug)
        post = _setup(as_gm=args.gm, over=args.over)

        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        for _ in range(20):  # warm caches: templates, URL resolver, the ruleset
            post()
        with CaptureQueriesContext(connection) as queries:
            post()
        query_count = len(queries)

        times = timed(post, args.requests)
        who = "the GM" if args.gm else "a player"
        print(f"roll by {who} over {args.over}, {args.requests} rolls, {mode(args.debug)}")
        print(summary(times, query_count, "POST"))
        if args.profile:
            print_profile(post, 100)


if __name__ == "__main__":
    main()
