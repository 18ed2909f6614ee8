"""A message's words as the log shows them (``rolls.talk.markup``)."""

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString, mark_safe

from rolls.talk.markup import message_html as markup

register = template.Library()


@register.filter
def message_html(snapshot: Mapping[str, Any]) -> SafeString:
    """The message's text, escaped, with its small markup and its mentions."""
    return mark_safe(markup(str(snapshot.get("text", "")), snapshot.get("people")))


@register.filter
def mention_ids(snapshot: Mapping[str, Any]) -> str:
    """The ids of the people a message mentions, for the page to badge its own person's tab."""
    people = snapshot.get("people") or {}
    return " ".join(str(user_id) for user_id in people.values() if type(user_id) is int)
