"""Lets the GM's fight panel on the table page look up its own choices, so including it is one
line in the page's template and nothing in the page's view."""

from typing import Any

from django import template
from django.db.models import Prefetch

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Character, Gear
from fudgetable.http import new_key
from fudgetable.rules import fight as rules
from fudgetable.rules import ranged
from fudgetable.rules.blows import SHIFT_DIE
from rolls.fight.exchange import AIM_MODIFIERS, AIM_NEEDS, POSITIONS
from rolls.fight.selectors import open_manoeuvres, pending_manoeuvres, recent_fights
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
    fighters = []
    weapons = Prefetch("gear", queryset=Gear.objects.filter(kind=Gear.Kind.WEAPON))
    characters = Character.objects.filter(campaign_id=membership.campaign_id)
    for character in characters.prefetch_related("traits", weapons):
        traits = [
            (t.pk, f"{t.name}, {ruleset.ladder.describe(t.level + t.modifier)}")
            for t in character.traits.all()
        ]
        melee = [(g.pk, g.name) for g in character.gear.all() if g.inj is None]
        guns = [
            (g.pk, f"{g.name} (INJ {g.inj})") for g in character.gear.all() if g.inj is not None
        ]
        fighters.append({"character": character, "traits": traits, "weapons": melee, "guns": guns})
    describe = ruleset.ladder.describe
    fights = recent_fights(membership.campaign_id)
    return {
        "ready": True,
        "fighters": fighters,
        "sides": (rules.ATTACKER, rules.DEFENDER),
        "tactics": list(rules.TACTICS.items()),
        "positions": POSITIONS,
        # A pulled punch caps the wound at a level short of the track's worst.
        "pulls": [(i, f"At most {level.name}") for i, level in enumerate(track.levels[:-1])],
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
