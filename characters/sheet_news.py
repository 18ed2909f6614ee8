"""A change a GM makes to a player's character, told on that player's open table and sheet in
words ("The GM marked Brannoc: Wounds Hurt. Rolls take: Wounds: Hurt -1"), so a wound or a
spend does not arrive unnoticed. Sent to the player's own sockets alone, after the change
commits; the player's own taps tell them nothing."""

from dataclasses import dataclass

from django.db import transaction
from django.template.loader import render_to_string
from django.utils.translation import gettext

from campaigns.selectors import campaign_ladder, campaign_ruleset, table_language
from characters.models import Character
from characters.selectors import standing_lines, track_views
from fudgetable import live
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules_words import said

TEMPLATE = "characters/sheet_news.html"


@dataclass(frozen=True)
class Vitals:
    """What a player keeps an eye on, in words: points, XP, each track, each trait's level."""

    fudge_points: int
    xp: int
    tracks: dict[str, str]
    traits: dict[str, str]


def vitals(character: Character, ruleset: Ruleset) -> Vitals:
    tracks = {
        said(view.name): f"{view.marked}/{view.size}"
        + (f" {said(view.consequence)}" if view.consequence else "")
        for _, view in track_views(character, ruleset)
    }
    describe = campaign_ladder(character.campaign).describe
    traits = {t.name: describe(t.level + t.modifier) for t in character.traits.all()}
    return Vitals(character.fudge_points, character.xp, tracks, traits)


def what_changed(before: Vitals, after: Vitals) -> list[str]:
    """Each difference, in words: "Fudge points 3 → 2", "Wounds 2/8 Hurt"."""
    changes = []
    if before.fudge_points != after.fudge_points:
        changes.append(
            gettext("Fudge points %(before)s → %(after)s")
            % {"before": before.fudge_points, "after": after.fudge_points}
        )
    if before.xp != after.xp:
        xp = {"before": before.xp, "after": after.xp}
        changes.append(gettext("XP %(before)s → %(after)s") % xp)
    for parts_before, parts_after in ((before.tracks, after.tracks), (before.traits, after.traits)):
        for name, now in parts_after.items():
            if parts_before.get(name) != now:
                changes.append(f"{name} {now}")
    return changes


def vitals_of(character: Character) -> Vitals:
    """The character's vitals as they stand in the database."""
    fresh = Character.objects.prefetch_related("traits").get(pk=character.pk)
    return vitals(fresh, campaign_ruleset(fresh.campaign))


def changes_told(character: Character, before: Vitals) -> str:
    """What a sheet command (a GM's) changed since ``before``, in words for the player."""
    changes = what_changed(before, vitals_of(character))
    if not changes:
        return ""
    said = {"name": character.name, "changes": "; ".join(changes)}
    return gettext("The GM changed %(name)s: %(changes)s.") % said


def tell_player(character: Character, *, actor_id: int | None, what: str) -> None:
    """Tells the character's player what someone else (a GM) did to it, with what every roll
    takes now. Nothing for an NPC, a PC nobody plays, a player's own change, or no words."""
    owner_id = character.owner_id
    if not what or owner_id is None or actor_id == owner_id or character.is_npc:
        return

    def send() -> None:
        fresh = Character.objects.prefetch_related("details").get(pk=character.pk)
        standing = standing_lines(fresh, campaign_ruleset(fresh.campaign))
        lines = [
            f"{said(line.name)} {line.amount:+d}" for line in standing.lines if not line.situational
        ]
        no_action = said(standing.no_action)
        with table_language(fresh.campaign):
            html = render_to_string(
                TEMPLATE, {"character": fresh, "what": what, "lines": lines, "no_action": no_action}
            )
        live.publish_to_person(fresh.campaign_id, owner_id, "sheet.news", html=html)

    transaction.on_commit(send)
