"""The dice faces of a roll in the log, built in Python: the log's entry is rendered for every
roll and every audience, and as an included template the faces took a third of that."""

from collections.abc import Sequence

from django import template
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString

register = template.Library()


@register.simple_tag
def dice_faces(faces: Sequence[str]) -> SafeString:
    """The faces as glyphs, read out once as a list (each glyph is hidden from screen readers)."""
    glyphs = format_html_join(
        "", '<span class="face" aria-hidden="true">{}</span>', ((f,) for f in faces)
    )
    return format_html(
        '<span class="faces" aria-label="dice: {}">{}</span>', ", ".join(faces), glyphs
    )
