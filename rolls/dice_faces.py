"""The dice of a roll as people read them: small inline SVG faces for the eye, and words for
a screen reader ("plus, plus, blank, minus: +1"). A snapshot keeps the faces as the log shows
them (``services.faces_shown``): a Fudge die as its glyph, any other die or a card as it
reads, so the shape follows the face: a Fudge die, a numbered die, a card."""

from collections.abc import Sequence

from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext, gettext_lazy

# The glyphs services.FUDGE_FACES stores, and what each says.
FUDGE_WORDS = {"⊞": gettext_lazy("plus"), "▢": gettext_lazy("blank"), "⊟": gettext_lazy("minus")}

_SQUARE = '<rect x="1" y="1" width="22" height="22" rx="4" class="die-body"/>'
# A Fudge die's mark drawn, not typed: the same on every screen and in every font.
_FUDGE = {
    "⊞": _SQUARE + '<path d="M7 12h10M12 7v10" class="die-mark"/>',
    "▢": _SQUARE,
    "⊟": _SQUARE + '<path d="M7 12h10" class="die-mark"/>',
}
_SVG = (
    '<svg class="die" viewBox="0 0 24 24" width="24" height="24" aria-hidden="true"'
    ' focusable="false">'
)
# Constant markup, written here: safe as it stands.
_FACES = {glyph: mark_safe(_SVG + body + "</svg>") for glyph, body in _FUDGE.items()}
_OPEN, _BODY = mark_safe(_SVG), mark_safe(_SQUARE)


def _face(face: str) -> SafeString:
    if face in _FACES:
        return _FACES[face]
    if face.lstrip("-").isdigit():
        return format_html(
            '{}{}<text x="12" y="16.5" class="die-number">{}</text></svg>', _OPEN, _BODY, face
        )
    return format_html(
        '<svg class="die card" viewBox="0 0 20 28" width="20" height="28" aria-hidden="true"'
        ' focusable="false"><rect x="1" y="1" width="18" height="26" rx="3" class="die-body"/>'
        '<text x="10" y="18" class="die-number">{}</text></svg>',
        face,
    )


def spoken(faces: Sequence[str], total: int | None = None) -> str:
    """The faces in words, and what they read as: "plus, plus, blank, minus: +1"."""
    words = ", ".join(str(FUDGE_WORDS.get(face, face)) for face in faces)
    return words if total is None else f"{words}: {total:+d}"


def drawn(faces: Sequence[str], total: int | None = None) -> SafeString:
    """The faces as SVG, spoken once as one image."""
    return format_html(
        '<span class="faces" role="img" aria-label="{}">{}</span>',
        gettext("dice: %(faces)s") % {"faces": spoken(faces, total)},
        format_html_join("", "{}", ((_face(face),) for face in faces)),
    )
