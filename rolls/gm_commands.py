"""How a GM's command on a table card (a countdown, a challenge ladder) runs: the form its POST
is read with, the service it calls, and its refusal as one sentence, small enough for a card."""

from collections.abc import Callable, Mapping
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest

from fudgetable.rules.errors import RulesError

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
        return error.message[:1].upper() + error.message[1:] + "."
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
