"""The X-card's button, on the table page and on every sheet. It answers an htmx tap with the
banner (every other screen gets it through the socket) and a plain POST with a redirect back."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from fudgetable.http import AuthenticatedHttpRequest, back_to_table
from rolls.x_card import services as x_card


@require_POST
@login_required
def x_card_tap(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """Any member, observers too. The user is looked at only to check membership."""
    campaign = membership_or_404(request.user, campaign_id).campaign
    x_card.x_card_tap(campaign=campaign)
    if request.htmx:
        return HttpResponse(x_card.banner(oob=False))
    messages.warning(request, gettext("The X-card was tapped: every screen at the table shows it."))
    return back_to_table(request, campaign_id)
