"""Shared fixtures: an owner (the GM), a member (a player) and an outsider, at one campaign.

When DATABASE_URL or REDIS_URL is set (the test command's second pass), the services they name
must answer: with CI=true an unreachable one fails the run, otherwise every test is skipped with
a reason that says how to enable them.
"""

import os
import socket
from collections.abc import Iterator
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from channels.layers import channel_layers
from django.test import Client
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from tests.e2e.server import free_port
from tests.factories import CampaignFactory, MembershipFactory, UserFactory
from tests.mail_server import Inbox

SERVICE_URLS = {"PostgreSQL": "DATABASE_URL", "Redis": "REDIS_URL"}

# The property tests check what the rules say, not how fast examples come: on a shared
# two-core machine one draw once took 1.9 s and failed the run on Hypothesis's timing checks.
hypothesis_settings.register_profile(
    "fudgetable", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("fudgetable")


def _redis_database_per_worker() -> None:
    """Under pytest-xdist (scripts/test runs two workers), each worker its own Redis database:
    the base URL's number plus the worker's (gw0 keeps it, gw1 the next, ...), so a flush or a
    channel layer of one never reaches the other's. Their PostgreSQL test databases are
    already their own (pytest-django names them test_…_gw0, _gw1), and SQLite's is in memory."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL")
    if not (url and worker.startswith("gw")):
        return
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    own = parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}").geturl()
    os.environ["REDIS_URL"] = own  # for the servers tests start, and tests that read it
    from django.conf import settings

    from fudgetable.settings import redis_services

    # pytest-django loaded the settings before this file: the layer and the cache made anew.
    settings.REDIS_URL = own
    settings.CHANNEL_LAYERS, settings.CACHES = redis_services(own, settings.CHANNEL_LAYER)
    from django.core.cache import caches

    caches.__dict__.pop("settings", None)  # in case something read them already


def pytest_configure(config: pytest.Config) -> None:
    _redis_database_per_worker()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        return  # the run's own process (xdist's controller, or pytest alone) checks, once
    problems = _unreachable_services()
    if problems and os.environ.get("CI", "").lower() == "true":
        message = "; ".join(problems)
        pytest.exit(f"CI=true and a service the tests need is unreachable: {message}", 3)


@pytest.fixture(scope="session")
def django_db_modify_db_settings_xdist_suffix(request: pytest.FixtureRequest) -> None:
    """pytest-django's, but for the embedded default too: it names each xdist worker's test
    database with a suffix (test_postgres_gw0), and leaves alone only the SQLite engine it knows
    by name, which ours (fudgetable.sqlite) is not, so it made a file name of the path. SQLite's
    test database is in memory, each worker's own already."""
    from django.conf import settings

    worker = getattr(request.config, "workerinput", {}).get("workerid")
    if not worker:
        return
    for database in settings.DATABASES.values():
        test = database.setdefault("TEST", {})
        if database["ENGINE"] == "fudgetable.sqlite" and not test.get("NAME"):
            continue
        test["NAME"] = f"{test.get('NAME') or f'test_{database["NAME"]}'}_{worker}"


def _unreachable_services() -> list[str]:
    problems = []
    for service, variable in SERVICE_URLS.items():
        url = os.environ.get(variable)
        if not url:
            continue
        parts = urlsplit(url)
        try:
            with socket.create_connection((parts.hostname, parts.port or 0), timeout=3):
                pass
        except OSError as error:
            problems.append(f"{service} at {parts.hostname}:{parts.port} ({variable}): {error}")
    return problems


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Browser tests last: Playwright's sync API keeps an event loop on the main thread for the
    # session-wide browser, and async tests after it could not start their own.
    items.sort(key=lambda item: "tests/e2e/" in str(item.path).replace("\\", "/"))
    problems = _unreachable_services()
    if not problems:
        return
    message = "; ".join(problems)
    if os.environ.get("CI", "").lower() == "true":
        pytest.exit(f"CI=true and a service the tests need is unreachable: {message}", 3)
    reason = (
        f"{message}. Start PostgreSQL and Redis on 127.0.0.1:5432 and :6379, or point "
        "TEST_DATABASE_URL / TEST_REDIS_URL at yours, to run these tests against them."
    )
    for item in items:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def owner(db):
    return UserFactory(username="gm-owner")


@pytest.fixture
def member(db):
    return UserFactory(username="player-member")


@pytest.fixture
def outsider(db):
    return UserFactory(username="outsider")


@pytest.fixture
def campaign(owner, member):
    campaign = CampaignFactory(owner=owner, name="The Drowned Lighthouse")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


@pytest.fixture
def client_for():
    """A logged-in test client for a user."""

    def make(user) -> Client:
        client = Client()
        client.force_login(user)
        return client

    return make


@pytest.fixture
def cookies(owner, member, outsider):
    """The Cookie header each person's browser sends on a websocket handshake.

    Made here, synchronously, because async tests may not touch the database themselves.
    """

    def cookie(user) -> tuple[bytes, bytes]:
        client = Client()
        client.force_login(user)
        return (b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())

    return {"owner": cookie(owner), "member": cookie(member), "outsider": cookie(outsider)}


@pytest.fixture(autouse=True)
def fast_password_hashing(settings):
    # Real hashing costs ~0.3 s a login; the tests log in hundreds of times.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def rate_limits_off(settings):
    # Sign-up and invite limits count per address in the cache, which outlives a test: the
    # suite's hundreds of sign-ups from one address would trip them. Their own tests turn
    # them on with a fresh count.
    settings.RATELIMIT_ENABLE = False


@pytest.fixture(autouse=True)
def layer_per_test():
    """A fresh channel layer for each test. channels-redis keeps asyncio locks bound to the
    event loop that first used them, and every async test runs in a loop of its own; a layer
    shared across tests fails now and then with "bound to a different event loop"."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture
def production_static(settings):
    """The static storage scripts/run serves (WhiteNoise's manifest of the files collected once
    for the test run), for a test that draws pages or the worker as production does."""
    from tests.e2e.server import collected_static

    settings.STATIC_ROOT = collected_static()
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }


@pytest.fixture
def inbox(settings) -> Iterator[Inbox]:
    """A mail server on a free port of this machine, which the site sends through as it does
    through the one EMAIL_HOST names."""
    received = Inbox()
    controller = Controller(received, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": controller.port, "timeout": 10},
        }
    }
    try:
        yield received
    finally:
        controller.stop()
