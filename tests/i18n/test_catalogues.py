"""Nothing the interface says is left untranslated (docs/translations.md, "The checker").

A marked string with no translation in a shipped language fails, and so does a translation that
drops or renames a placeholder of its source, a compiled catalogue that differs from its source,
and a template or Python module under the checked folders that hands a person words no
translation tag or gettext call holds. The folders are the constants of
``fudgetable.management.commands.catalogues``: rolls/ joins by leaving NOT_YET, as
templates/rolls/ has.
"""

import gettext
import os
import shutil
import subprocess
from fnmatch import fnmatch
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.utils import is_ignored_path
from django.test import override_settings

from fudgetable.management.commands.catalogues import (
    CHECKED,
    NEVER,
    NOT_YET,
    ignore_patterns,
    shipped_languages,
)
from tests.i18n.checks import (
    Entry,
    placeholders,
    plural_count,
    read_po,
    unmarked_in_python,
    unmarked_in_template,
)

ROOT = Path(settings.BASE_DIR)
LANGUAGES = shipped_languages()
# The rules module imports no Django: it marks its words with its own gettext_noop and the app
# translates them where it shows them (fudgetable/rules_words.py). The ladder alone is out of the
# Python check: its rung names become campaign data with a default for each language, a change of
# their own (issue 41).
PYTHON_NOT_YET = ("fudgetable/rules/ladder.py",)


def catalogue(language: str) -> Path:
    return ROOT / "locale" / language / "LC_MESSAGES" / "django.po"


def _skipped(relative: str) -> bool:
    return any(fnmatch(relative, pattern) for pattern in (*NOT_YET, *NEVER))


def checked_files(suffixes: tuple[str, ...]) -> list[Path]:
    """The files of the checked folders with these suffixes, less NOT_YET and NEVER."""
    found = []
    for folder in CHECKED:
        for path in sorted((ROOT / folder).rglob("*")):
            relative = path.relative_to(ROOT).as_posix()
            if path.suffix in suffixes and path.is_file() and not _skipped(relative):
                found.append(path)
    return found


def _entries(language: str) -> list[Entry]:
    return [entry for entry in read_po(catalogue(language)) if entry.msgid]


def test_the_languages_are_english_and_the_four_translations():
    codes = [code for code, _ in settings.LANGUAGES]
    assert codes == ["en", "pt-br", "es", "fr", "de"]
    assert LANGUAGES == ["pt_BR", "es", "fr", "de"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_string_has_a_translation(language):
    entries = _entries(language)
    header = read_po(catalogue(language))[0]
    forms = plural_count(header)
    untranslated = [
        entry.msgid
        for entry in entries
        if entry.fuzzy
        or not all(entry.translations)
        or (entry.msgid_plural is not None and len(entry.msgstrs) != forms)
    ]
    assert len(entries) > 500  # the catalogue is the whole interface, not a stub
    assert untranslated == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_translation_keeps_every_placeholder_of_its_source(language):
    broken = []
    for entry in _entries(language):
        percent = entry.python_format
        if entry.msgid_plural is None:
            wanted = placeholders(entry.msgid, python_format=percent)
            if placeholders(entry.msgstr, python_format=percent) != wanted:
                broken.append((entry.msgid, entry.msgstr))
            continue
        # Each plural form keeps the plural source's placeholders; a singular form that names
        # the count in words ("un jour") may leave that one out, and none adds its own.
        source = set(placeholders(entry.msgid, python_format=percent)) | set(
            placeholders(entry.msgid_plural, python_format=percent)
        )
        for index, text in entry.msgstrs.items():
            found = set(placeholders(text, python_format=percent))
            required = set(placeholders(entry.msgid_plural, python_format=percent))
            if index == 0:
                required = set(placeholders(entry.msgid, python_format=percent))
            if not found <= source or not (required - found) <= {"%(days)s", "%(days)d"}:
                broken.append((entry.msgid, text))
    assert broken == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalogue_matches_its_source(language):
    """The .mo files are committed, so that a server needs no gettext to start: each must say
    exactly what its .po says (`manage.py catalogues` compiles both)."""
    with (catalogue(language).with_suffix(".mo")).open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)._catalog  # type: ignore[attr-defined]
    expected: dict[object, str] = {}
    for entry in _entries(language):
        key = entry.msgid if entry.msgctxt is None else f"{entry.msgctxt}\x04{entry.msgid}"
        if entry.msgid_plural is None:
            expected[key] = entry.msgstr
        else:
            for index, text in entry.msgstrs.items():
                expected[(key, index)] = text
    compiled_entries = {key: text for key, text in catalog.items() if key != ""}
    assert compiled_entries == expected


def test_no_checked_template_holds_unmarked_words():
    found = []
    for path in checked_files((".html", ".txt")):
        found += unmarked_in_template(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert [str(problem) for problem in found] == []


def test_no_checked_python_module_hands_a_person_unmarked_words():
    found = []
    for path in checked_files((".py",)):
        relative = path.relative_to(ROOT).as_posix()
        if any(fnmatch(relative, pattern) for pattern in PYTHON_NOT_YET):
            continue
        found += unmarked_in_python(path.read_text(encoding="utf-8"), relative)
    assert [str(problem) for problem in found] == []


def test_the_checked_folders_leave_out_only_what_comes_later():
    """The table's Python (rolls/) is translated next (issue 41's second half) and is out of the
    checks until then; every template is in, the table's (templates/rolls/) too."""
    templates = {path.relative_to(ROOT).as_posix() for path in checked_files((".html",))}
    assert "templates/base.html" in templates
    assert "templates/characters/sheet.html" in templates
    assert "templates/rolls/table.html" in templates
    assert "templates/rolls/fight/panel.html" in templates


def test_extraction_reads_every_template_and_leaves_out_what_comes_later():
    """makemessages reads "rolls/*" as any folder called rolls: the patterns manage.py
    catalogues gives it leave out the top-level folders alone, so templates/rolls/ is
    extracted while rolls/' Python waits in NOT_YET."""
    patterns = ignore_patterns()
    for folder in ("templates", "templates/rolls", "templates/rolls/fight"):
        assert not is_ignored_path(folder, patterns)
    assert not is_ignored_path("templates/rolls/table.html", patterns)
    assert is_ignored_path("tests/i18n/test_catalogues.py", patterns)
    for pattern in NOT_YET:
        left_out = pattern.replace("*", "views.py")
        assert is_ignored_path(left_out, patterns), left_out


def _gettext_tools() -> bool:
    return all(shutil.which(tool) for tool in ("xgettext", "msgmerge", "msguniq", "msgattrib"))


def test_the_catalogues_hold_every_string_the_source_marks(tmp_path):
    """makemessages run afresh over a copy of the source finds no string the shipped
    catalogues lack, nor any they keep that the source no longer marks."""
    if not _gettext_tools():
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is missing: scripts/test installs Debian's gettext")
        pytest.skip("needs GNU gettext (Debian's gettext; scripts/test installs it)")
    for folder in (*CHECKED, "locale"):
        shutil.copytree(ROOT / folder, tmp_path / folder, ignore=shutil.ignore_patterns("*.pyc"))
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        with override_settings(BASE_DIR=tmp_path, LOCALE_PATHS=[tmp_path / "locale"]):
            call_command("catalogues", no_compile=True, verbosity=0)
    finally:
        os.chdir(here)
    for language in LANGUAGES:
        shipped = {entry.key for entry in _entries(language)}
        fresh = [entry for entry in read_po(tmp_path / catalogue(language).relative_to(ROOT))]
        fresh_keys = {entry.key for entry in fresh if entry.msgid}
        assert sorted(fresh_keys - shipped, key=str) == [], f"{language}: not in the catalogue"
        assert sorted(shipped - fresh_keys, key=str) == [], f"{language}: no longer marked"


def test_msgfmt_finds_the_catalogues_sound():
    if not shutil.which("msgfmt"):
        if os.environ.get("CI"):
            pytest.fail("GNU gettext is missing: scripts/test installs Debian's gettext")
        pytest.skip("needs GNU gettext's msgfmt")
    for language in LANGUAGES:
        subprocess.run(
            ["msgfmt", "--check", "-o", os.devnull, str(catalogue(language))],
            check=True,
            capture_output=True,
        )
