"""The roll log page, its Markdown and JSON exports, and each session's recap. Every one shows
a player what the table showed them: a secret roll only as "the GM rolled", and nothing of a
hidden difficulty."""

import json
from typing import Any, cast

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from campaigns.access import membership_or_404
from campaigns.models import Membership
from fudgetable import entry_ids
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.live import audience_of
from rolls import fragments, log_selectors
from rolls.log import export as log_export
from rolls.log import pane as table_log
from rolls.log.tally import tally
from rolls.models import PlaySession, Roll
from rolls.spotlight import services as spotlight
from rolls.views import may_spend_for


class LogFilterForm(forms.Form):
    session = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)
    character = forms.TypedChoiceField(required=False, coerce=int, empty_value=None)

    def __init__(self, data: Any, *, membership: Membership) -> None:
        super().__init__(data)
        campaign = membership.campaign
        self.sessions = {s.number: s for s in log_selectors.sessions(campaign)}
        self.characters = log_selectors.log_characters(campaign, gm_view=membership.is_gm)
        cast(forms.ChoiceField, self.fields["session"]).choices = [
            ("", gettext("Every session"))
        ] + [
            (number, gettext("Session %(number)s") % {"number": number}) for number in self.sessions
        ]
        cast(forms.ChoiceField, self.fields["character"]).choices = [
            ("", gettext("Every character"))
        ] + [(c.pk, c.name) for c in self.characters]

    def session_chosen(self) -> PlaySession | None:
        number = self.cleaned_data.get("session")
        return None if number is None else self.sessions[number]

    def described(self) -> str:
        """The filters in words, for the export's heading."""
        parts = []
        if self.cleaned_data.get("session") is not None:
            parts.append(gettext("Session %(number)s") % {"number": self.cleaned_data["session"]})
        chosen = self.cleaned_data.get("character")
        parts += [c.name for c in self.characters if c.pk == chosen]
        return " · ".join(parts)


def _filtered(
    request: AuthenticatedHttpRequest, membership: Membership
) -> tuple[LogFilterForm, QuerySet[Roll] | None]:
    """The log this viewer asked for; ``None`` when the filters name nothing at this table."""
    form = LogFilterForm(request.GET, membership=membership)
    if not form.is_valid():
        return form, None
    rolls = log_selectors.filtered_log(
        membership.campaign,
        gm_view=membership.is_gm,
        reader=membership.user_id,
        session=form.session_chosen(),
        character_id=form.cleaned_data.get("character"),
    )
    return form, rolls


def _entries(
    request: AuthenticatedHttpRequest, membership: Membership, rolls: Any, *, controls: bool
) -> list[str]:
    """Each roll for this viewer alone (the page is not pushed), so the controls can be theirs:
    a GM's note form, and the spend buttons of the Fudge points this person may spend."""
    audience = audience_of(membership)
    allowed = fragments.allowed_uses(membership.campaign)
    entries = []
    for roll in rolls:
        spend: list[tuple[str, str]] = []
        if controls and not roll.spent_on and may_spend_for(membership, roll):
            spend = fragments.spendable(roll, allowed, gm_view=membership.is_gm)
        entries.append(
            fragments.roll_entry(
                roll,
                audience,
                request=request,
                spend=spend,
                plain=True,
                next_url=request.get_full_path(),
                controls=controls,
            )
        )
    return entries


@require_safe
@login_required
def log(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    form, rolls = _filtered(request, membership)
    if rolls is None:
        messages.error(
            request, gettext("No such session or character here; here is the whole log.")
        )
        form, rolls = _filtered_all(membership)
    page = Paginator(rolls, log_selectors.PAGE_SIZE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "form": form,
        "sessions": list(form.sessions.values()),
        "characters": form.characters,
        "chosen_session": form.cleaned_data.get("session"),
        "chosen_character": form.cleaned_data.get("character"),
        "page": page,
        "entries": _entries(request, membership, page.object_list, controls=True),
        "query": f"?{query.urlencode()}" if query else "",
    }
    return render(request, "rolls/log/page.html", context)


def _filtered_all(membership: Membership) -> tuple[LogFilterForm, QuerySet[Roll]]:
    form = LogFilterForm({}, membership=membership)
    form.is_valid()
    rolls = log_selectors.filtered_log(
        membership.campaign, gm_view=membership.is_gm, reader=membership.user_id
    )
    return form, rolls


@require_safe
@login_required
def export(request: AuthenticatedHttpRequest, campaign_id: int, fmt: str) -> HttpResponse:
    """The (filtered) log as a file: Markdown to read or paste, JSON to keep or process."""
    membership = membership_or_404(request.user, campaign_id)
    form, rolls = _filtered(request, membership)
    if rolls is None:
        return HttpResponseBadRequest(gettext("No such session or character here."))
    campaign, gm_view = membership.campaign, membership.is_gm
    filters = form.described()
    name = slugify(campaign.name) or "campaign"
    if fmt == "json":
        heading = {
            "campaign": campaign.name,
            "exported_at": timezone.localtime().isoformat(timespec="seconds"),
            "filters": filters,
        }
        body = json.dumps(
            log_export.as_json(rolls, gm_view=gm_view, heading=heading),
            ensure_ascii=False,
            indent=2,
        )
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    else:
        body = log_export.as_markdown(rolls, gm_view=gm_view, title=campaign.name, filters=filters)
        response = HttpResponse(body, content_type="text/markdown; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}-log.{fmt}"'
    return response


@require_safe
@login_required
def recap(request: AuthenticatedHttpRequest, campaign_id: int, number: int) -> HttpResponse:
    """One session: its log in the order it came, counted (rolls apart from what was said)
    and, once it ended, the XP it gave."""
    membership = membership_or_404(request.user, campaign_id)
    session = get_object_or_404(PlaySession, campaign_id=campaign_id, number=number)
    rolls = list(
        log_selectors.filtered_log(
            membership.campaign,
            gm_view=membership.is_gm,
            reader=membership.user_id,
            session=session,
        ).order_by("created_at", "pk")
    )
    context = {
        "campaign": membership.campaign,
        "membership": membership,
        "session": session,
        "xp_awarded": sorted(session.xp_awarded.items()),
        "spotlight_shares": spotlight.session_shares(session),
        "entries": _entries(request, membership, rolls, controls=False),
        "tally": tally(rolls).said(),
    }
    return render(request, "rolls/log/recap.html", context)


@require_safe
@login_required
def earlier(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """The table's log pane going back: the page of entries before the one named, as this
    person reads the log."""
    membership = membership_or_404(request.user, campaign_id)
    campaign = membership.campaign
    before = None
    named = entry_ids.decode(request.GET.get("before", ""))
    if named is not None:
        log = log_selectors.filtered_log(
            campaign, gm_view=membership.is_gm, reader=membership.user_id
        )
        before = log.filter(pk=named).first()
    if before is None:
        raise Http404(gettext("No such entry in this log"))
    audience = audience_of(membership)
    return HttpResponse(
        table_log.earlier_entries(campaign, audience, before, request, reader=membership.user_id)
    )
