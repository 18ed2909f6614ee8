from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from campaigns.access import membership_or_404
from fudgetable.http import AuthenticatedHttpRequest


@require_GET
@login_required
def campaign_detail(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    members = campaign.memberships.select_related("user").order_by("role", "user__username")
    return render(
        request,
        "campaigns/detail.html",
        {"campaign": campaign, "membership": membership, "members": members},
    )
