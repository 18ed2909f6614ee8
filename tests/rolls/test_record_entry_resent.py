"""A form sent twice at the same moment makes one log entry: the second finds the key taken at
the INSERT (rolls.services.record_entry), answers with the first's entry, and takes back what
it wrote (its number, anything its caller wrote). On SQLite and on PostgreSQL."""

import pytest
from django.db import transaction

from campaigns.models import Membership
from fudgetable.models import TableSequence
from rolls.models import Roll
from rolls.services import record_entry

pytestmark = pytest.mark.django_db


def written(membership, label):
    with transaction.atomic():
        return record_entry(
            membership=membership,
            kind=Roll.Kind.ANNOUNCEMENT,
            label=label,
            snapshot={},
            succeeded=None,
            key="resent-at-once",
        )


@pytest.mark.parametrize("who", ["owner", "member"])
def test_the_second_copy_answers_with_the_first_and_takes_its_number_back(campaign, who, request):
    user = request.getfixturevalue(who)
    membership = Membership.objects.get(campaign=campaign, user=user)
    first, made = written(membership, "first")
    numbers = TableSequence.objects.values_list("everyone", "gm").get(campaign_id=campaign.pk)
    again, made_again = written(membership, "second")
    assert made and not made_again and again.pk == first.pk and again.label == "first"
    assert Roll.objects.filter(campaign=campaign, idempotency_key="resent-at-once").count() == 1
    after = TableSequence.objects.values_list("everyone", "gm").get(campaign_id=campaign.pk)
    assert after == numbers  # no number skipped on any screen
    # The table goes on: the next entry is written and numbered one past.
    next_entry, made_next = record_entry(
        membership=membership,
        kind=Roll.Kind.ANNOUNCEMENT,
        label="next",
        snapshot={},
        succeeded=None,
        key="the-next-key",
    )
    assert made_next and next_entry.gm_seq == numbers[1] + 1
