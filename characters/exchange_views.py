"""Export a character as JSON, and import a character from a file."""

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.access import membership_or_404
from characters import services
from characters.access import character_or_404, may_edit
from characters.exchange import character_to_json
from fudgetable.http import AuthenticatedHttpRequest, parsed_json, uploaded_text

MAX_BYTES = 1_000_000  # a real sheet is a few kilobytes; this only stops abuse


class ImportForm(forms.Form):
    file = forms.FileField(
        required=False,
        label=gettext_lazy("Character file (.json)"),
        widget=forms.FileInput(attrs={"accept": ".json,application/json"}),
    )
    text = forms.CharField(
        required=False,
        strip=False,
        label=gettext_lazy("…or paste the file's JSON"),
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        """Reads the upload or the pasted text as JSON into ``cleaned_data["data"]``."""
        cleaned = super().clean() or {}
        upload, text = cleaned.get("file"), cleaned.get("text") or ""
        if upload and text.strip():
            raise ValidationError(_("Upload a file or paste its JSON, not both."))
        if upload:
            text = uploaded_text(upload, MAX_BYTES, _("a character file"))
        if len(text.encode()) > MAX_BYTES:
            raise ValidationError(_("That is over 1 MB; a character file is far smaller."))
        if not text.strip():
            raise ValidationError(_("Choose a character file or paste its JSON."))
        cleaned["data"] = parsed_json(text, _("a character file"))
        return cleaned


def _download(data: dict[str, Any], filename: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(data, indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = content_disposition_header(True, filename)
    return response


@require_safe
@login_required
def character_export(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    """Whoever sees the full sheet may take it home; only its player and GMs get the notes."""
    membership, character = character_or_404(request.user, campaign_id, character_id)
    if character.is_npc and not membership.is_gm:
        raise PermissionDenied(_("Only the GMs can export an NPC."))
    data = character_to_json(character, private=may_edit(membership, character))
    return _download(data, f"{slugify(character.name) or 'character'}.json")


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def character_import(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == membership.Role.OBSERVER:
        raise PermissionDenied(_("Observers watch; they do not keep characters."))
    campaign = membership.campaign
    form = ImportForm(request.POST, request.FILES) if request.method == "POST" else ImportForm()
    problems: list[str] = []
    if request.method == "POST" and form.is_valid():
        try:
            character = services.character_import(
                campaign=campaign, owner=request.user, data=form.cleaned_data["data"]
            )
        except ValidationError as error:
            problems = error.messages
        else:
            messages.success(
                request, _("%(name)s was imported as a draft.") % {"name": character.name}
            )
            return redirect("characters:sheet", campaign.pk, character.pk)
    return render(
        request,
        "characters/import.html",
        {"campaign": campaign, "membership": membership, "form": form, "problems": problems},
    )
