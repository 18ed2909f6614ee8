"""The one place that decides who may see a campaign."""

from django.contrib.auth.models import User
from django.http import Http404

from campaigns.models import Membership
from campaigns.selectors import membership_for


def membership_or_404(user: User, campaign_id: int) -> Membership:
    """A member's membership; anyone else gets a 404, with no hint the campaign exists."""
    membership = membership_for(user, campaign_id)
    if membership is None:
        raise Http404("No such campaign")
    return membership
