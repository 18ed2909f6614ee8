"""How the server is reached, and the secret key it keeps beside its database: what settings.py
needs to make production mode safe by default (scripts/run)."""

import ipaddress
import os
import secrets
import sys
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured


def on_loopback(host: str) -> bool:
    """Whether an address a server listens on reaches this machine alone."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def secret_key_in(path: Path, *, make: bool) -> str:
    """The secret key kept in ``path``; when there is none yet and ``make`` says so, a new one
    written there first (readable by its owner alone). Two processes starting at once keep the
    one that was written first."""
    try:
        try:
            return path.read_text().strip()
        except FileNotFoundError:
            if not make:
                return ""
        key = secrets.token_urlsafe(64)
        partial = path.with_name(f".{path.name}.{os.getpid()}")
        try:
            with os.fdopen(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600), "w") as f:
                f.write(key + "\n")
            os.link(partial, path)  # refuses if another process made it meanwhile
        except FileExistsError:
            return path.read_text().strip()
        finally:
            partial.unlink(missing_ok=True)
        return key
    except OSError as error:
        raise ImproperlyConfigured(
            f"Could not keep the secret key in {path} ({error}): give this user that folder, "
            "or set SECRET_KEY_FILE or SECRET_KEY."
        ) from None


def settings_or_exit() -> None:
    """Reads the settings, or says what is wrong with them in their own words and exits (2).
    Uncaught, a bad value ended a traceback of Django's import machinery forty lines long,
    its message the last line. For manage.py and the ASGI application, before Django starts."""
    from django.conf import settings

    try:
        settings.INSTALLED_APPS  # noqa: B018  (reading one imports the module)
    except ImproperlyConfigured as error:
        sys.stderr.write(f"FudgeTable's configuration: {error}\n")
        raise SystemExit(2) from None
