"""A campaign's table aid: the ladder, the dice's exact odds, the track and the Fudge point uses
on one printable page, all from the rules in force (``fudgetable.rules.table_aid``)."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe

from campaigns.access import membership_or_404
from campaigns.selectors import campaign_ruleset
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.offline import offline_copy
from fudgetable.rules.table_aid import table_aid


@offline_copy
@require_safe
@login_required
def table_aid_page(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    context = {"campaign": campaign, "aid": table_aid(campaign_ruleset(campaign))}
    return render(request, "campaigns/table_aid.html", context)
