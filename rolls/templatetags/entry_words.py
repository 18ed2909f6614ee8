"""A log entry's heading, in the words of the language it is drawn in (``rolls.entry_words``)."""

from collections.abc import Mapping
from typing import Any

from django import template

from rolls import entry_words
from rolls.models import Roll

register = template.Library()


@register.filter
def entry_label(roll: Roll) -> str:
    return entry_words.entry_label(roll)


@register.filter
def marked_words(marked: Mapping[str, Any]) -> str:
    """One wound a fight's confirmation marked; nothing for one a file garbled."""
    try:
        return entry_words.marked_words(marked)
    except (KeyError, TypeError, ValueError, AttributeError):
        return ""


@register.filter
def outcome_words(outcome: str) -> str:
    return entry_words.outcome_words(outcome)
