"""Times the sheet page: GETs of a crowded EZFudge sheet through Django's test client.

    .venv/bin/python -m tests.benchmarks.sheet_page [--requests 200] [--debug] [--profile]

The client calls the app in-process, so the figures are server time (middleware, access
check, queries, rules, template) without a network or a browser. It runs in production mode
(DEBUG=0) on a throwaway SQLite database and static root, so nothing here touches db.sqlite3;
--debug measures the development default instead, and --profile prints a cProfile summary.
Not collected by pytest (no test_ prefix): docs/performance.md records its figures.
"""

import argparse
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from tests.benchmarks.inprocess import expect, mode, print_profile, start_django, summary, timed

if TYPE_CHECKING:  # Django's modules are imported only once the environment is set
    from django.test import Client


def _setup() -> "tuple[Client, str]":
    """Writes a crowded sheet; returns a client logged in as its player, and the sheet's URL."""
    from django.contrib.auth import get_user_model
    from django.test import Client
    from django.urls import reverse

    from campaigns.models import Membership
    from campaigns.services import campaign_create, membership_add
    from characters.services import character_create
    from tests.characters.full_sheet import full_sheet

    users = get_user_model().objects
    gm, player = users.create_user("bench-gm"), users.create_user("bench-player")
    campaign = campaign_create(owner=gm, name="Benchmark", ruleset="ezfudge")
    membership_add(campaign=campaign, user=player, role=Membership.Role.PLAYER)
    character = full_sheet(character_create(campaign=campaign, owner=player, name="Crowded"))
    client = Client()
    client.force_login(player)
    return client, reverse("characters:sheet", args=[campaign.pk, character.pk])


def _get(client: "Client", url: str) -> None:
    # secure=True: production mode redirects plain HTTP to HTTPS.
    expect(client.get(url, secure=True), 200, f"GET {url}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--requests", type=int, default=200, help="timed GETs (default 200)")
    parser.add_argument("--debug", action="store_true", help="DEBUG=1, the development default")
    parser.add_argument("--profile", action="store_true", help="print a cProfile summary")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="fudgetable-bench-") as workdir:
        start_django(Path(workdir), debug=args.debug)
        client, url = _setup()

        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        for _ in range(10):  # warm caches: templates, URL resolver, the session row
            _get(client, url)
        with CaptureQueriesContext(connection) as queries:
            _get(client, url)
        query_count = len(queries)  # read now: the next request clears the connection's log

        times = timed(lambda: _get(client, url), args.requests)
        print(f"sheet page, {args.requests} GETs, {mode(args.debug)}")
        print(summary(times, query_count, "GET"))
        if args.profile:
            print_profile(lambda: _get(client, url), 50)


if __name__ == "__main__":
    main()
