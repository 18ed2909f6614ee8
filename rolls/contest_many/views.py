"""The table's form for a contest of many (``rolls.contest_many.services``): a side a row, each a
character's trait and its own modifiers. Any member but an observer may roll one; only a GM
keeps it secret. "Odds first" answers with each side's chance of winning and rolls nothing.
An htmx request gets the card back; a plain POST goes back to the table with a message."""

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.utils.translation import gettext, gettext_lazy
from django.views.decorators.http import require_POST

from campaigns.access import membership_or_404
from campaigns.models import Membership
from campaigns.selectors import campaign_ladder
from fudgetable.http import AuthenticatedHttpRequest, new_key
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words
from rolls.contest_many import services as contest_many
from rolls.forms import parse_modifiers
from rolls.fragments import roll_summary
from rolls.gm_cards import first_error
from rolls.models import Roll

TEMPLATE = "rolls/contest_many/card.html"
SHOWN_SIDES = 3  # the rest wait behind "More sides"
NUMBERS = range(1, contest_many.MAX_SIDES + 1)


class ContestManyForm(forms.Form):
    label = forms.CharField(
        max_length=contest_many.LABEL_LENGTH, required=False, label=gettext_lazy("What")
    )
    secret = forms.BooleanField(required=False)
    key = forms.CharField(max_length=64, min_length=8)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for number in NUMBERS:
            self.fields[f"side_{number}"] = forms.IntegerField(
                required=False, label=gettext("Side %(number)s") % {"number": number}
            )
            self.fields[f"modifiers_{number}"] = forms.CharField(
                max_length=40,
                required=False,
                label=gettext("Side %(number)s's modifiers") % {"number": number},
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        sides = []
        for number in NUMBERS:
            trait, text = data.get(f"side_{number}"), data.get(f"modifiers_{number}") or ""
            if f"modifiers_{number}" in self.errors or f"side_{number}" in self.errors:
                continue
            try:
                modifiers = parse_modifiers(text)
            except forms.ValidationError as error:
                self.add_error(f"modifiers_{number}", error)
                continue
            if trait is None:
                if modifiers:
                    self.add_error(
                        f"side_{number}",
                        gettext("Pick who rolls on this side, or clear its modifiers."),
                    )
                continue
            sides.append((trait, modifiers))
        data["sides"] = sides
        return data


def _choices(membership: Membership) -> list[tuple[str, list[tuple[str, str]]]]:
    """Each character this person may enter, with its traits at their levels."""
    ladder = campaign_ladder(membership.campaign)
    characters = (
        contest_many.enterable(membership).prefetch_related("traits").order_by("kind", "name")
    )
    groups = []
    for character in characters:
        traits = sorted(character.traits.all(), key=lambda trait: trait.name)
        if not traits:
            continue
        who = (
            gettext("%(name)s (NPC)") % {"name": character.name}
            if character.is_npc
            else character.name
        )
        options = [
            (
                str(trait.pk),
                f"{trait.name}, {ladder.describe(trait.level + trait.modifier)}",
            )
            for trait in traits
        ]
        groups.append((who, options))
    return groups


def card_context(membership: Membership, data: Any = None, *, key: str = "") -> dict[str, object]:
    """What the card shows this person; ``data`` keeps what a refused or answered form held."""
    data = data or {}
    rows = [
        {
            "number": number,
            "trait": str(data.get(f"side_{number}") or ""),
            "modifiers": data.get(f"modifiers_{number}") or "",
        }
        for number in NUMBERS
    ]
    return {
        "campaign": membership.campaign,
        "gm_view": membership.is_gm,
        "may_roll": membership.role != Membership.Role.OBSERVER,
        "choices": _choices(membership),
        "shown_rows": rows[:SHOWN_SIDES],
        "more_rows": rows[SHOWN_SIDES:],
        "more_open": any(row["trait"] for row in rows[SHOWN_SIDES:]),
        "label": data.get("label") or "",
        "secret": bool(data.get("secret")),
        "key": key or new_key(),
    }


def _card(request: HttpRequest, membership: Membership, data: Any, **extra: object) -> str:
    values = {**card_context(membership, data, key=str(extra.pop("key", ""))), **extra}
    return render_to_string(f"{TEMPLATE}#card", {**values, "open": True}, request=request)


@require_POST
@login_required
def contest_many_roll(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    if membership.role == Membership.Role.OBSERVER:
        raise PermissionDenied(gettext("Observers watch; they do not roll."))
    form = ContestManyForm(request.POST)
    made: Roll | None = None
    problem, chances = "", []
    if not form.is_valid():
        problem = first_error(form)
    else:
        data = form.cleaned_data
        try:
            sides = contest_many.sides_from(membership, data["sides"])
            if request.POST.get("odds"):
                chances = contest_many.contest_odds(membership, sides)
            else:
                made = contest_many.roll_contest_many(
                    membership=membership,
                    key=data["key"],
                    sides=sides,
                    label=data["label"],
                    secret=data["secret"],
                )
        except RulesError as error:
            problem = refusal_words(error)
    said = roll_summary(made, gm_view=membership.is_gm) if made else ""
    odds_said = "; ".join(f"{who} {chance}" for who, chance in chances)
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        elif said:
            messages.info(request, said)
        else:
            messages.info(request, gettext("Chances of winning: %(odds)s.") % {"odds": odds_said})
        return redirect("rolls:table", campaign_id)
    return HttpResponse(
        _card(
            request,
            membership,
            request.POST,
            problem=problem,
            made=said,
            chances=chances,
            key=new_key() if made else str(request.POST.get("key") or ""),
            # A secret roll made, the next one is not secret unless the GM says so again.
            **({"secret": False} if made else {}),
        )
    )
