"""A scene's part's id as pages show it (``rolls.scene.ids``)."""

from django import template

from rolls.scene import ids as scene_ids
from rolls.scene.models import Area, Card, Figure, Scene

register = template.Library()


@register.filter
def shown_id(part: Scene | Area | Figure | Card | None) -> str:
    """The id pages show for a scene, an area, a figure or a card ("" for none)."""
    return "" if part is None else scene_ids.shown_id(part)
