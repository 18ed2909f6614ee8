"""A log entry's id as pages show it (``fudgetable.entry_ids``)."""

from django import template

from fudgetable import entry_ids

register = template.Library()


@register.filter
def entry_id(pk: int) -> str:
    """The id pages show for the entry ``pk``: one that carries no order and no count."""
    return entry_ids.encode(pk)
