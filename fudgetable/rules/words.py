"""Words the rules say to people, in English, kept so that the app can say them in the reader's
language: the rules module imports no Django, so it only marks its words (``gettext_noop``,
which makemessages extracts) and the app translates them where it shows them."""


def gettext_noop(text: str) -> str:
    """Marks words for translation without translating them."""
    return text
