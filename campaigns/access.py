"""The one place that decides who may see or change a campaign.

Outsiders get a 404 with no hint that the campaign exists; members who may look but not
change something get a 403.
"""

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from campaigns.models import Membership
from campaigns.selectors import membership_for


def membership_or_404(user: User, campaign_id: int) -> Membership:
    membership = membership_for(user, campaign_id)
    if membership is None:
        raise Http404(_("No such campaign"))
    return membership


def gm_or_403(user: User, campaign_id: int) -> Membership:
    membership = membership_or_404(user, campaign_id)
    if not membership.is_gm:
        raise PermissionDenied(_("Only the campaign's GMs can do that."))
    return membership


def owner_or_403(user: User, campaign_id: int) -> Membership:
    membership = membership_or_404(user, campaign_id)
    if not membership.is_owner:
        raise PermissionDenied(_("Only the campaign's owner can do that."))
    return membership
