"""The Roll button beside each trait on a character's sheet: a check at the campaign's default
difficulty with the sheet's lines for that trait as the roller left them ticked beside the
button (by default its track's penalty and a gift that always applies; one that applies
"when it fits" only if ticked), logged at the table like any roll.
The sheet belongs to characters; the roll and its log are the table's, so the button posts
here and the answer is the sheet again, saying what came up."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from characters.access import editable_or_403
from characters.selectors import sheet_queryset
from characters.views import render_sheet
from fudgetable.http import AuthenticatedHttpRequest, form_errors
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said
from rolls import fragments, roll_lines, services
from rolls.forms import SheetRollForm


@require_POST
@login_required
def sheet_roll(
    request: AuthenticatedHttpRequest, campaign_id: int, character_id: int
) -> HttpResponse:
    membership, character = editable_or_403(request.user, campaign_id, character_id)
    form = SheetRollForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
    elif (trait := character.traits.filter(pk=form.cleaned_data["trait"]).first()) is None:
        messages.error(request, gettext("no such trait on this sheet"))
    else:
        try:
            roll = services.roll_check(
                membership=membership,
                key=form.cleaned_data["key"],
                level=trait.level + trait.modifier,
                trait_name=trait.name,
                character=character,
                ticks=roll_lines.ticks(form.cleaned_data),
            )
        except RulesError as error:
            messages.error(request, said(error.message))
        else:
            messages.info(request, fragments.roll_summary(roll))
    if not request.htmx:
        return redirect("characters:sheet", campaign_id, character_id)
    character = sheet_queryset(character.campaign).get(pk=character.pk)
    return render_sheet(request, character, membership)
