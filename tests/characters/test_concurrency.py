"""Two devices at once: simultaneous commands on one sheet all count (PostgreSQL, real threads)."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection, connections

from characters.models import Character
from characters.services import character_create, fudge_points_change, track_set_box, xp_award
from tests.factories import CampaignFactory

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="needs row locks across connections: runs in the PostgreSQL pass of scripts/test",
    ),
]


def in_threads(calls: list) -> None:
    def run(call):
        try:
            call()
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        for future in [pool.submit(run, call) for call in calls]:
            future.result()


def test_simultaneous_point_and_xp_changes_are_all_applied(campaign, member):
    hero = character_create(campaign=campaign, owner=member, name="Racer")
    calls = [lambda: fudge_points_change(character=hero, by=1) for _ in range(6)]
    calls += [lambda: xp_award(character=hero, amount=2) for _ in range(6)]
    in_threads(calls)
    hero = Character.objects.get(pk=hero.pk)
    assert hero.fudge_points == 3 + 6
    assert hero.xp == 12


def test_simultaneous_marks_on_different_boxes_are_all_kept(owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    hero = character_create(campaign=campaign, owner=member, name="Tank")
    # Scratch boxes 0-2 and Hurt boxes 3-4, marked from five devices at once.
    in_threads(
        [
            lambda box=box: track_set_box(character=hero, track="wounds", box=box, marked=True)
            for box in range(5)
        ]
    )
    levels = Character.objects.get(pk=hero.pk).tracks["wounds"]["levels"]
    assert levels[0] == ["scratch", "scratch", "scratch"]
    assert levels[1] == ["wound", "wound"]
