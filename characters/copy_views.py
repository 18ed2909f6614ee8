"""A person's characters across campaigns, and copying one (or a GM's roster) into another.

Before a copy is made the page shows what carries over into the other campaign's rules and
what is dropped (``fudgetable.rules.carry_over``'s notes, in words here); the copy itself is
a POST of the same choice.
"""

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from campaigns.access import gm_or_403
from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset, memberships_for_user
from characters.access import character_or_404
from characters.models import Character, Trait
from characters.selectors import sheet_queryset
from characters.services import copying
from fudgetable.http import AuthenticatedHttpRequest
from fudgetable.offline import offline_copy
from fudgetable.rules import carry_over as co
from fudgetable.rules_words import said

WORDS = {
    co.LEVEL_CHANGED: gettext_lazy(
        "%(name)s: %(before)s becomes %(after)s, the nearest level the new ladder names"
    ),
    co.KIND_CHANGED: gettext_lazy("From %(before)s to %(after)s: %(name)s"),
    co.TRAIT_ADDED: gettext_lazy("Added at %(after)s: %(name)s"),
    co.BOXES_CHANGED: gettext_lazy(
        "The condition track has %(after)s boxes instead of %(before)s: the most a PC has there"
    ),
    co.TRAIT_DROPPED: gettext_lazy(
        "Without a level there (Peupfudge's levels are numbers bought with XP, not rungs of a "
        "ladder): %(name)s"
    ),
    co.TRAIT_TWICE: gettext_lazy("%(name)s: the copy has a %(name)s already"),
    co.XP_DROPPED: gettext_lazy(
        "%(before)s unspent XP: the new campaign prices advancement by another table"
    ),
    co.POINTS_DROPPED: gettext_lazy("%(before)s Fudge points: the new rules have none"),
    co.TRACK_CLEARED: gettext_lazy("The marks on %(name)s: the new campaign's tracks differ"),
    co.MASS_SCALE_DROPPED: gettext_lazy("Mass scale %(before)s: only EZFudge has one"),
    co.TRADES_DROPPED: gettext_lazy(
        "%(before)s traded trait slots: the new campaign's slots differ"
    ),
}
DROPPED = {
    co.TRAIT_DROPPED,
    co.TRAIT_TWICE,
    co.XP_DROPPED,
    co.POINTS_DROPPED,
    co.TRACK_CLEARED,
    co.MASS_SCALE_DROPPED,
    co.TRADES_DROPPED,
}


def _kind(kind: str) -> str:
    return str(Trait.Kind(kind).label).lower() if kind in Trait.Kind.values else kind


def in_words(notes: tuple[co.Note, ...]) -> dict[str, list[str]]:
    """What changes and what is dropped, each a sentence; the traits that change kind alike,
    are added at one level or are dropped are named in one."""
    together: dict[tuple[str, str, str], list[str]] = {}
    alone: list[co.Note] = []
    for note in notes:
        if note.code in (co.KIND_CHANGED, co.TRAIT_ADDED, co.TRAIT_DROPPED):
            together.setdefault((note.code, note.before, note.after), []).append(note.name)
        else:
            alone.append(note)
    merged = [co.Note(code, ", ".join(names), *pair) for (code, *pair), names in together.items()]
    words: dict[str, list[str]] = {"changed": [], "dropped": []}
    for note in merged + alone:
        values = {"name": note.name, "before": note.before, "after": note.after}
        if note.code == co.KIND_CHANGED:
            values.update(before=_kind(note.before), after=_kind(note.after))
        words["dropped" if note.code in DROPPED else "changed"].append(WORDS[note.code] % values)
    return words


class CopyForm(forms.Form):
    to = forms.TypedChoiceField(coerce=int, label=gettext_lazy("Into"))

    def __init__(self, *args: Any, targets: list[Campaign], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["to"]
        assert isinstance(field, forms.TypedChoiceField)
        field.choices = [(c.pk, c.name) for c in targets]
        self.targets = {c.pk: c for c in targets}

    def target(self) -> Campaign:
        return self.targets[self.cleaned_data["to"]]


def _form(request: AuthenticatedHttpRequest, targets: list[Campaign]) -> CopyForm:
    """The choice of campaign: posted, asked for in the link, or the first one."""
    if request.method == "POST":
        return CopyForm(request.POST, targets=targets)
    data = request.GET if "to" in request.GET else {"to": targets[0].pk if targets else ""}
    return CopyForm(data, targets=targets)


def _targets(request: AuthenticatedHttpRequest, allowed: Any) -> list[Campaign]:
    return [m.campaign for m in memberships_for_user(request.user) if allowed(m)]


@offline_copy
@require_safe
@login_required
def my_characters(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The person's PCs at every table they are at, and the rosters of the campaigns they run."""
    characters = (
        Character.objects.filter(
            owner=request.user,
            kind=Character.Kind.PC,
            campaign__memberships__user=request.user,
        )
        .select_related("campaign")
        .order_by("campaign__name", "campaign__pk", "name", "pk")
    )
    memberships = list(memberships_for_user(request.user))
    playable = [m for m in memberships if m.role != m.Role.OBSERVER and not m.campaign.is_archived]
    run = [m.campaign.pk for m in memberships if m.is_gm]
    rosters = (
        Campaign.objects.filter(pk__in=run)
        .annotate(npcs=Count("characters", filter=Q(characters__kind=Character.Kind.NPC)))
        .order_by("name", "pk")
    )
    labels = {m.campaign_id: said(campaign_ruleset(m.campaign).label) for m in memberships}
    return render(
        request,
        "characters/mine.html",
        {
            "characters": [(c, labels[c.campaign_id]) for c in characters],
            "may_copy": len(playable) > 1,
            "rosters": [(c, labels[c.pk]) for c in rosters],
            "may_copy_rosters": len([c for c in rosters if not c.is_archived]) > 1,
        },
    )


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def character_copy(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    """A PC's player, or an NPC's GM, sees what a copy into another campaign keeps, and
    makes it."""
    membership, character = character_or_404(request.user, campaign_id, character_id)
    may_copy = membership.is_gm if character.is_npc else character.owner_id == request.user.pk
    if not may_copy:
        raise PermissionDenied(_("Only a PC's player, or an NPC's GM, can copy it."))

    def make(target: Campaign) -> HttpResponse:
        copy = copying.character_copy(character=character, campaign=target, by=request.user)
        messages.success(
            request,
            _("%(name)s was copied into %(campaign)s as a draft.")
            % {"name": copy.name, "campaign": target.name},
        )
        return redirect("characters:sheet", target.pk, copy.pk)

    targets = _targets(request, lambda m: copying.may_copy_into(request.user, character, m))
    context = {"campaign": membership.campaign, "character": character}
    return _copy_page(request, targets, context, [character], make)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def roster_copy(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """A GM copies every NPC of this campaign into another campaign they run."""
    source = gm_or_403(request.user, campaign_id).campaign

    def make(target: Campaign) -> HttpResponse:
        copies = copying.roster_copy(source=source, campaign=target, by=request.user)
        messages.success(
            request,
            _("%(count)s NPCs were copied into %(campaign)s as drafts.")
            % {"count": len(copies), "campaign": target.name},
        )
        return redirect("characters:roster", target.pk)

    targets = _targets(
        request, lambda m: m.is_gm and m.campaign_id != source.pk and not m.campaign.is_archived
    )
    npcs = list(sheet_queryset(source).filter(kind=Character.Kind.NPC))
    return _copy_page(request, targets, {"campaign": source, "roster": True}, npcs, make)


def _copy_page(
    request: AuthenticatedHttpRequest,
    targets: list[Campaign],
    context: dict[str, Any],
    characters: list[Character],
    make: Callable[[Campaign], HttpResponse],
) -> HttpResponse:
    """The choice of campaign and what a copy there keeps; POSTed, the copy (``make``), or
    why the other campaign's rules refuse it, in words."""
    form = _form(request, targets)
    status = 400 if form.is_bound and not form.is_valid() and targets else 200
    if form.is_valid():
        target = form.target()
        if request.method == "POST":
            try:
                return make(target)
            except ValidationError as error:
                context["problems"] = error.messages
                status = 400
        rows = [(c, in_words(copying.carried_into(c, target).notes)) for c in characters]
        label = said(campaign_ruleset(target).label)
        context["preview"] = {"target": target, "label": label, "rows": rows}
    context.update({"form": form, "targets": targets})
    return render(request, "characters/copy.html", context, status=status)
