"""Words the rules say to people, in English, kept so that the app can say them in the reader's
language: the rules module imports no Django, so it only marks its words (``gettext_noop``,
which makemessages extracts) and the app translates them where it shows them
(``fudgetable.rules_words``)."""

from collections.abc import Callable


def gettext_noop(text: str) -> str:
    """Marks words for translation without translating them."""
    return text


class Words(str):
    """A sentence with ``%(name)s`` places: as a str it is the English, filled from ``values``;
    ``said`` translates the sentence first, then fills it. A value that is itself ``Words``
    (a track's name in an error) is said in the same language."""

    text: str
    values: dict[str, object]

    def __new__(cls, text: str, /, **values: object) -> "Words":
        words = super().__new__(cls, text % values if values else text)
        words.text, words.values = text, values
        return words

    def __reduce__(self) -> tuple[object, ...]:
        return (_words, (self.text, self.values))

    def said(self, translate: Callable[[str], str]) -> str:
        """The words in the reader's language, by the app's ``translate`` (its gettext)."""
        text = translate(self.text) if self.text else self.text
        if not self.values:
            return text
        return text % {
            name: value.said(translate) if isinstance(value, Words) else value
            for name, value in self.values.items()
        }


def _words(text: str, values: dict[str, object]) -> Words:
    return Words(text, **values)
