"""A person's sign-in changed (a new password, an account deactivated): their open table and
sheet sockets look themselves up again, as an HTTP request from their browser would, and close
if it would be refused. Django's own views change a password (the password change and reset
pages, the admin, ``changepassword``), so a signal is where all of them meet. A log-out closes
the sockets its session opened, at once."""

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save

from fudgetable import live


def _sockets_look_again(
    sender: type, instance: Any, created: bool, update_fields: frozenset[str] | None, **_: Any
) -> None:
    # A log-in only stamps last_login: the person's sockets are as valid as before.
    if created or update_fields == frozenset({"last_login"}):
        return
    for campaign_id in instance.memberships.values_list("campaign_id", flat=True):
        live.member_changed(campaign_id, instance.pk)


def _sockets_of_the_session_close(sender: type, request: Any, user: Any, **_: Any) -> None:
    # Sent before Django flushes the session, so the sockets are told its key rather than
    # left to find it gone. A deleted account (no pk) had its sockets told already.
    key = request.session.session_key
    if user is None or user.pk is None or key is None:
        return
    for campaign_id in user.memberships.values_list("campaign_id", flat=True):
        live.session_ended(campaign_id, key)


def connect() -> None:
    post_save.connect(_sockets_look_again, sender=get_user_model(), dispatch_uid="sign-in-changes")
    user_logged_out.connect(_sockets_of_the_session_close, dispatch_uid="log-out-closes-sockets")
