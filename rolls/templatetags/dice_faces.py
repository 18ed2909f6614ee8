"""The dice faces of a roll in the log (``rolls.dice_faces``), built in Python: the log's entry
is rendered for every roll and every audience, and as an included template the faces took a
third of that."""

from collections.abc import Sequence

from django import template
from django.utils.safestring import SafeString

from rolls.dice_faces import drawn

register = template.Library()


@register.simple_tag
def dice_faces(faces: Sequence[str], total: int | None = None) -> SafeString:
    return drawn(faces, total)
