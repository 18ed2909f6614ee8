"""``manage.py catalogues``: the translation catalogues brought up to date with the source.

It runs Django's makemessages over the folders below for every language of settings.LANGUAGES
but English, then compilemessages; both need GNU gettext (Debian's ``gettext``; scripts/test
installs it). The compiled catalogues are committed beside their sources, so that a server
needs no gettext to start (tests/i18n checks that each matches its source). docs/translations.md
says how a translator works with them.

The folders whose words are checked (tests/i18n) and extracted are constants here, so that the
parts not yet translated join by moving from NOT_YET to CHECKED.
"""

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand

# Where the extracted strings come from, relative to the project's root.
CHECKED = ("campaigns", "characters", "fudgetable", "rolls", "templates")
# Parts of those, and folders, whose strings are translated later (the table: issue 41's second
# half). Patterns as makemessages' --ignore reads them.
NOT_YET: tuple[str, ...] = ()
# Never the interface's words: the tests, the docs, tools, the static files and the catalogues.
NEVER = (
    ".venv/*",
    "tests/*",
    "docs/*",
    "deploy/*",
    "scripts/*",
    "static/*",
    "staticfiles/*",
    "locale/*",
    "*/migrations/*",
    # The demo's own campaigns are content a GM wrote, in English, not the interface's words.
    "fudgetable/management/commands/_demo_tables.py",
)


def root() -> Path:
    return Path(settings.BASE_DIR)


def shipped_languages() -> list[str]:
    """The locale names of the catalogues: every language but the source's (en)."""
    from django.utils.translation import to_locale

    return [to_locale(code) for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


def ignore_patterns() -> list[str]:
    top = {path.name for path in root().iterdir() if path.is_dir()}
    others = sorted(f"{name}/*" for name in top - set(CHECKED) if name not in ("locale",))
    return [*(_top_folder_only(pattern) for pattern in (*NOT_YET, *others)), *NEVER]


def _top_folder_only(pattern: str) -> str:
    """A pattern that leaves out the files under one top-level folder and no other folder.

    makemessages reads "name/*" as every folder called name, wherever it is: "rolls/*" would
    leave out templates/rolls/ too. "name/*.*" matches the paths under name/ alone, and every
    file makemessages reads has a suffix (.py, .html, .txt)."""
    folder = pattern.removesuffix("/*")
    if folder == pattern or any(sign in folder for sign in "*?["):
        return pattern
    return f"{folder}/*.*"


class Command(BaseCommand):
    help = "Extracts the marked strings into locale/ for every shipped language and compiles them."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--no-compile", action="store_true", help="Leave the compiled .mo files as they are."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        call_command(
            "makemessages",
            locale=shipped_languages(),
            ignore_patterns=ignore_patterns(),
            no_obsolete=True,
            add_location="file",
            verbosity=options["verbosity"],
        )
        if not options["no_compile"]:
            call_command(
                "compilemessages",
                locale=shipped_languages(),
                ignore_patterns=ignore_patterns(),
                verbosity=options["verbosity"],
            )
