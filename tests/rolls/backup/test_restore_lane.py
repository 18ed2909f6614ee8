"""A restore keeps out of play's way: at most RESTORES_PER_HOUR a person, one at a time a
person, its log written a few hundred entries a transaction (a long log held SQLite's one write
lock for 13 s in one), and nobody's campaign until it is all written. Its turn of its own in
each process is tested in tests/fudgetable/test_request_queue.py."""

import json

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import DatabaseError, connection
from django.urls import reverse

from campaigns.models import Campaign
from rolls.backup import restore
from rolls.models import Roll
from tests.rolls.backup.test_campaign_backup import backed_up, row_counts
from tests.rolls.conftest import fresh_key

HX = {"HX-Request": "true"}
PEOPLE = ["owner", "member", "outsider"]


def as_file(backup: dict) -> dict:
    return {"file": SimpleUploadedFile("backup.json", json.dumps(backup).encode())}


@pytest.fixture
def logged(campaign, owner, client_for):
    """A campaign with a dozen entries in its log, backed up."""
    client = client_for(owner)
    for number in range(12):
        data = {"kind": "reaction", "key": fresh_key(), "label": f"Roll {number}"}
        client.post(reverse("rolls:roll", args=[campaign.pk]), data, headers=HX)
    return backed_up(campaign)


@pytest.mark.django_db
@pytest.mark.parametrize("person", PEOPLE)
def test_a_person_restores_at_most_so_many_backups_an_hour(
    logged, client_for, settings, person, request
):
    settings.RATELIMIT_ENABLE = True
    settings.RESTORES_PER_HOUR = 2
    cache.clear()
    client = client_for(request.getfixturevalue(person))
    url = reverse("campaign_restore")
    for _ in range(2):
        assert client.post(url, as_file(logged)).status_code == 302
    before = row_counts()
    response = client.post(url, as_file(logged))
    assert response.status_code == 429
    page = response.content.decode()
    assert "You may restore 2 backups an hour; try again later. Nothing was saved." in page
    assert row_counts() == before


@pytest.mark.django_db
@pytest.mark.parametrize("person", PEOPLE)
def test_a_second_restore_of_one_person_at_once_is_refused_in_words(
    logged, client_for, person, request
):
    user = request.getfixturevalue(person)
    cache.add(f"restore-under-way:{user.pk}", True, 60)  # their other restore, still running
    try:
        before = row_counts()
        response = client_for(user).post(reverse("campaign_restore"), as_file(logged))
    finally:
        cache.delete(f"restore-under-way:{user.pk}")
    assert response.status_code == 429
    assert "Your other restore is still under way" in response.content.decode()
    assert row_counts() == before


@pytest.mark.django_db(transaction=True)
def test_the_log_is_written_a_batch_a_transaction_and_the_campaign_is_nobodys_until_done(
    logged, owner, monkeypatch
):
    monkeypatch.setattr(restore, "BATCH", 5)
    seen = []
    real = Roll.objects.bulk_create

    def spying(rolls, *args, **kwargs):
        rolls = list(rolls)
        # The batch's own transaction, outermost: it commits, and the write lock goes.
        seen.append((len(rolls), len(connection.atomic_blocks)))
        campaign = rolls[0].campaign
        assert not campaign.memberships.exists()  # nobody's yet: no page shows it
        return real(rolls, *args, **kwargs)

    monkeypatch.setattr(Roll.objects, "bulk_create", spying)
    restored = restore.campaign_restore(owner=owner, data=logged).campaign
    assert seen == [(5, 1), (5, 1), (2, 1)]
    assert restored.memberships.get().user == owner
    assert Roll.objects.filter(campaign=restored).count() == 12


@pytest.mark.django_db(transaction=True)
def test_a_failure_half_way_through_the_log_leaves_nothing_behind(logged, owner, monkeypatch):
    monkeypatch.setattr(restore, "BATCH", 5)
    real = Roll.objects.bulk_create
    batches = []

    def failing(rolls, *args, **kwargs):
        batches.append(1)
        if len(batches) == 2:
            raise DatabaseError("the disk is full")
        return real(rolls, *args, **kwargs)

    monkeypatch.setattr(Roll.objects, "bulk_create", failing)
    before = row_counts()
    with pytest.raises(DatabaseError):
        restore.campaign_restore(owner=owner, data=logged)
    assert row_counts() == before
    assert Campaign.objects.count() == 1  # the backed-up campaign alone
