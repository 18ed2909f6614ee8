"""What the table's two GM cards, countdowns and challenge ladders, share: how a GM's command on
one runs (the form its POST is read with, the service it calls, its refusal as one sentence,
small enough for a card) and is answered, and how a card renders for one audience.

Pushed copies are rendered without a request, so their forms carry no CSRF token and post
through htmx (the page's ``hx-headers`` carry it); the page and htmx answers have it.
"""

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string

from fudgetable.http import AuthenticatedHttpRequest, over_table_socket, pushed_answer
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import refusal_words

# One view serves every command on an existing row; the URL names which. Each command: the
# form its POST is read with (None: the raw POST, checked by the service), and the service
# call given the row and the data.
Command = tuple[type[forms.Form] | None, Callable[[Any, Mapping[str, Any]], object]]


def first_error(form: forms.Form) -> str:
    """One message for the whole form: the table's cards are too small for more."""
    for field, problems in form.errors.items():
        label = form.fields[field].label if field in form.fields else None
        prefix = f"{label}: " if label else ""
        return prefix + str(problems[0])
    return ""


def attempt(action: Callable[[], object]) -> str:
    """Runs a service; its refusal, as a sentence for the GM, or "" when it went through."""
    try:
        action()
    except RulesError as error:
        return refusal_words(error)
    except ValidationError as error:
        return error.messages[0]
    return ""


def run(request: HttpRequest, command: Command, row: object) -> str:
    """Reads the command's form and runs it on ``row``; the refusal as a sentence, or ""."""
    form_class, action = command
    data: Mapping[str, Any] = request.POST
    if form_class is not None:
        form = form_class(request.POST)
        if not form.is_valid():
            return first_error(form)
        data = form.cleaned_data
    return attempt(lambda: action(row, data))


def answer(
    request: AuthenticatedHttpRequest,
    campaign_id: int,
    problem: str,
    render: Callable[[], str],
    *,
    pushed: bool = False,
) -> HttpResponse:
    """A plain POST goes back to the table with the refusal as a message; htmx gets ``render()``
    (the card's list, or its whole card when the form that made a row was refused).
    ``pushed``: the command's event carries ``render()``'s list to the table's GMs, so a
    command that went through over the table's socket is answered with nothing to swap."""
    if not request.htmx:
        if problem:
            messages.error(request, problem)
        return redirect("rolls:table", campaign_id)
    if pushed and not problem and over_table_socket(request):
        return pushed_answer()
    return HttpResponse(render())


def render_list(
    template: str,
    context: dict[str, object],
    *,
    oob: bool,
    problem: str,
    request: HttpRequest | None,
) -> str:
    values = {**context, "oob": oob, "problem": problem}
    return render_to_string(f"{template}#list", values, request=request)


def render_card(
    template: str, context: dict[str, object], request: HttpRequest, *, form: object, problem: str
) -> str:
    """A GM's whole card (the list and the form that makes a new one), for an htmx answer."""
    values = {**context, "form": form, "form_problem": problem}
    return render_to_string(f"{template}#card", values, request=request)


def choices_of(table: Mapping[str, tuple[str, int]]) -> list[tuple[str, str]]:
    """A rules table ({key: (words, modifier)}) as a select's choices: the fight's ranged form
    and the scene's areas both offer the ranged rules' light and cover."""
    return [(key, words) for key, (words, _) in table.items()]
