"""The one error the rules module raises for bad input."""

from collections.abc import Callable

from fudgetable.rules.words import Words


class RulesError(ValueError):
    """A value the rules cannot accept.

    ``setting`` names the offending setting or argument (e.g. ``"default_difficulty"`` or
    ``"injury_track.boxes"``) so that a form can show the message next to the right field.
    ``message`` is ``Words``: the English as a str, and the sentence marked with
    ``gettext_noop`` with its values apart, so the app translates it, then fills it (``said``).
    """

    def __init__(self, setting: str, message: str, **values: object) -> None:
        words = message if isinstance(message, Words) and not values else Words(message, **values)
        super().__init__(f"{setting}: {words}")
        self.setting = setting
        self.message = words

    def said(self, translate: Callable[[str], str]) -> str:
        """The message in the reader's language, by the app's ``translate`` (its gettext)."""
        return self.message.said(translate)
