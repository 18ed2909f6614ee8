import json
import uuid

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import redirect
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """The request a @login_required view sees: its user is a real account."""

    user: User
    htmx: HtmxDetails


def new_key() -> str:
    """A fresh idempotency key for a command's form: resending the same form does nothing new
    (a double tap on Roll makes one roll)."""
    return uuid.uuid4().hex


def safe_next(request: HttpRequest) -> str | None:
    """The ``next`` the form or link carries, when it is a page of this site."""
    target = request.POST.get("next") or request.GET.get("next")
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return None


def back_to_table(request: HttpRequest, campaign_id: int) -> HttpResponseRedirect:
    """Back to the page a table form was posted from (a sheet, the log with its filters), else
    to the campaign's table."""
    target = safe_next(request)
    return redirect(target) if target else redirect("rolls:table", campaign_id)


def over_table_socket(request: HttpRequest) -> bool:
    """Whether the request came as a command over the table page's socket
    (``fudgetable.socket_commands``). That socket hears the table's events: what the command
    pushed to its person's audience reaches it right after the answer."""
    return getattr(request, "over_table_socket", False)


def pushed_answer() -> HttpResponse:
    """The answer to a command over the table's socket whose push redraws what the answer
    would have drawn: nothing to swap (htmx leaves the page as it is on a 204), and nothing
    rendered twice."""
    return HttpResponse(status=204)


def refusal(message: str) -> HttpResponse:
    """A refused htmx command: plain text, which static/js/live.js shows as the notice, since
    htmx swaps nothing on an error status."""
    return HttpResponse(message, status=422, content_type="text/plain; charset=utf-8")


def form_errors(request: HttpRequest, form: forms.BaseForm) -> None:
    """Puts each of a refused form's errors on the page as a message, naming its field."""
    for field, errors in form.errors.items():
        messages.error(request, f"{field}: {' '.join(map(str, errors))}")


def client_address(request: HttpRequest) -> str | None:
    """Who is asking, for log-in throttling and rate limits: the address the proxy put last in
    X-Forwarded-For (the one it saw) when BEHIND_TLS_PROXY says a proxy is there, else the
    socket's own. Without the setting the header is ignored: anyone can send it."""
    if settings.BEHIND_TLS_PROXY:
        forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        if hops:
            return hops[-1]
    return request.META.get("REMOTE_ADDR")


def password_confirmed(request: HttpRequest, password: str) -> bool:
    """Whether ``password`` is the logged-in person's, checked as log-in checks one: through
    ``authenticate`` and so django-axes, whose count of wrong passwords (per name and address,
    and per address) it adds to, and whose lockout it obeys. A page that asks for the password
    again (a new password, deleting the account) is then no way round log-in's throttle. Once
    locked out, ``AxesMiddleware`` answers with the lockout page instead of the view's."""
    user = authenticate(request, username=request.user.get_username(), password=password)
    return user is not None and user.pk == request.user.pk


def address_key(group: str, request: HttpRequest) -> str:
    """django-ratelimit's key: the client's address, as log-in throttling reads it."""
    return client_address(request) or ""


def uploaded_text(upload: UploadedFile, most: int, what: str) -> str:
    """An uploaded file's text; too large or not UTF-8 is a ValidationError naming ``what``
    ("a character file")."""
    if upload.size is not None and upload.size > most:
        raise ValidationError(
            gettext("That file is over %(most)d MB; %(what)s is far smaller.")
            % {"most": most // 1_000_000, "what": what}
        )
    try:
        return upload.read(most + 1).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValidationError(
            gettext("That file is not UTF-8 text, so it is not %(what)s.") % {"what": what}
        ) from None


def parsed_json(text: str, what: str) -> object:
    """The JSON in ``text``; anything else is a ValidationError that says where it broke."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ValidationError(
            gettext("That is not JSON: %(error)s at line %(line)d, column %(column)d.")
            % {"error": error.msg, "line": error.lineno, "column": error.colno}
        ) from None
    except (ValueError, RecursionError):
        raise ValidationError(
            gettext("That is not JSON %(what)s could hold.") % {"what": what}
        ) from None
