"""One rule for every text and number that enters, through a form or a JSON document: what the
app accepts, it can always show, save on either database, export and restore.

- No lone surrogates (``"\\ud800"`` in JSON): no encoding can write one, so a page, a database
  or an export that met one failed.
- No control characters but tab and line breaks: PostgreSQL refuses a NUL outright, SQLite
  stores it, and a backup made there would not restore here.
- No NaN or Infinity: JSON itself has no such numbers, so an export holding one is not JSON.
- No whole number of more than 18 digits, as no id in a URL has more
  (``fudgetable.converters``): past 2**63 the database cannot even look one up.

``InputRuleMiddleware`` holds every form (a POST's fields, a query string) to it and refuses
the request in words; a command over the table's socket is held to it the same way
(``fudgetable.socket_commands``); ``json_reader.Reader.clean`` holds a whole imported
document to it, naming each place.
"""

import math
import re
from collections.abc import Callable, Iterator
from typing import Any

from django.http import HttpRequest, HttpResponse, QueryDict
from django.shortcuts import render
from django.utils.translation import gettext

CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")  # C0 and C1, but \t \n \r
SURROGATE = re.compile(r"[\ud800-\udfff]")
MOST_DIGITS = 18
# What Django's IntegerField reads as a whole number ("-0012", " 7.0 ").
LONG_NUMBER = re.compile(rf"\s*[+-]?\d{{{MOST_DIGITS + 1},}}(\.0*)?\s*")


def text_problem(text: str) -> str | None:
    """What is wrong with ``text`` by the rule, or None."""
    if SURROGATE.search(text):
        return gettext("holds a broken character (half of a surrogate pair)")
    if CONTROL.search(text):
        return gettext("holds a control character (such as a NUL byte)")
    return None


def number_problem(number: int | float) -> str | None:
    """What is wrong with a JSON number by the rule, or None."""
    if isinstance(number, float) and not math.isfinite(number):
        return gettext("is not a finite number")
    if isinstance(number, int) and len(str(abs(number))) > MOST_DIGITS:
        return gettext("is a number of more than %(digits)s digits") % {"digits": MOST_DIGITS}
    return None


def field_problem(value: str) -> str | None:
    """What is wrong with a form field's value by the rule, or None."""
    if LONG_NUMBER.fullmatch(value):
        return gettext("is a number of more than %(digits)s digits") % {"digits": MOST_DIGITS}
    return text_problem(value)


def form_problem(data: QueryDict) -> str | None:
    """The first field of ``data`` (a POST's fields, a query string) that breaks the rule, in
    words that name it; None when all keep it."""
    for name, values in data.lists():
        for text in (name, *values):
            problem = field_problem(text)
            if problem:
                field = name if text_problem(name) is None else "?"
                return gettext("“%(field)s” %(problem)s") % {"field": field, "problem": problem}
    return None


def request_problem(request: HttpRequest) -> str | None:
    """The first part of the request's query string or form that breaks the rule, or None."""
    problem = form_problem(request.GET)
    if problem is None and request.method == "POST":
        problem = form_problem(request.POST)
    return problem


def refused(request: HttpRequest, problem: str) -> HttpResponse:
    """A 400 that says what broke the rule and that nothing was saved: plain text to htmx
    (live.js shows it as the page's notice and leaves the form as it was), a page otherwise."""
    text = gettext("What you sent was not saved: %(problem)s. Take it out and send it again.") % {
        "problem": problem
    }
    if getattr(request, "htmx", False):
        return HttpResponse(text, status=400, content_type="text/plain; charset=utf-8")
    return render(request, "input_refused.html", {"refusal": text}, status=400)


class InputRuleMiddleware:
    """Refuses, with a 400 in words, a request whose form or query string breaks the rule,
    before any view reads it."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        problem = request_problem(request)
        if problem is not None:
            return refused(request, problem)
        return self.get_response(request)


def json_problems(document: Any) -> Iterator[str]:
    """Each place in a parsed JSON document that breaks the rule ("log[3].snapshot.label:
    holds a control character …"), keys included, in the document's order."""
    # (where, value, whether the value is a key there), without recursion: the document
    # chose its depth.
    stack: list[tuple[str, Any, bool]] = [("", document, False)]
    while stack:
        at, value, is_key = stack.pop()
        problem: str | None = None
        if is_key:
            problem = gettext("a key %(problem)s") % {"problem": text_problem(value)}
        elif isinstance(value, str):
            problem = text_problem(value)
        elif isinstance(value, int | float) and not isinstance(value, bool):
            problem = number_problem(value)
        elif isinstance(value, dict):
            for key, item in reversed(value.items()):
                if text_problem(key):
                    stack.append((at, key, True))
                else:
                    stack.append((f"{at}.{key}" if at else key, item, False))
        elif isinstance(value, list):
            items = reversed(list(enumerate(value)))
            stack.extend((f"{at}[{index}]", item, False) for index, item in items)
        if problem:
            yield f"{at or gettext('the file')}: {problem}"
