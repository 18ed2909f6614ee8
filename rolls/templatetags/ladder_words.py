"""A log entry's snapshot with its ladder words in the campaign's words (``rolls.ladder_words``)."""

from typing import Any

from django import template

from rolls import ladder_words
from rolls.models import Roll

register = template.Library()


@register.filter
def in_ladder_words(roll: Roll) -> Any:
    return ladder_words.in_ladder_words(roll)
