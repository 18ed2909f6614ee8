"""#37: the message limit holds when the messages come all at once. 32 lines posted together by
one player were logged 14 times on one process and 17-21 times on two, against a limit of 8:
each request counted the person's recent messages before any of the others had written.

Against real servers: one daphne on the embedded default; in the test command's second pass,
two daphnes sharing PostgreSQL and Redis, the lines split between them."""

import asyncio
import json
import os
from pathlib import Path

import httpx
import pytest
from django.urls import reverse

from tests.e2e.server import AppServer
from tests.rolls.test_across_processes import (
    SEED,
    _log_in,
    _servers,
    _table_token,
    database_url,  # noqa: F401 (fixtures)
    redis_url,  # noqa: F401
)

AT_ONCE = 32
LIMIT = 8
COUNT = """
from rolls.models import Roll
print(Roll.objects.filter(kind=Roll.Kind.MESSAGE).count())
"""


def _seeded_player(server: AppServer) -> tuple[dict, dict[str, str], str]:
    """The seed, the player's cookies and the table page's CSRF token."""
    seeded = json.loads(server.python(SEED).strip().splitlines()[-1])
    with httpx.Client(base_url=server.url, timeout=30, trust_env=False) as http:
        _log_in(http, "xproc-player")
        token = _table_token(http, seeded["campaign"])
        return seeded, dict(http.cookies), token


async def _flood(servers: list[AppServer], seeded: dict, cookies: dict, token: str) -> list[str]:
    path = reverse("rolls:say", args=[seeded["campaign"]])
    clients = [
        httpx.AsyncClient(base_url=s.url, cookies=cookies, timeout=60, trust_env=False)
        for s in servers
    ]

    async def say(n: int) -> str:
        data = {"line": f"Line {n}", "key": f"flood-{n:04d}", "csrfmiddlewaretoken": token}
        answer = await clients[n % len(clients)].post(
            path, data=data, headers={"HX-Request": "true"}
        )
        assert answer.status_code == 200, answer.text[:300]
        return answer.text

    try:
        return await asyncio.gather(*(say(n) for n in range(AT_ONCE)))
    finally:
        for client in clients:
            await client.aclose()


def _logged(server: AppServer) -> int:
    return int(server.python(COUNT).strip().splitlines()[-1])


def _check(answers: list[str], logged: int) -> None:
    refused = [a for a in answers if "faster than the table can read them" in a]
    assert logged == LIMIT, f"{logged} of {AT_ONCE} lines logged, the limit is {LIMIT}"
    assert len(refused) == AT_ONCE - LIMIT


def test_thirty_two_lines_at_once_log_eight_on_the_embedded_default(tmp_path: Path):
    server = AppServer(tmp_path, MESSAGE_LIMIT=str(LIMIT), MESSAGE_LIMIT_SECONDS="60")
    server.manage("migrate", "--no-input", "-v", "0")
    server.start()
    try:
        seeded, cookies, token = _seeded_player(server)
        answers = asyncio.run(_flood([server], seeded, cookies, token))
        _check(answers, _logged(server))
    finally:
        server.stop()


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(
    not (os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL")),
    reason="needs DATABASE_URL and REDIS_URL (the test command's second pass sets both)",
)
def test_thirty_two_lines_at_once_log_eight_on_two_processes(
    tmp_path: Path,
    database_url: str,  # noqa: F811
    redis_url: str,  # noqa: F811
):
    env = {
        "DATABASE_URL": database_url,
        "REDIS_URL": redis_url,
        "MESSAGE_LIMIT": str(LIMIT),
        "MESSAGE_LIMIT_SECONDS": "60",
    }
    with _servers(tmp_path, **env) as servers:
        seeded, cookies, token = _seeded_player(servers[0])
        answers = asyncio.run(_flood(servers, seeded, cookies, token))
        _check(answers, _logged(servers[0]))
