"""``manage.py prepare``: what scripts/run does before it serves. It brings the database up to
this version (an upgrade is a pull and a restart), clears expired sessions, collects the static
files WhiteNoise serves compressed, makes the demo logins where this machine alone reaches the
server and locks them anywhere else, and says how to make the owner's account until there is
one. One command, so a start pays for setting Django up once."""

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _

from fudgetable.management.commands.demo import demo_logins_locked
from fudgetable.management.commands.reset_link import served_at_noted


class Command(BaseCommand):
    help = (
        "Migrates, collects static files, makes the demo logins on loopback (locks them "
        "elsewhere) and says how to make the owner's account: scripts/run's first step."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command("migrate", interactive=False, verbosity=0)
        # Django never removes an expired session by itself; here at each start, and every
        # night by deploy/backup on a server set up as the README says.
        call_command("clearsessions")
        served_at_noted()  # for reset_link run by hand, without the HOST and PORT it serves at
        if not settings.DEBUG:  # development mode serves them from the source folders
            call_command("collectstatic", interactive=False, verbosity=0)
        if settings.LOOPBACK_ONLY:
            call_command("demo", stdout=self.stdout)
        elif locked := demo_logins_locked():
            self.stdout.write(
                _(
                    "The demo logins %(names)s opened with the README's password; this server "
                    "is reached from other machines, so that password no longer opens them."
                )
                % {"names": ", ".join(locked)}
            )
        if not get_user_model().objects.filter(is_superuser=True).exists():
            self.stdout.write(
                _(
                    "\nNo one owns this server yet. Make the owner's account, which may also "
                    "use the admin pages at %(admin)s, from this folder:\n    %(command)s"
                )
                % {
                    "admin": f"{settings.SITE_URL}/admin/",
                    "command": (
                        ".venv/bin/python manage.py createsuperuser"
                        if settings.LOOPBACK_ONLY
                        else "deploy/manage createsuperuser  (as the service's user)"
                    ),
                }
            )
        where = {"url": settings.SITE_URL, "daphne": f"{settings.HOST}:{settings.PORT}"}
        self.stdout.write(
            "\n"
            + (
                _("FudgeTable is at %(url)s/  (Ctrl+C stops it)")
                if settings.LOOPBACK_ONLY
                else _("FudgeTable is at %(url)s/, through the proxy to daphne on %(daphne)s")
            )
            % where
        )
