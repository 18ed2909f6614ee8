"""A person's e-mail address, which a forgotten password is reset through: kept only once the
address itself confirmed it.

Whoever held a logged-in session for a moment (a shared phone, a stolen cookie) could once set
their own address, ask for a reset and own the account. Now changing the address asks for the
password (the view's part), tells the old address, and changes nothing until a link sent to the
new address is followed. So ``User.email`` only ever holds an address that took a link of ours.

The link carries the account, the new address and a digest of the account's address and
password as they were, signed with the server's key: no table holds pending changes, and a
link dies when either changes (the owner who was told of a change they did not ask for changes
their password, and the link sent to the other address stops working)."""

from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMessage
from django.db import transaction
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext

from fudgetable.outbox import send_later

_SALT = "fudgetable.email-change"


@dataclass(frozen=True)
class Change:
    """What a link asks: ``user``'s address to become ``email``."""

    user: User
    email: str


def _state(user: User) -> str:
    return salted_hmac(_SALT, f"{user.email}\0{user.password}", algorithm="sha256").hexdigest()[:32]


def confirm_token(*, user: User, email: str) -> str:
    return signing.dumps({"user": user.pk, "email": email, "state": _state(user)}, salt=_SALT)


def change_for(token: str) -> Change | None:
    """The change ``token`` asks for, or None when it is mistyped, forged, older than
    ``PASSWORD_RESET_TIMEOUT``, or the account's address or password changed since."""
    try:
        asked = signing.loads(token, salt=_SALT, max_age=settings.PASSWORD_RESET_TIMEOUT)
        user = User.objects.get(pk=asked["user"], is_active=True)
    except (signing.BadSignature, KeyError, TypeError, User.DoesNotExist):
        return None
    if asked.get("state") != _state(user) or not isinstance(asked.get("email"), str):
        return None
    return Change(user=user, email=asked["email"])


def _site(request: HttpRequest) -> dict[str, str]:
    return {"domain": request.get_host(), "protocol": "https" if request.is_secure() else "http"}


def _send(*, to: str, subject: str, template: str, context: Mapping[str, object]) -> None:
    def write_and_send() -> None:
        body = render_to_string(template, context)
        EmailMessage(subject=subject, body=body, to=[to]).send()

    send_later(write_and_send)


def email_change_ask(*, user: User, email: str, request: HttpRequest) -> None:
    """Sends ``email`` a link that makes it the account's address, and tells the address the
    account has now (if any) that a change was asked. Changes nothing yet."""
    site = _site(request)
    link = reverse("account_email_confirm", args=[confirm_token(user=user, email=email)])
    context = {**site, "username": user.get_username(), "old": user.email, "new": email}
    _send(
        to=email,
        subject=gettext("Confirm your e-mail address at %(domain)s") % site,
        template="registration/email_confirm_email.txt",
        context={**context, "link": f"{site['protocol']}://{site['domain']}{link}"},
    )
    if user.email:
        _send(
            to=user.email,
            subject=gettext("Your e-mail address at %(domain)s is being changed") % site,
            template="registration/email_change_notice.txt",
            context=context,
        )


def email_clear(*, user: User, request: HttpRequest) -> None:
    """Keeps no address for the account, and tells the one it had."""
    old = user.email
    user.email = ""
    user.save(update_fields=["email"])
    if old:
        site = _site(request)
        _send(
            to=old,
            subject=gettext("Your e-mail address at %(domain)s was removed") % site,
            template="registration/email_change_notice.txt",
            context={**site, "username": user.get_username(), "old": old, "new": ""},
        )


@transaction.atomic
def email_change_confirm(*, token: str) -> Change | None:
    """Makes the address a link names the account's own; None (nothing changed) when the link
    is no longer good. The row is locked so that two clicks apply one change."""
    change = change_for(token)
    if change is None:
        return None
    user = User.objects.select_for_update().get(pk=change.user.pk)
    if _state(user) != _state(change.user):
        return None
    user.email = change.email
    user.save(update_fields=["email"])
    return Change(user=user, email=change.email)
