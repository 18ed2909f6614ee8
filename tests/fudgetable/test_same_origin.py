"""A socket's handshake passes only where a POST from the same page would pass Django's CSRF
check: the same scheme, host and port, or an origin in CSRF_TRUSTED_ORIGINS. Each case is
tried both ways, over HTTP and as a socket, and must get the same verdict."""

import pytest
from asgiref.sync import sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.urls import reverse

from fudgetable.asgi import application
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db(transaction=True)

TRUSTED = ["https://table.example.org", "https://*.fudge.example"]

# (Origin, Host, the socket's scheme, whether the site is behind a TLS proxy saying https)
SAME_SITE = [
    ("http://testserver", "testserver", "ws", False),
    ("http://testserver:8000", "testserver:8000", "ws", False),
    ("https://testserver", "testserver", "wss", False),
    ("https://testserver", "testserver", "ws", True),
    ("https://table.example.org", "testserver", "wss", False),
    ("https://dice.fudge.example", "testserver", "wss", False),
]
ANOTHER_SITE = [
    ("http://testserver:8399", "testserver", "ws", False),  # another port
    ("https://testserver", "testserver", "ws", False),  # another scheme
    ("http://testserver", "testserver", "wss", False),
    ("http://localhost", "testserver", "ws", False),  # another of ALLOWED_HOSTS
    ("http://table.example.org", "testserver", "ws", False),  # trusted, but over https only
    ("https://evil.example", "testserver", "wss", False),
    ("null", "testserver", "ws", False),
    ("http://evil.example", "evil.example", "ws", False),  # a host not in ALLOWED_HOSTS
]


@pytest.fixture(autouse=True)
def trusted(settings):
    settings.CSRF_TRUSTED_ORIGINS = TRUSTED
    settings.ALLOWED_HOSTS = ["testserver", "localhost"]


@pytest.fixture
def proxied(settings):
    def behind(proxy: bool) -> list[tuple[bytes, bytes]]:
        settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https") if proxy else None
        return [(b"x-forwarded-proto", b"https")] if proxy else []

    return behind


async def socket_opens(campaign, cookie, origin, host, scheme, forwarded) -> bool:
    headers = [(b"host", host.encode()), (b"origin", origin.encode()), cookie, *forwarded]
    socket = WebsocketCommunicator(application, f"/ws/campaigns/{campaign.pk}/", headers=headers)
    socket.scope["scheme"] = scheme
    connected, _ = await socket.connect()
    await socket.disconnect()
    return connected


def http_post_passes(user, campaign, origin, host, scheme, forwarded) -> bool:
    """A roll POSTed with the page's CSRF token and this Origin: refused (403) or not."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(user)
    secure = scheme == "wss"
    client.get(reverse("rolls:table", args=[campaign.pk]), secure=secure, HTTP_HOST=host)
    token = client.cookies["csrftoken"].value
    extra = {"HTTP_X_FORWARDED_PROTO": "https"} if forwarded else {}
    response = client.post(
        reverse("rolls:roll", args=[campaign.pk]),
        {"kind": "reaction", "key": fresh_key(), "csrfmiddlewaretoken": token},
        secure=secure,
        headers={"Origin": origin, "Referer": f"{origin}/"},
        HTTP_HOST=host,
        **extra,
    )
    return response.status_code != 403


@pytest.mark.parametrize(("origin", "host", "scheme", "proxy"), SAME_SITE)
async def test_a_page_of_the_site_opens_its_socket_as_its_post_passes(
    campaign, member, cookies, proxied, origin, host, scheme, proxy
):
    forwarded = proxied(proxy)
    assert await socket_opens(campaign, cookies["member"], origin, host, scheme, forwarded)
    passes = sync_to_async(http_post_passes)
    assert await passes(member, campaign, origin, host, scheme, forwarded)


@pytest.mark.parametrize(("origin", "host", "scheme", "proxy"), ANOTHER_SITE)
@pytest.mark.parametrize("person", ["owner", "member", "outsider"])
async def test_a_page_of_another_origin_is_refused_as_its_post_is(
    campaign, cookies, proxied, person, origin, host, scheme, proxy
):
    forwarded = proxied(proxy)
    assert not await socket_opens(campaign, cookies[person], origin, host, scheme, forwarded)


# Over HTTP, Django answers a host not in ALLOWED_HOSTS with a 400 before any CSRF check.
@pytest.mark.parametrize(
    ("origin", "host", "scheme", "proxy"),
    [case for case in ANOTHER_SITE if case[1] == "testserver"],
)
def test_the_same_origins_are_refused_over_http(
    campaign, member, proxied, origin, host, scheme, proxy
):
    assert not http_post_passes(member, campaign, origin, host, scheme, proxied(proxy))


async def test_a_socket_without_an_origin_is_refused(campaign, cookies):
    socket = WebsocketCommunicator(
        application,
        f"/ws/campaigns/{campaign.pk}/",
        headers=[(b"host", b"testserver"), cookies["owner"]],
    )
    assert not (await socket.connect())[0]
