"""The account page: the e-mail address a forgotten password is reset through, download
everything of one's own, or delete the account."""

import json

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST, require_safe
from django_ratelimit.core import is_ratelimited

from campaigns.accounts.email_change import email_change_ask, email_clear
from campaigns.accounts.forms import EmailForm, LanguageForm
from campaigns.selectors import person_language
from campaigns.services import person_language_set
from characters.exchange import character_to_json
from characters.services.accounts import account_delete, owned_characters
from fudgetable.http import AuthenticatedHttpRequest, password_confirmed
from fudgetable.language import SESSION_KEY, browser_language
from fudgetable.rules.errors import RulesError
from fudgetable.rules_words import said

ACCOUNT_SCHEMA = "fudgetable.account/1"


class AccountDeleteForm(forms.Form):
    characters = forms.ChoiceField(
        choices=[
            ("to-gm", gettext_lazy("Give my characters to each campaign's GM")),
            ("delete", gettext_lazy("Delete my characters")),
        ],
        widget=forms.RadioSelect,
        label=gettext_lazy("Your characters"),
    )
    password = forms.CharField(
        widget=forms.PasswordInput, label=gettext_lazy("Your password, to confirm")
    )


def _page(
    request: AuthenticatedHttpRequest,
    form: AccountDeleteForm | None = None,
    status: int = 200,
    email_form: EmailForm | None = None,
    language_form: LanguageForm | None = None,
) -> HttpResponse:
    context = {
        "language_form": language_form
        or LanguageForm(initial={"language": person_language(request.user)}),
        "form": form or AccountDeleteForm(initial={"characters": "to-gm"}),
        "email_form": email_form or EmailForm(initial={"email": request.user.email}),
        "email": request.user.email,
        "characters": owned_characters(request.user),
    }
    return render(request, "characters/account.html", context, status=status)


@require_safe
@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _page(request)


@require_POST
@login_required
def account_language(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The language this person's pages speak, on every device they log in on; this one keeps
    it after a log-out too (fudgetable/language.py)."""
    form = LanguageForm(request.POST)
    if not form.is_valid():
        return _page(request, language_form=form, status=422)
    language = form.cleaned_data["language"]
    person_language_set(user=request.user, language=language)
    request.session[SESSION_KEY] = language
    # The message is read on the next page, which speaks the new language: said in it.
    with translation.override(language or browser_language(request)):
        messages.success(request, _("Language saved."))
    return redirect("account")


def _per_hour() -> str:
    return f"{settings.PASSWORD_RESETS_PER_HOUR}/h"


@sensitive_post_parameters("password")
@require_POST
@login_required
def account_email(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Asks for the password (throttled as log-in is), then sends the new address a link to
    confirm it and tells the old one; an empty address is kept at once (nothing to confirm)."""
    form = EmailForm(request.POST)
    if not form.is_valid():
        return _page(request, email_form=form, status=422)
    if not password_confirmed(request, form.cleaned_data["password"]):
        form.add_error("password", _("That is not your password; your address is unchanged."))
        return _page(request, email_form=form, status=422)
    user = request.user
    email = form.cleaned_data["email"]
    if email.casefold() == user.email.casefold():
        messages.info(request, _("That is already your address: nothing changed."))
    elif email and is_ratelimited(
        request, group="email-change", key="user", rate=_per_hour(), increment=True
    ):
        # Each ask mails two addresses, one of them anybody's: not a way to send mail.
        form.add_error(
            "email", _("Too many new addresses were asked for this hour. Try again later.")
        )
        return _page(request, email_form=form, status=429)
    elif email:
        email_change_ask(user=user, email=email, request=request)
        asked = _(
            "We sent %(email)s a link to confirm it. Until it is followed, a forgotten "
            "password is reset through the address you had."
        )
        messages.success(request, asked % {"email": email})
    else:
        email_clear(user=user, request=request)
        messages.success(
            request,
            _("No e-mail address kept: only this server's operator can reset your password."),
        )
    return redirect("account")


@require_safe
@login_required
def account_export(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Every character the person owns, each as the sheet's own export."""
    document = {
        "schema": ACCOUNT_SCHEMA,
        "username": request.user.get_username(),
        "email": request.user.email,
        "characters": [
            {"campaign": character.campaign.name, "character": character_to_json(character)}
            for character in owned_characters(request.user)
        ],
    }
    response = HttpResponse(
        json.dumps(document, indent=2, ensure_ascii=False),
        content_type="application/json; charset=utf-8",
    )
    response["Content-Disposition"] = 'attachment; filename="fudgetable-account.json"'
    return response


@sensitive_post_parameters("password")
@require_POST
@login_required
def account_delete_view(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = AccountDeleteForm(request.POST)
    if not form.is_valid():
        return _page(request, form, status=422)
    if not password_confirmed(request, form.cleaned_data["password"]):
        form.add_error("password", _("That is not your password; nothing was deleted."))
        return _page(request, form, status=422)
    try:
        account_delete(user=request.user, characters=form.cleaned_data["characters"])
    except RulesError as error:
        messages.error(
            request, _("Your account was not deleted: %(why)s.") % {"why": said(error.message)}
        )
        return _page(request, form, status=409)
    logout(request)
    messages.success(request, _("Your account was deleted. Thank you for playing."))
    return redirect("login")
