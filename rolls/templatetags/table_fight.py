"""Lets the GM's fight panel on the table page look up its own choices, so including it is one
line in the page's template and nothing in the page's view."""

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ladder, campaign_ruleset
from fudgetable.http import new_key
from fudgetable.rules import fight as rules
from fudgetable.rules import ranged
from fudgetable.rules.blows import SHIFT_DIE
from rolls.fight.exchange import AIM_MODIFIERS, AIM_NEEDS, POSITIONS
from rolls.fight.selectors import (
    FighterChoices,
    fighter_choices,
    open_manoeuvres,
    pending_manoeuvres,
    recent_fights,
)
from rolls.scene.selectors import current_scene

register = template.Library()
DIFFICULTIES = range(-2, 7)  # the GM's own difficulty for a shot: Terrible to Superb +2


def _step(name: str, steps: int) -> str:
    return f"{name} {steps:+d}" if steps else name


@register.simple_tag
def fight_panel(membership: Membership) -> dict[str, Any]:
    """Who may fight, with what, and whether this table fights at all (a wound track)."""
    ruleset = campaign_ruleset(membership.campaign)
    track = ruleset.wound_track
    ready = membership.is_gm and track is not None
    if not ready or track is None:
        return {"ready": False}
    describe = campaign_ladder(membership.campaign).describe
    fights = recent_fights(membership.campaign_id)
    return {
        "ready": True,
        "fighters": fighter_choices(membership.campaign_id, ruleset),
        "sides": (rules.ATTACKER, rules.DEFENDER),
        "tactics": list(rules.TACTICS.items()),
        "positions": POSITIONS,
        # A pulled punch caps the wound at a level short of the track's worst.
        "pulls": [
            (i, gettext("At most %(level)s") % {"level": level.name})
            for i, level in enumerate(track.levels[:-1])
        ],
        "aim_modifiers": AIM_MODIFIERS,
        "aim_needs": AIM_NEEDS,
        "untrained": describe(rules.POOR),
        "ranges": [(k, f"{name}: {describe(steps)}") for k, (name, steps) in ranged.RANGES.items()],
        "light": [(k, _step(name, steps)) for k, (name, steps) in ranged.LIGHT.items()],
        "cover": [(k, _step(name, steps)) for k, (name, steps) in ranged.COVER.items()],
        "difficulties": [(value, describe(value)) for value in DIFFICULTIES],
        "shift_die": SHIFT_DIE in ruleset.damage_options,
        "options": ruleset.damage_options,
        "open_manoeuvres": open_manoeuvres(membership.campaign_id, fights),
        "outmanoeuvred": list(pending_manoeuvres(membership.campaign_id, fights).values()),
        "manoeuvre_difficulty": describe(rules.MANOEUVRE_DIFFICULTY),
        # A scene on the table: a shot takes its range, light and cover from its areas.
        "scene": current_scene(membership.campaign_id) is not None,
        "key": new_key(),
    }


# The form's values as the GM sent them, when a roll was refused: the panel drawn again keeps
# every choice (``views._answer``). Empty when the form is drawn fresh: then its defaults.


@register.simple_tag
def selected(values: Mapping[str, str], name: str, value: object) -> str:
    """`` selected`` on the option the GM had picked for ``name``."""
    return " selected" if values and values.get(name) == str(value) else ""


@register.simple_tag
def checked(values: Mapping[str, str], name: str) -> str:
    """`` checked`` on a box the GM had ticked."""
    return " checked" if values and values.get(name) else ""


@register.filter
def chosen(values: Mapping[str, str], name: str) -> str:
    """What the GM had typed in a field."""
    return (values.get(name) or "") if values else ""


@register.filter
def arms(fighter: FighterChoices, ranged: bool) -> list[tuple[int, str]]:
    """A fighter's weapons for melee, or (``ranged``) those shot or thrown."""
    return fighter.guns if ranged else fighter.weapons
