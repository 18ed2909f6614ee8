"""``{% load rules_words %}``: ``{{ track.name|said }}`` shows a word of the rules in the
reader's language (``fudgetable.rules_words``)."""

from django import template

from fudgetable.rules_words import said as said_words

register = template.Library()


@register.filter
def said(words: object) -> object:
    """The rules' words translated; anything else (a number, None) as it is."""
    return said_words(words) if isinstance(words, str) else words
