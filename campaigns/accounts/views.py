"""Signing up and logging in (each takes up an invite the person followed first), asking for a
forgotten password by e-mail, the dashboard of the campaigns they are at, and the front door a
visitor sees before either."""

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import forms as auth_forms
from django.contrib.auth import login as auth_login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_safe
from django_ratelimit.core import is_ratelimited

from campaigns.accounts.email_change import change_for, email_change_ask, email_change_confirm
from campaigns.accounts.forms import SignupForm
from campaigns.selectors import memberships_for_user
from campaigns.views import accept_pending_invite
from fudgetable import auth_backend
from fudgetable.http import AuthenticatedHttpRequest, address_key, password_confirmed, safe_next
from fudgetable.offline import offline_copy
from fudgetable.outbox import send_later


def _after_login(request: AuthenticatedHttpRequest) -> HttpResponse:
    return accept_pending_invite(request) or redirect(safe_next(request) or "dashboard")


def _confirm_sent(email: str) -> str:
    return _(
        "We sent %(email)s a link to confirm it: your address is kept once it is followed."
    ) % {"email": email}


def _over_hourly_limit(request: HttpRequest, group: str, per_hour: int) -> bool:
    """Whether this address asked for ``group`` more than ``per_hour`` times in the hour,
    this time counted."""
    rate = f"{per_hour}/h"
    return is_ratelimited(request, group=group, key=address_key, rate=rate, increment=True)


@sensitive_post_parameters()
@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect("dashboard")
    form = SignupForm(request.POST or None)
    if request.method == "POST" and _over_hourly_limit(
        request, "signup", settings.SIGNUPS_PER_HOUR
    ):
        messages.error(
            request, _("Too many accounts were asked for from this address. Try again in an hour.")
        )
        context = {"form": SignupForm(), "next": safe_next(request)}
        return render(request, "registration/signup.html", context, status=429)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        auth_login(request, user, backend=auth_backend.PATH)
        if email := form.cleaned_data["email"]:
            email_change_ask(user=user, email=email, request=request)
            messages.info(request, _confirm_sent(email))
        return _after_login(request)  # type: ignore[arg-type]
    return render(request, "registration/signup.html", {"form": form, "next": safe_next(request)})


@sensitive_post_parameters()
@require_http_methods(["GET", "HEAD", "POST"])
def login(request: HttpRequest) -> HttpResponse:
    if request.user.is_authenticated:
        return redirect(safe_next(request) or "dashboard")
    form = AuthenticationForm(request, data=request.POST or None)
    if request.method == "POST" and form.is_valid():
        auth_login(request, form.get_user())
        return _after_login(request)  # type: ignore[arg-type]
    return render(request, "registration/login.html", {"form": form, "next": safe_next(request)})


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's form, with each e-mail written and sent after the answer (``outbox``): the
    time of a reset must not say whether the address has an account."""

    def send_mail(self, *args: Any, **kwargs: Any) -> None:
        write_and_send = super().send_mail
        send_later(lambda: write_and_send(*args, **kwargs))


_password_reset = auth_views.PasswordResetView.as_view(form_class=PasswordResetForm)


@require_http_methods(["GET", "HEAD", "POST"])
def password_reset(request: HttpRequest) -> HttpResponseBase:
    """Django's own page that e-mails a link to choose a new password, to the accounts with the
    address given (it never says whether there are any). An address may ask a few times an
    hour, so the form sends nobody a flood of e-mail."""
    if request.method == "POST" and _over_hourly_limit(
        request, "password-reset", settings.PASSWORD_RESETS_PER_HOUR
    ):
        messages.error(
            request,
            _("Too many new passwords were asked for from this address. Try again in an hour."),
        )
        context = {"form": PasswordResetForm()}
        return render(request, "registration/password_reset_form.html", context, status=429)
    return _password_reset(request)


class PasswordChangeForm(auth_forms.PasswordChangeForm):
    """Django's form, with the old password checked as log-in checks one (throttled)."""

    def __init__(self, user: User, *args: Any, request: HttpRequest, **kwargs: Any) -> None:
        super().__init__(user, *args, **kwargs)
        self.request = request

    def clean_old_password(self) -> str:
        old_password: str = self.cleaned_data["old_password"]
        if not password_confirmed(self.request, old_password):
            raise ValidationError(
                self.error_messages["password_incorrect"], code="password_incorrect"
            )
        return old_password


class PasswordChangeView(auth_views.PasswordChangeView):
    form_class = PasswordChangeForm

    def get_form_kwargs(self) -> dict[str, Any]:
        return {**super().get_form_kwargs(), "request": self.request}


password_change = PasswordChangeView.as_view()


@require_http_methods(["GET", "HEAD", "POST"])
def email_confirm(request: HttpRequest, token: str) -> HttpResponse:
    """The link sent to a new address. Opening it asks; only the button changes the address,
    since mail scanners open the links in an e-mail on their own."""
    change = change_for(token)
    if change is not None and request.method == "POST":
        change = email_change_confirm(token=token)
        if change is not None:
            messages.success(
                request,
                _("%(email)s is now the address of %(username)s.")
                % {"email": change.email, "username": change.user.get_username()},
            )
            return redirect("account" if request.user.is_authenticated else "login")
    if change is None:
        return render(request, "registration/email_confirm.html", {"change": None}, status=400)
    return render(request, "registration/email_confirm.html", {"change": change})


@offline_copy
@require_safe
def dashboard(request: HttpRequest) -> HttpResponse:
    """The campaigns a person is at. A visitor not logged in gets the front door instead: `/`
    is the address people are given, and a bare log-in form there says nothing of the site."""
    if not request.user.is_authenticated:
        return render(request, "front_door.html")
    memberships = list(memberships_for_user(request.user))
    return render(
        request,
        "dashboard.html",
        {
            "active": [m for m in memberships if not m.campaign.is_archived],
            "archived": [m for m in memberships if m.campaign.is_archived],
        },
    )


def locked_out(
    request: HttpRequest, response: HttpResponse | None = None, credentials: object = None
) -> HttpResponse:
    """django-axes' answer to a log-in it refuses: the wait in words, and a 429."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    context = {"failure_limit": settings.AXES_FAILURE_LIMIT, "minutes": minutes}
    return render(request, "registration/locked_out.html", context, status=429)
