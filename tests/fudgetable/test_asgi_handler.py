"""HTTP through the ASGI application daphne serves: the middleware and the view run in one go
on the request's thread, and each piece of middleware still does its job there."""

import asyncio
import threading
from urllib.parse import urlencode

import pytest
from channels.testing import HttpCommunicator
from django.db import OperationalError

from characters.services import character_create
from fudgetable.asgi import application, django_asgi_app
from fudgetable.http import new_key
from rolls import views
from rolls.models import Roll
from tests.rolls.conftest import roll_form, trait

pytestmark = pytest.mark.django_db(transaction=True)

CSRF = "x" * 32  # any 32 characters, sent as cookie and header alike, as the page does


async def _request(
    path: str, cookie: tuple[bytes, bytes], form: dict | None = None, *, csrf: bool = True
) -> dict:
    """One request through the whole application, as daphne hands it over."""
    headers = [(b"host", b"testserver"), (b"x-forwarded-proto", b"https")]
    if form is None:
        communicator = HttpCommunicator(application, "GET", path, headers=[cookie, *headers])
        return await _answer(communicator)
    headers += [(b"content-type", b"application/x-www-form-urlencoded"), (b"hx-request", b"true")]
    if csrf:
        cookie = (b"cookie", cookie[1] + f"; csrftoken={CSRF}".encode())
        headers.append((b"x-csrftoken", CSRF.encode()))
    body = urlencode(form).encode()
    communicator = HttpCommunicator(
        application, "POST", path, body=body, headers=[cookie, *headers]
    )
    return await _answer(communicator)


async def _answer(communicator: HttpCommunicator) -> dict:
    """The response, once the application has finished with the request."""
    response = await communicator.get_response(timeout=10)
    await communicator.wait(timeout=10)
    return response


@pytest.fixture
def hero_form(campaign, member):
    hero = character_create(campaign=campaign, owner=member, name="Louie")
    return roll_form(hero, trait(hero))


def test_one_hop_to_the_thread_for_middleware_and_view_alike():
    chain = django_asgi_app._middleware_chain
    assert asyncio.iscoroutinefunction(chain)
    # Underneath that one adapter, the middleware and the view are plain synchronous code.
    assert not asyncio.iscoroutinefunction(chain.func)
    assert not any(asyncio.iscoroutinefunction(hook) for hook in django_asgi_app._view_middleware)


async def test_the_table_page_for_owner_member_and_outsider(campaign, cookies):
    path = f"/campaigns/{campaign.pk}/table/"
    for person, status in (("owner", 200), ("member", 200), ("outsider", 404)):
        response = await _request(path, cookies[person])
        assert response["status"] == status, person
        headers = dict(response["headers"])
        # The response hooks ran: the clickjacking and content-security headers are set.
        assert headers[b"X-Frame-Options"] == b"DENY"
        assert b"Content-Security-Policy" in headers


async def test_a_roll_posted_without_its_csrf_token_is_refused(campaign, cookies, hero_form):
    path = f"/campaigns/{campaign.pk}/table/roll/"
    assert (await _request(path, cookies["member"], hero_form))["status"] == 200
    assert await Roll.objects.acount() == 1
    forged = await _request(path, cookies["member"], hero_form, csrf=False)
    assert forged["status"] == 403
    assert await Roll.objects.acount() == 1


async def test_a_busy_database_is_a_503_not_a_500(campaign, cookies, hero_form, monkeypatch):
    def wait_out(*args, **kwargs):
        raise OperationalError("database is locked")

    monkeypatch.setattr(views, "roll_from", wait_out)
    path = f"/campaigns/{campaign.pk}/table/roll/"
    for person, status in (("owner", 503), ("member", 503), ("outsider", 404)):
        response = await _request(path, cookies[person], hero_form)
        assert response["status"] == status, person
    assert b"too busy" in (await _request(path, cookies["member"], hero_form))["body"]
    assert await Roll.objects.acount() == 0


async def test_requests_one_after_another_reuse_one_thread(
    campaign, cookies, hero_form, monkeypatch
):
    threads = []
    roll_from = views.roll_from

    def noting_the_thread(*args, **kwargs):
        threads.append(threading.current_thread())
        return roll_from(*args, **kwargs)

    monkeypatch.setattr(views, "roll_from", noting_the_thread)
    path = f"/campaigns/{campaign.pk}/table/roll/"
    for _ in range(3):
        form = {**hero_form, "key": new_key()}
        assert (await _request(path, cookies["member"], form))["status"] == 200
    assert await Roll.objects.acount() == 3
    assert len(set(threads)) == 1
    assert threads[0] is not threading.main_thread() and threads[0].is_alive()
