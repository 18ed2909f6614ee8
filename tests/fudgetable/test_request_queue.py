"""HTTP requests take turns in Django: at most the limit at once, the rest in arrival order;
sockets never wait for a turn."""

import asyncio
import io
from typing import Any

import pytest
from django.core.handlers.asgi import ASGIRequest

from fudgetable.request_queue import Lane, RequestQueue, Turns, sends_files


class Recorder:
    """An ASGI app that notes when each request starts and holds it until released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release: dict[str, asyncio.Event] = {}

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        name = scope["path"]
        self.started.append(name)
        self.release.setdefault(name, asyncio.Event())
        await self.release[name].wait()
        if name == "/broken":
            raise RuntimeError("the view failed")

    def let_go(self, name: str) -> None:
        self.release.setdefault(name, asyncio.Event()).set()


async def _request(app: RequestQueue, kind: str, path: str) -> None:
    await app({"type": kind, "path": path}, None, None)


async def test_requests_past_the_limit_wait_their_turn_in_order():
    inner = Recorder()
    app = RequestQueue(inner, Turns(2))
    tasks = [asyncio.create_task(_request(app, "http", f"/{n}")) for n in range(4)]
    await asyncio.sleep(0.01)
    assert inner.started == ["/0", "/1"]
    inner.let_go("/1")
    await asyncio.sleep(0.01)
    assert inner.started == ["/0", "/1", "/2"]
    for name in ("/0", "/2", "/3"):
        inner.let_go(name)
    await asyncio.gather(*tasks)
    assert inner.started == ["/0", "/1", "/2", "/3"]


async def test_sockets_do_not_wait_for_a_turn():
    inner = Recorder()
    app = RequestQueue(inner, Turns(1))
    held = asyncio.create_task(_request(app, "http", "/held"))
    socket = asyncio.create_task(_request(app, "websocket", "/ws/campaigns/1/"))
    await asyncio.sleep(0.01)
    assert inner.started == ["/held", "/ws/campaigns/1/"]
    inner.let_go("/held")
    inner.let_go("/ws/campaigns/1/")
    await asyncio.gather(held, socket)


async def test_a_failed_request_gives_its_turn_back():
    inner = Recorder()
    app = RequestQueue(inner, Turns(1))
    broken = asyncio.create_task(_request(app, "http", "/broken"))
    after = asyncio.create_task(_request(app, "http", "/after"))
    await asyncio.sleep(0.01)
    inner.let_go("/broken")
    inner.let_go("/after")
    results = await asyncio.gather(broken, after, return_exceptions=True)
    assert isinstance(results[0], RuntimeError) and results[1] is None
    assert inner.started == ["/broken", "/after"]


async def test_a_request_that_waited_too_long_is_told_the_table_is_busy():
    inner = Recorder()
    app = RequestQueue(inner, Turns(1, wait=0.05))
    held = asyncio.create_task(_request(app, "http", "/held"))
    await asyncio.sleep(0.01)
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app({"type": "http", "path": "/late"}, None, send)
    assert inner.started == ["/held"]
    assert sent[0]["status"] == 503
    assert (b"retry-after", b"2") in sent[0]["headers"]
    assert b"too busy" in sent[1]["body"] and b"try again" in sent[1]["body"]
    inner.let_go("/held")
    await held


async def test_a_restore_takes_a_turn_of_its_own_and_play_never_waits_on_it():
    """Three bad restore files at once held both of the embedded default's turns for half a
    minute, and other players' rolls got 503. Restores now queue in their own lane, one at a
    time; the next one is told to come back, in the lane's own words."""
    inner = Recorder()
    lane = Lane(
        Turns(1, wait=0.05), busy_text=lambda: "Another backup is restoring.", retry_after="60"
    )
    app = RequestQueue(inner, Turns(1), lanes={"/restore/": lane})
    restoring = asyncio.create_task(
        app({"type": "http", "method": "POST", "path": "/restore/"}, None, None)
    )
    roll = asyncio.create_task(
        app({"type": "http", "method": "POST", "path": "/roll/"}, None, None)
    )
    await asyncio.sleep(0.01)
    assert inner.started == ["/restore/", "/roll/"]  # the roll did not wait
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await app({"type": "http", "method": "POST", "path": "/restore/"}, None, send)
    assert sent[0]["status"] == 503 and (b"retry-after", b"60") in sent[0]["headers"]
    assert sent[1]["body"] == b"Another backup is restoring."
    # The restore page itself (a GET) takes an ordinary turn.
    page = asyncio.create_task(
        app({"type": "http", "method": "GET", "path": "/restore/"}, None, None)
    )
    inner.let_go("/roll/")
    await asyncio.sleep(0.01)
    assert inner.started[-1] == "/restore/" and len(inner.started) == 3
    inner.let_go("/restore/")
    await asyncio.gather(restoring, roll, page)


def _scope(method: str, path: str, *types: bytes) -> dict[str, Any]:
    headers = [(b"content-type", kind) for kind in types]
    return {"type": "http", "method": method, "path": path, "headers": headers}


FILES = b"multipart/form-data; boundary=x"


async def test_a_form_with_files_takes_the_uploads_turn_and_play_never_waits_on_it():
    """Two pictures at once held both of the embedded default's turns for seconds, and another
    table's rolls waited (issue 37). A form with files, on any page, now takes the uploads'
    own turn, one at a time; the next is told to come back, in the lane's own words."""
    inner = Recorder()
    uploads = Lane(Turns(1, wait=0.05), busy_text=lambda: "Other files.", retry_after="60")
    app = RequestQueue(inner, Turns(1), uploads=uploads)
    backdrop = asyncio.create_task(app(_scope("POST", "/1/scenes/", FILES), None, None))
    roll = asyncio.create_task(app(_scope("POST", "/roll/", b"text/plain"), None, None))
    await asyncio.sleep(0.01)
    assert inner.started == ["/1/scenes/", "/roll/"]  # the roll did not wait
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    # Another page, its method in small letters (Django reads it as a POST): the same turn.
    await app(_scope("post", "/2/scene/cards/", FILES), None, send)
    assert sent[0]["status"] == 503 and (b"retry-after", b"60") in sent[0]["headers"]
    assert sent[1]["body"] == b"Other files."
    assert inner.started == ["/1/scenes/", "/roll/"]
    inner.let_go("/1/scenes/")
    inner.let_go("/roll/")
    await asyncio.gather(backdrop, roll)


@pytest.mark.parametrize(
    "types",
    [
        (FILES,),
        (b"Multipart/Form-Data ; boundary=x",),
        (b"multipart/form-data",),
        (b"text/plain", FILES),
        (FILES, b"text/plain"),
        (b"application/x-www-form-urlencoded",),
        (b"multipart/mixed; boundary=x",),
        (b'"multipart/form-data"; boundary=x',),
        (),
    ],
)
def test_files_are_told_as_django_tells_them(types):
    """The lane is chosen before Django reads the request: it must see files exactly where
    Django will read them, or an upload could take a turn of play's."""
    scope = _scope("POST", "/1/scenes/", *types)
    django_reads = ASGIRequest({**scope, "query_string": b""}, io.BytesIO()).content_type
    assert sends_files(scope) == (django_reads == "multipart/form-data")
