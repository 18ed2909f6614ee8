"""How long a password reset takes to answer for an address with an account and for one
without (issue 37): the difference told a stranger which addresses have accounts.

    .venv/bin/python -m tests.benchmarks.reset_timing [--asks 20] [--delay 0.5] [--root PATH]

One daphne process on the embedded default, in production mode, sending mail through a real
SMTP server on this machine (aiosmtpd) that takes ``--delay`` seconds to accept a message, as
a distant one does. The asks alternate between the two addresses, one at a time; it reports
p50 and max of each, and the messages the mail server took. ``--root``: another checkout's
code (the code before, to compare). Not collected by pytest; docs/performance.md has its
figures.
"""

import argparse
import asyncio
import re
import statistics
import tempfile
import time
from pathlib import Path

import httpx
from aiosmtpd.controller import Controller

from tests.benchmarks.abuse_server import abuse_server
from tests.e2e.server import ROOT, free_port

SEED = """
from django.contrib.auth.models import User
User.objects.create_user("louie", email="louie@example.org", password="a-long-fudge-phrase")
"""
CSRF = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')


class SlowInbox:
    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.count = 0

    async def handle_DATA(self, server, session, envelope) -> str:
        await asyncio.sleep(self.delay)
        self.count += 1
        return "250 Message accepted for delivery"


def _ask(http: httpx.Client, address: str) -> float:
    form = http.get("/password/reset/")
    token = CSRF.search(form.text)
    assert token, form.text[:500]
    started = time.monotonic()
    answer = http.post(
        "/password/reset/", data={"email": address, "csrfmiddlewaretoken": token.group(1)}
    )
    took = time.monotonic() - started
    assert answer.status_code == 302, (answer.status_code, answer.text[:300])
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--asks", type=int, default=20, help="asks for each address")
    parser.add_argument("--delay", type=float, default=0.5, help="the mail server's seconds")
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose code runs")
    args = parser.parse_args()
    inbox = SlowInbox(args.delay)
    mail = Controller(inbox, hostname="127.0.0.1", port=free_port())
    mail.start()
    with tempfile.TemporaryDirectory(prefix="fudgetable-reset-timing-") as workdir:
        server = abuse_server(
            Path(workdir),
            args.root,
            EMAIL_HOST="127.0.0.1",
            EMAIL_PORT=str(mail.port),
            EMAIL_USE_TLS="0",
            PASSWORD_RESETS_PER_HOUR="100000",
        )
        server.python(SEED)
        times: dict[str, list[float]] = {"with an account": [], "without": []}
        try:
            server.start()
            with httpx.Client(base_url=server.url, timeout=60, trust_env=False) as http:
                for _ in range(args.asks):
                    times["with an account"].append(_ask(http, "louie@example.org"))
                    times["without"].append(_ask(http, "nobody@example.org"))
            time.sleep(args.delay * 2 + 1)
        finally:
            server.stop()
            mail.stop()
    for name, took in times.items():
        print(f"{name:>16}: p50 {statistics.median(took):.3f} s, max {max(took):.3f} s")
    print(f"mail accepted: {inbox.count} of {args.asks}")


if __name__ == "__main__":
    main()
