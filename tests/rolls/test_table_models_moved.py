"""The live table's models moved from campaigns to rolls. A database made before the move
migrates forward with nothing lost: every row, every link between rows, and the admin's
permissions on them."""

from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from rolls import models

BEFORE = [
    ("campaigns", "0006_spotlight_countdowns_challenges"),
    ("characters", "0002_character_trades"),
    ("rolls", "0002_announcements"),
]
AFTER = [("campaigns", "0007_table_models_to_rolls"), ("rolls", "0004_table_models_renamed")]
WHEN = datetime(2026, 11, 20, 19, 30, tzinfo=UTC)


def fill_the_old_tables(apps) -> dict[str, int]:
    """One of every moved row, made through the models as they were before the move."""
    user = apps.get_model("auth", "User").objects.create(username="gm")
    campaign = apps.get_model("campaigns", "Campaign").objects.create(name="Lighthouse", owner=user)
    hero = apps.get_model("characters", "Character").objects.create(
        campaign=campaign, owner=user, name="Louie"
    )
    old = {name: apps.get_model("campaigns", name) for name in ("PlaySession", "Countdown")}
    session = old["PlaySession"].objects.create(
        campaign=campaign, number=3, ended_at=WHEN, xp_awarded={"Louie": 2}
    )
    apps.get_model("campaigns", "TableConnection").objects.create(
        campaign=campaign, user=user, channel_name="specific.abc!def", seen_at=WHEN
    )
    apps.get_model("campaigns", "Spotlight").objects.create(
        campaign=campaign, character=hero, since=WHEN, hands=[user.pk]
    )
    apps.get_model("campaigns", "SpotlightSpan").objects.create(
        session=session, character=hero, started_at=WHEN, ended_at=WHEN
    )
    failure = old["Countdown"].objects.create(campaign=campaign, name="Tide (fails)", boxes=3)
    old["Countdown"].objects.create(
        campaign=campaign, name="Tide", boxes=4, marked=2, outcome="The rocks", failure=failure
    )
    apps.get_model("campaigns", "Challenge").objects.create(
        campaign=campaign, name="Climb", ladder={"rungs": []}, state={"marks": 1}, notes="Wet"
    )
    apps.get_model("rolls", "Roll").objects.create(
        campaign=campaign,
        session=session,
        roller=user,
        character=hero,
        kind="check",
        label="Louie: Stealth",
        snapshot={"margin": 1},
        idempotency_key="k" * 16,
    )
    return {"campaign": campaign.pk, "hero": hero.pk, "session": session.pk}


@pytest.mark.django_db(transaction=True)
def test_a_database_from_before_the_move_keeps_every_row(migrator):
    old_state = migrator.apply_initial_migration(BEFORE)
    ids = fill_the_old_tables(old_state.apps)

    after = migrator.apply_tested_migration(AFTER).apps

    session = models.PlaySession.objects.get()
    assert (session.pk, session.campaign_id, session.number) == (ids["session"], ids["campaign"], 3)
    assert (session.ended_at, session.xp_awarded) == (WHEN, {"Louie": 2})
    assert models.TableConnection.objects.get().channel_name == "specific.abc!def"
    spotlight = models.Spotlight.objects.get()
    assert (spotlight.character_id, spotlight.hands) == (ids["hero"], [User.objects.get().pk])
    span = models.SpotlightSpan.objects.get()
    assert (span.session_id, span.character_id) == (ids["session"], ids["hero"])
    # As the table was then: the countdown's later columns (its stages) come after 0004.
    tide = after.get_model("rolls", "Countdown").objects.get(name="Tide")
    assert (tide.marked, tide.boxes, tide.outcome) == (2, 4, "The rocks")
    assert tide.failure is not None and tide.failure.name == "Tide (fails)"
    challenge = models.Challenge.objects.get()
    assert (challenge.ladder, challenge.state) == ({"rungs": []}, {"marks": 1})
    assert challenge.notes == "Wet"
    # As the log was then: the entry's later columns (its table numbers) come after 0007.
    assert after.get_model("rolls", "Roll").objects.get().session_id == session.pk
    assert list(session.spotlight_spans.all()) == [span]


@pytest.mark.django_db(transaction=True)
def test_the_constraints_still_hold_after_the_move(migrator):
    """One running session per campaign, one number per session: the moved table still says so."""
    old_state = migrator.apply_initial_migration(BEFORE)
    ids = fill_the_old_tables(old_state.apps)
    migrator.apply_tested_migration(AFTER)

    models.PlaySession.objects.create(campaign_id=ids["campaign"], number=4)
    with pytest.raises(IntegrityError), transaction.atomic():
        models.PlaySession.objects.create(campaign_id=ids["campaign"], number=5)
    with pytest.raises(IntegrityError), transaction.atomic():
        models.PlaySession.objects.create(campaign_id=ids["campaign"], number=3, ended_at=WHEN)


@pytest.mark.django_db(transaction=True)
def test_the_admins_permissions_follow_the_models(migrator):
    apps = migrator.apply_initial_migration(BEFORE).apps
    countdowns, _ = apps.get_model("contenttypes", "ContentType").objects.get_or_create(
        app_label="campaigns", model="countdown"
    )
    may_change, _ = apps.get_model("auth", "Permission").objects.get_or_create(
        content_type=countdowns, codename="change_countdown", defaults={"name": "Can change"}
    )
    helper = apps.get_model("auth", "User").objects.create(username="co-admin", is_staff=True)
    helper.user_permissions.add(may_change)

    migrator.apply_tested_migration(AFTER)

    assert User.objects.get(username="co-admin").has_perm("rolls.change_countdown")
