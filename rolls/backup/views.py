"""A campaign's backup: the GMs download it, and anyone signed in restores one as a new
campaign of their own."""

import contextlib
import json
from collections.abc import Iterator
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_safe
from django_ratelimit.core import is_ratelimited

from campaigns.access import gm_or_403
from fudgetable.http import AuthenticatedHttpRequest, parsed_json, uploaded_text
from fudgetable.request_queue import Lane, Turns
from rolls.backup.restore import Restored, campaign_restore
from rolls.backup.write import campaign_to_json

MAX_BYTES = 20_000_000  # a long campaign's log is a few megabytes; this only stops abuse
FORM_ROOM = 64 * 1024  # the form's other fields and its multipart framing


def most_bytes() -> int:
    """The largest backup taken: MAX_BYTES, within the server's own limit on a request's body
    (``MAX_BODY_MB``), so a file too large is named as such by the form, not refused unread."""
    return min(MAX_BYTES, settings.MAX_BODY_BYTES - FORM_ROOM)


class RestoreForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Campaign backup (.json)"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
        error_messages={"required": gettext_lazy("Choose the backup file to restore.")},
    )

    def clean_file(self) -> Any:
        """Reads the upload as JSON into ``cleaned_data["data"]``."""
        upload = self.cleaned_data["file"]
        text = uploaded_text(upload, most_bytes(), "a campaign's backup")
        self.cleaned_data["data"] = parsed_json(text, "a campaign's backup")
        return upload


@require_safe
@login_required
def campaign_export(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    campaign = gm_or_403(request.user, campaign_id).campaign
    response = HttpResponse(
        json.dumps(campaign_to_json(campaign), indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    filename = f"{slugify(campaign.name) or 'campaign'}.json"
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def campaign_restore_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    """A restore runs in a lane of its own (``fudgetable.asgi``: one at a time in a process,
    never in the turns the tables' requests take), one at a time per person, and at most
    ``RESTORES_PER_HOUR`` an hour per person: three bad files at once held both request
    slots of the embedded default for half a minute, and one account could do it again and
    again."""
    if request.method != "POST":
        return _page(request, RestoreForm())
    if is_ratelimited(
        request,
        group="restore",
        key="user",
        rate=f"{settings.RESTORES_PER_HOUR}/h",
        increment=True,
    ):
        text = gettext("You may restore %(count)s backups an hour; try again later.")
        return _page(request, RestoreForm(), refusal=text % {"count": settings.RESTORES_PER_HOUR})
    with _one_at_a_time(request.user) as mine:
        if not mine:
            refusal = gettext("Your other restore is still under way: wait for it to finish.")
            return _page(request, RestoreForm(), refusal=refusal)
        form = RestoreForm(request.POST, request.FILES)
        if not form.is_valid():
            return _page(request, form, status=400)
        try:
            restored = campaign_restore(owner=request.user, data=form.cleaned_data["data"])
        except ValidationError as error:
            return _page(request, form, problems=error.messages, status=400)
        return _restored(request, restored)


RESTORE_WAIT_SECONDS = 30.0


def restore_lane() -> Lane:
    """The restores' own turn in a process (``fudgetable.asgi``): one at a time, the next
    waiting up to half a minute, then told to come back in a minute."""
    return Lane(
        Turns(1, wait=RESTORE_WAIT_SECONDS),
        busy_text=lambda: gettext(
            "Another backup is being restored on this server. Nothing was saved; "
            "try again in a minute."
        ),
        retry_after="60",
    )


RESTORE_UNDER_WAY_SECONDS = 600  # past any restore's time: a lock a crash left goes by itself


@contextlib.contextmanager
def _one_at_a_time(user: User) -> Iterator[bool]:
    """True while this is the person's one restore under way, on any process (the cache is
    shared in scaled mode); False if another is."""
    key = f"restore-under-way:{user.pk}"
    if not cache.add(key, True, RESTORE_UNDER_WAY_SECONDS):
        yield False
        return
    try:
        yield True
    finally:
        cache.delete(key)


def _page(
    request: HttpRequest,
    form: RestoreForm,
    *,
    problems: list[str] | None = None,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    """The restore page; ``refusal``: why the file was not even read (a 429)."""
    if refusal:
        messages.error(request, refusal + " " + gettext("Nothing was saved."))
        status = 429
    context = {"form": form, "problems": problems or []}
    return render(request, "rolls/backup/restore.html", context, status=status)


def _restored(request: HttpRequest, restored: Restored) -> HttpResponse:
    """The new campaign; where there are people to bring back, its invite links first."""
    campaign = restored.campaign
    characters = ngettext("%(count)s character", "%(count)s characters", restored.characters) % {
        "count": restored.characters
    }
    sessions = ngettext("%(count)s session", "%(count)s sessions", restored.sessions) % {
        "count": restored.sessions
    }
    entries = ngettext("%(count)s log entry", "%(count)s log entries", restored.entries) % {
        "count": restored.entries
    }
    messages.success(
        request,
        gettext("%(campaign)s is restored: %(characters)s, %(sessions)s and %(entries)s.")
        % {
            "campaign": campaign.name,
            "characters": characters,
            "sessions": sessions,
            "entries": entries,
        },
    )
    if restored.unplayed:
        messages.info(
            request,
            gettext(
                "No account here has the name of the player of %(names)s; those PCs are played "
                "by nobody for now, and you keep them as their GM."
            )
            % {"names": ", ".join(restored.unplayed)},
        )
    if not restored.to_invite:
        return redirect("campaigns:detail", campaign.pk)
    people = ", ".join(restored.to_invite)
    if restored.co_gms:
        text = gettext(
            "Send the links below to %(people)s, and make %(gms)s GM again once they have "
            "joined. Whoever has an account here of the same name finds their PCs theirs."
        ) % {"people": people, "gms": ", ".join(restored.co_gms)}
    else:
        text = gettext(
            "Send the links below to %(people)s. Whoever has an account here of the same name "
            "finds their PCs theirs."
        ) % {"people": people}
    messages.info(request, text)
    return redirect("campaigns:invites", campaign.pk)
