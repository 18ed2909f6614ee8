"""The GM's NPC roster: search, create (blank or from a starter template), edit, duplicate
as mooks, and reveal to or hide from the players.

Only GMs reach these pages: players get a 403, outsiders a 404. Traits, gifts, faults and gear
are edited on the NPC's sheet, which already serves GMs.
"""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import capfirst, format_lazy
from django.utils.translation import gettext, gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from campaigns.access import gm_or_403
from campaigns.models import Membership
from characters import npc_templates, services
from characters.models import Character
from characters.selectors import HIDDEN, REVEALED, npc_roster
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said

QUERY_LENGTH = 100
BOXES_HELP = gettext_lazy("1 or 2 for minor foes, up to a PC's track for the ones who matter.")


class NpcCreateForm(forms.Form):
    template = forms.ChoiceField(required=False, label=gettext_lazy("Start from"))
    name = forms.CharField(
        label=gettext_lazy("Name"),
        max_length=services.NAME_LENGTH,
        required=False,
        help_text=gettext_lazy("Blank: the template's name."),
    )
    npc_boxes = forms.IntegerField(
        required=False,
        label=gettext_lazy("Condition boxes"),
        help_text=format_lazy("{} {}", BOXES_HELP, gettext_lazy("Blank: the template's.")),
    )
    description = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("Description (players see it once revealed)"),
    )

    def __init__(self, *args: Any, campaign_ruleset: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["template"]
        assert isinstance(field, forms.ChoiceField)
        templates = npc_templates.templates_for(campaign_ruleset)
        field.choices = [("", gettext("A blank NPC")), *((t.key, t.name) for t in templates)]


class NpcEditForm(forms.Form):
    version = forms.IntegerField(widget=forms.HiddenInput)
    name = forms.CharField(label=gettext_lazy("Name"), max_length=services.NAME_LENGTH)
    description = forms.CharField(
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=gettext_lazy("Description (players see it once revealed)"),
    )
    notes = forms.CharField(
        required=False,
        max_length=10000,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Private notes"),
    )
    behaviours = forms.CharField(
        required=False,
        max_length=services.MAX_BEHAVIOURS * (services.BEHAVIOUR_LENGTH + 2),
        widget=forms.Textarea(attrs={"rows": 4}),
        label=gettext_lazy("Behaviours"),
        help_text=gettext_lazy("One per line: the GM moves this NPC suggests."),
    )
    npc_boxes = forms.IntegerField(label=gettext_lazy("Condition boxes"), help_text=BOXES_HELP)


class DuplicateForm(forms.Form):
    count = forms.IntegerField(label=gettext_lazy("How many mooks"))


def _npc_or_404(membership: Membership, npc_id: int) -> Character:
    npc = (
        Character.objects.filter(
            campaign_id=membership.campaign_id, kind=Character.Kind.NPC, pk=npc_id
        )
        .select_related("campaign")
        .first()
    )
    if npc is None:
        raise Http404(gettext("No such NPC"))
    return npc


def _add_error(form: forms.Form, error: RulesError) -> None:
    field = {"template_key": "template"}.get(error.setting, error.setting)
    form.add_error(field if field in form.fields else None, capfirst(said(error.message)))


def _roster_context(
    request: AuthenticatedHttpRequest,
    membership: Membership,
    create_form: NpcCreateForm | None = None,
) -> dict[str, Any]:
    campaign = membership.campaign
    query = request.GET.get("q", "")[:QUERY_LENGTH]
    shown = request.GET.get("shown", "")
    shown = shown if shown in (REVEALED, HIDDEN) else ""
    return {
        "campaign": campaign,
        "membership": membership,
        "npcs": npc_roster(campaign, query=query, shown=shown),
        "query": query,
        "shown": shown,
        "create_form": create_form or NpcCreateForm(campaign_ruleset=campaign.ruleset),
    }


@require_safe
@login_required
def roster(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    context = _roster_context(request, membership)
    # A history restore wants the whole page back, not the list alone.
    fragment = request.htmx and not request.htmx.history_restore_request
    template = "characters/roster.html#npc-list" if fragment else "characters/roster.html"
    return render(request, template, context)


@require_POST
@login_required
def npc_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    campaign = membership.campaign
    form = NpcCreateForm(request.POST, campaign_ruleset=campaign.ruleset)
    if form.is_valid():
        data = form.cleaned_data
        try:
            npc = services.npc_create(
                campaign=campaign,
                name=data["name"],
                template_key=data["template"] or None,
                npc_boxes=data["npc_boxes"],
                description=data["description"],
            )
        except RulesError as error:
            _add_error(form, error)
        else:
            messages.success(request, gettext("%(name)s joined the roster.") % {"name": npc.name})
            return redirect("characters:roster", campaign_id)
    return render(request, "characters/roster.html", _roster_context(request, membership, form))


def _edit_form(npc: Character) -> NpcEditForm:
    return NpcEditForm(
        initial={
            "version": npc.version,
            "name": npc.name,
            "description": npc.description,
            "notes": npc.notes,
            "behaviours": "\n".join(map(str, npc.behaviours)),
            "npc_boxes": npc.npc_boxes,
        }
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def npc_edit(request: AuthenticatedHttpRequest, campaign_id: int, npc_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    npc = _npc_or_404(membership, npc_id)
    context: dict[str, Any] = {"campaign": membership.campaign, "npc": npc}
    if request.method != "POST":
        return render(request, "characters/npc_form.html", {**context, "form": _edit_form(npc)})
    form = NpcEditForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            services.npc_update(
                npc=npc,
                version=data["version"],
                name=data["name"],
                description=data["description"],
                notes=data["notes"],
                behaviours=data["behaviours"].splitlines(),
                npc_boxes=data["npc_boxes"],
            )
        except services.StaleEdit:
            messages.error(
                request,
                gettext(
                    "This NPC was saved elsewhere while you were editing, so your changes were "
                    "not saved. The form below shows what it says now."
                ),
            )
            npc.refresh_from_db()
            context["npc"] = npc
            return render(
                request,
                "characters/npc_form.html",
                {**context, "form": _edit_form(npc)},
                status=409,
            )
        except RulesError as error:
            _add_error(form, error)
        else:
            messages.success(request, gettext("%(name)s saved.") % {"name": data["name"]})
            return redirect("characters:roster", campaign_id)
    return render(request, "characters/npc_form.html", {**context, "form": form})


@require_POST
@login_required
def npc_duplicate(request: AuthenticatedHttpRequest, campaign_id: int, npc_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    npc = _npc_or_404(membership, npc_id)
    form = DuplicateForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            gettext("No mooks made: give how many, 1 to %(most)d.") % {"most": services.MAX_MOOKS},
        )
        return redirect("characters:roster", campaign_id)
    try:
        copies = services.npc_duplicate(npc=npc, count=form.cleaned_data["count"])
    except RulesError as error:
        messages.error(request, gettext("No mooks made: %(why)s.") % {"why": said(error.message)})
    else:
        named = (
            copies[0].name
            if len(copies) == 1
            else gettext("%(first)s to %(last)s")
            % {"first": copies[0].name, "last": copies[-1].name}
        )
        made = ngettext(
            "Made %(count)d of %(name)s: %(named)s.",
            "Made %(count)d of %(name)s: %(named)s.",
            len(copies),
        )
        messages.success(request, made % {"count": len(copies), "name": npc.name, "named": named})
    return redirect("characters:roster", campaign_id)


@require_POST
@login_required
def npc_reveal(request: AuthenticatedHttpRequest, campaign_id: int, npc_id: int) -> HttpResponse:
    membership = gm_or_403(request.user, campaign_id)
    npc = services.npc_set_revealed(
        npc=_npc_or_404(membership, npc_id), revealed=request.POST.get("revealed") == "1"
    )
    if request.htmx:
        context = {"campaign": membership.campaign, "membership": membership, "npc": npc}
        return render(request, "characters/roster.html#npc-card", context)
    shown = (
        gettext("%(name)s is now shown to the players.")
        if npc.revealed
        else gettext("%(name)s is now hidden from the players.")
    )
    messages.success(request, shown % {"name": npc.name})
    return redirect("characters:roster", campaign_id)
