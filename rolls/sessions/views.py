"""The GM starts and ends the evening's play session; ending it pays each PC's XP, and the
GM stays at the table, its recap a link away."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from campaigns.access import gm_or_403
from campaigns.selectors import campaign_ruleset
from fudgetable.http import AuthenticatedHttpRequest, refusal
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said
from rolls import fragments
from rolls.selectors import running_session
from rolls.sessions import services as sessions


@require_POST
@login_required
def session_start(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    try:
        sessions.session_start(campaign=campaign)
    except RulesError as error:
        return _session_refused(request, campaign_id, said(error.message))
    return redirect("rolls:table", campaign_id)


def _session_refused(
    request: AuthenticatedHttpRequest, campaign_id: int, message: str
) -> HttpResponse:
    if request.htmx:
        return refusal(message)
    messages.error(request, message)
    return redirect("rolls:table", campaign_id)


@require_POST
@login_required
def session_end(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    session = running_session(campaign)
    if session is None:
        return _session_refused(request, campaign_id, gettext("No session is running."))
    form = fragments.session_end_form(campaign, campaign_ruleset(campaign), request.POST)
    if not form.is_valid():
        return _session_refused(request, campaign_id, form.problem())
    try:
        sessions.session_end(session=session, counts=form.counts())
    except RulesError as error:
        return _session_refused(request, campaign_id, said(error.message))
    if request.htmx:
        # The GM stays at the table: the session's card says it ended, links its recap and
        # says what XP it gave.
        return HttpResponse(fragments.session_status(campaign, "gm", oob=False))
    messages.success(request, gettext("Session %(number)s has ended.") % {"number": session.number})
    return redirect("rolls:table", campaign_id)
