"""A campaign's and a scene's limits, asked for by several requests at once, each on a
database connection of its own: one place left is taken once. On PostgreSQL, whose reads do
not wait for writers, a count made before another request's write commits let both write
(the scene limit: 100 scenes, and the eight made at once all made). SQLite serialises every
transaction from its start, so only the second pass (DATABASE_URL set) can show the race; on
the embedded default this module is skipped, and tests/rolls/test_message_limit_servers.py
covers both back-ends through a real server."""

import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.core.exceptions import ValidationError
from django.db import connection

from campaigns.models import Membership
from rolls.scene import cards as scene_cards
from rolls.scene import services as scenes
from rolls.scene.models import Card, Scene

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL"),
        reason="needs DATABASE_URL: SQLite lets one transaction run at a time anyway",
    ),
]

AT_ONCE = 8


def at_once(make: Callable[[], object]) -> int:
    """Calls ``make`` from ``AT_ONCE`` threads released together; how many were refused."""
    start = threading.Barrier(AT_ONCE)

    def one(_: int) -> bool:
        try:
            start.wait(timeout=30)
            make()
            return False
        except ValidationError:
            return True
        finally:
            connection.close()  # each thread's own, which the test database must not keep

    with ThreadPoolExecutor(max_workers=AT_ONCE) as pool:
        return sum(pool.map(one, range(AT_ONCE)))


def test_the_last_scene_of_a_campaign_is_made_once(campaign):
    Scene.objects.bulk_create(
        Scene(campaign=campaign, title=f"Scene {n}") for n in range(scenes.MAX_SCENES - 1)
    )

    refused = at_once(lambda: scenes.scene_create(campaign=campaign, title="One more"))

    assert Scene.objects.filter(campaign=campaign).count() == scenes.MAX_SCENES
    assert refused == AT_ONCE - 1


def test_the_last_card_of_a_scene_is_added_once(campaign):
    gm = Membership.objects.get(campaign=campaign, role=Membership.Role.GM)
    scene = scenes.scene_create(campaign=campaign, title="The Mill")
    Card.objects.bulk_create(
        Card(scene=scene, title=f"Card {n}") for n in range(scene_cards.MAX_CARDS - 1)
    )

    refused = at_once(lambda: scene_cards.card_create(membership=gm, scene=scene, title="One more"))

    assert Card.objects.filter(scene=scene).count() == scene_cards.MAX_CARDS
    assert refused == AT_ONCE - 1
