"""The GM's own words for the ladder's rungs, as the settings page edits them: a field per rung,
blank for the rules' word in each reader's language (``selectors.campaign_ladder``). The words
are kept by each rung's name in the rules ({"Good": "Bom"}), never by its value, so a change of
ladder that keeps a rung keeps its word."""

import re
from collections import Counter
from collections.abc import Mapping

from django import forms
from django.utils import translation
from django.utils.translation import gettext

from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder, check_rung_name, worded

MAX_WORD = 30  # characters: a rung is named on a phone's roll button and in every log line
_SPACE = re.compile(r"\s+")


def _normal(word: str) -> str:
    # As the ladder reads names back: spacing and case carry no meaning.
    return _SPACE.sub("", word).lower()


def rung_fields(ladder: Ladder, words: Mapping[str, str]) -> dict[str, tuple[forms.Field, str]]:
    """A field per rung, highest first, named ``rung_0``, ``rung_1``…, with the rung's own
    name in the rules; its initial value is the GM's word, if any."""
    said = worded(ladder, {rung.name: gettext(rung.name) for rung in ladder.rungs})
    fields: dict[str, tuple[forms.Field, str]] = {}
    for index, (own, shown) in enumerate(zip(ladder.rungs[::-1], said.rungs[::-1], strict=True)):
        field = forms.CharField(
            label=said.describe(shown.value),
            max_length=MAX_WORD,
            required=False,
            widget=forms.TextInput(attrs={"placeholder": shown.name, "autocomplete": "off"}),
        )
        field.initial = words.get(own.name, "")
        fields[f"rung_{index}"] = (field, own.name)
    return fields


def clean_rung_words(
    form: forms.Form, rungs: Mapping[str, str], languages: tuple[str, ...]
) -> dict[str, str]:
    """The words typed, by each rung's own name; every problem is added to its field, so that
    the form saves all of them or none. A word must read back as a name, not as a number, and
    may name no other rung: not another typed word, nor another rung's own name or its word in
    ``languages`` (the table's, the page's), which the ladder still reads."""
    taken: dict[str, str] = {}  # a normal word -> the rung's own name
    for own in rungs.values():
        for language in languages:
            with translation.override(language):
                taken.setdefault(_normal(gettext(own)), own)
        taken.setdefault(_normal(own), own)
    typed = {name: _SPACE.sub(" ", form.cleaned_data.get(name) or "").strip() for name in rungs}
    # A word typed for two rungs is refused on both: which of them the GM meant is theirs to say.
    counts = Counter(_normal(word) for word in typed.values() if word)
    words: dict[str, str] = {}
    for name, own in rungs.items():
        word = typed[name]
        if not word:
            continue
        try:
            check_rung_name(word)
        except RulesError:
            form.add_error(
                name,
                gettext(
                    "“%(word)s” would read as a number or a step up or down: name the rung "
                    "with a word, without brackets or a + or - at the end."
                )
                % {"word": word},
            )
            continue
        if counts[_normal(word)] > 1 or taken.get(_normal(word), own) != own:
            form.add_error(name, gettext("“%(word)s” already names another rung.") % {"word": word})
            continue
        words[own] = word
    return words
