"""A person's chosen language follows them to each device they log in on: at log-in it is
copied from their profile into the session, where ``fudgetable.language`` reads it on every
request without a query, and from where it leaves the device's language cookie behind."""

from typing import Any

from django.contrib.auth.signals import user_logged_in

from campaigns.selectors import person_language
from fudgetable.language import SESSION_KEY


def _session_takes_the_choice(sender: type, request: Any, user: Any, **_: Any) -> None:
    session = getattr(request, "session", None)
    if session is not None and user is not None and user.pk is not None:
        session[SESSION_KEY] = person_language(user)


def connect() -> None:
    user_logged_in.connect(_session_takes_the_choice, dispatch_uid="log-in-takes-language")
