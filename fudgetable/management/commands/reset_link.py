"""``manage.py reset_link USERNAME``: gives an account back to its person, who forgot the
password and has no e-mail address on it (or none that reaches them). It prints the link the
reset e-mail would carry: opened, it lets them choose a new password and logs them in, once,
within PASSWORD_RESET_TIMEOUT. The operator never learns the password. A log-in pause on that
name (too many wrong passwords) is lifted too.

Run it in the server's own environment (deploy/manage on a server set up as the README's "Put
it online" says): the link is signed with the server's secret key and starts with SITE_URL. Run
by hand beside ``scripts/run`` with nothing set, it starts with the address scripts/run last
served this database at (``served_at_note``), where the defaults would say port 8000 whatever
PORT the server was started with."""

import os
from contextlib import suppress
from pathlib import Path
from typing import Any

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.urls import reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


def served_at_note() -> Path | None:
    """Where scripts/run notes the address it serves the embedded database at (``prepare``):
    beside the database, under its name, so it goes where the database goes."""
    if settings.DATABASE_URL:
        return None  # scaled mode's processes are given SITE_URL
    database = Path(settings.SQLITE_PATH)
    return database.with_name(f"{database.name}.served-at")


def served_at_noted() -> None:
    if note := served_at_note():
        with suppress(OSError):  # only a convenience for reset_link run by hand
            note.write_text(settings.SITE_URL + "\n")


def site_url() -> str:
    """SITE_URL, or, when nothing here says where the server is, where scripts/run served it."""
    note = served_at_note()
    given = any(os.environ.get(name) for name in ("SITE_URL", "HOST", "PORT"))
    site = settings.SITE_URL
    if note is None or given or site != f"http://{settings.HOST}:{settings.PORT}":
        return site  # given here, or by an environment file
    try:
        return note.read_text().strip() or site
    except OSError:
        return site


class Command(BaseCommand):
    help = (
        "Prints a one-time link with which USERNAME chooses a new password (and is logged in), "
        "and lifts a log-in pause on that name."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        name = options["username"]
        try:
            user = get_user_model().objects.get(username=name)
        except get_user_model().DoesNotExist:
            raise CommandError(_("No account is called %(name)s.") % {"name": name}) from None
        if not user.is_active:
            raise CommandError(
                _("%(name)s's account is deactivated: activate it in the admin first.")
                % {"name": name}
            )
        path = reverse(
            "password_reset_confirm",
            kwargs={
                "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
                "token": default_token_generator.make_token(user),
            },
        )
        days = settings.PASSWORD_RESET_TIMEOUT // 86400
        self.stdout.write(
            ngettext(
                "Send %(name)s this link. It works once, within a day, to choose a new password:",
                "Send %(name)s this link. It works once, within %(days)d days, to choose a new "
                "password:",
                days,
            )
            % {"name": name, "days": days}
        )
        self.stdout.write(f"    {site_url()}{path}")
        if axes_reset(username=name):
            paused = _("Log-in for %(name)s was paused after wrong passwords; it is open again.")
            self.stdout.write(paused % {"name": name})
