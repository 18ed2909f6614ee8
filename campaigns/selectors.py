from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from campaigns.models import Membership


def memberships_for_user(user: User) -> QuerySet[Membership]:
    """The campaigns a person is at, with their role, for the dashboard."""
    return (
        Membership.objects.filter(user=user)
        .select_related("campaign", "campaign__owner")
        .order_by("campaign__name", "campaign__pk")
    )


def membership_for(user: User | AnonymousUser, campaign_id: int) -> Membership | None:
    if not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(user_id=user.pk, campaign_id=campaign_id)
        .select_related("campaign")
        .first()
    )
