from django.contrib.auth.models import User
from django.db import transaction

from campaigns.models import Campaign, Membership


@transaction.atomic
def campaign_create(*, owner: User, name: str) -> Campaign:
    """A new campaign; its owner is its first GM."""
    campaign = Campaign.objects.create(owner=owner, name=name)
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.GM)
    return campaign


def membership_add(*, campaign: Campaign, user: User, role: str) -> Membership:
    membership, _ = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    return membership
