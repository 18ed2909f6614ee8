"""A campaign backup with any part of it replaced by generated JSON is restored or refused with
its problems listed: never another error, a refused file saves nothing, and a restored one
shows on every page of its table."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rolls.backup.restore import campaign_restore
from rolls.models import PlaySession
from tests.characters.test_import_fuzz import EDGES, JSON, _paths, _replaced
from tests.rolls.backup.test_campaign_backup import backed_up, played, row_counts  # noqa: F401
from tests.rolls.fight_setup import brute, dice, ez, jason  # noqa: F401

pytestmark = pytest.mark.django_db

# Values a log entry or a table part holds, which random JSON seldom spells.
TABLE_EDGES = st.sampled_from(
    [0, -1, 10**9, "2026-11-24T20:15:00", "2026-11-24T20:15:00+00:00", {"fight": {}}, ["+"]]
)


@pytest.fixture
def backup(played):  # noqa: F811
    return backed_up(played)


@settings(
    max_examples=120,
    derandomize=True,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_a_mangled_backup_is_restored_or_refused_with_nothing_saved(
    owner, backup, client_for, data
):
    path = data.draw(st.sampled_from(_paths(backup)), label="place")
    value = data.draw(st.one_of(EDGES, TABLE_EDGES, JSON), label="value")
    before = row_counts()
    try:
        restored = campaign_restore(owner=owner, data=_replaced(backup, path, value)).campaign
    except ValidationError as refusal:
        assert refusal.messages, "a refusal names its problems"
        assert row_counts() == before
        event("refused")
        return
    event("restored")
    client = client_for(owner)
    pages = [
        reverse(name, args=[restored.pk])
        for name in ("rolls:table", "rolls:log", "rolls:log_json", "rolls:log_markdown")
    ]
    pages += [
        reverse("rolls:recap", args=[restored.pk, number])
        for number in PlaySession.objects.filter(campaign=restored).values_list("number", flat=True)
    ]
    pages += [
        reverse("characters:list", args=[restored.pk]),
        reverse("campaign_export", args=[restored.pk]),
    ]
    for page in pages:
        assert client.get(page).status_code == 200, page


def test_a_log_time_without_its_offset_is_refused_with_nothing_saved(owner, backup):
    """Found by the test above: a time with no offset was named as a problem, then compared
    with the entry before it, and the comparison raised instead of the refusal."""
    assert len(backup["log"]) > 1
    backup["log"][1]["time"] = backup["log"][1]["time"][:19]  # "2026-11-29T09:08:11"
    before = row_counts()
    with pytest.raises(ValidationError) as refusal:
        campaign_restore(owner=owner, data=backup)
    assert any("log[1].time" in message for message in refusal.value.messages)
    assert row_counts() == before
