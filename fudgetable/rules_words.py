"""The rules' words in the reader's language. The rules module imports no Django: it marks its
words with its own ``gettext_noop`` and keeps a sentence's values apart (``Words``), so the app
translates them here, where it shows them: in Python ``said(error.message)``, in a template
``{{ track.name|said }}`` (``fudgetable/templatetags/rules_words.py``).

A name a GM wrote (a track renamed "Bruises") has no translation and stays as written; a
default the rules gave ("Injury") reads in the reader's language.
"""

from django.utils.functional import lazy
from django.utils.translation import gettext

from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import Words


def said(words: str) -> str:
    """``words`` in the active language: a ``Words`` sentence translated, then filled."""
    if isinstance(words, Words):
        return words.said(gettext)
    return gettext(words) if words else words


def sentence(text: str) -> str:
    """A refusal's words as a sentence: a capital first, one full stop at the end (or the
    question or exclamation mark it has)."""
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "?", "!")) else ".")


def refusal_words(error: RulesError) -> str:
    """A rules error, said in the reader's language as a sentence."""
    return sentence(said(error.message))


# For what is made at import (a form field's choices): said in each request's language.
said_lazy = lazy(said, str)
