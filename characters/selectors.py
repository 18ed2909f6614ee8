"""Reads of character sheets: one character with everything on its sheet, in few queries."""

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ladder, campaign_ruleset
from characters.models import AbilityMarks, Character, Detail, Feature, Gear, Item
from fudgetable.rules import sheet_tracks
from fudgetable.rules.abilities import standing
from fudgetable.rules.building import BuildCheck, ez_feature_points
from fudgetable.rules.character import Fault, Gift, Modifier, Weapon
from fudgetable.rules.rulesets import BuildMethod, Ruleset, TraitScheme
from fudgetable.rules.sheet import (
    ABILITY,
    SCHEME_KINDS,
    Sheet,
    SheetTrait,
    advance_step,
    build_check,
    derived,
    level_bounds,
)
from fudgetable.rules.sheet_modifiers import SheetDetail, SheetModifiers, sheet_modifiers
from fudgetable.rules.tracks import ConditionTrack


def characters_visible_to(membership: Membership) -> QuerySet[Character]:
    """PCs for everyone at the table; NPCs for GMs, or once revealed."""
    characters = Character.objects.filter(campaign_id=membership.campaign_id).select_related(
        "owner"
    )
    if membership.is_gm:
        return characters
    return characters.exclude(kind=Character.Kind.NPC, revealed=False)


def sheet_queryset(campaign: Campaign) -> QuerySet[Character]:
    return (
        Character.objects.filter(campaign=campaign)
        .select_related("owner", "campaign")
        .prefetch_related(
            "traits",
            "features",
            "gear",
            Prefetch("items", queryset=Item.objects.order_by("pk")),
            "details",
        )
    )


def weapon_of(gear: Gear) -> Weapon:
    """A weapon row as the rules read it: what powers it, and whether it is shot or thrown."""
    return Weapon(gear.name, gear.damage_factor, gear.inj, gear.quality, gear.ranged)


def _modifiers(feature: Feature) -> tuple[Modifier, ...]:
    if not feature.amount:
        return ()
    return (Modifier(feature.target, feature.amount, feature.situation),)


def rules_sheet(character: Character) -> Sheet:
    """The sheet as the rules module reads it (uses the prefetched rows)."""
    features = list(character.features.all())
    gear = list(character.gear.all())
    return Sheet(
        traits=tuple(
            SheetTrait(
                t.kind, t.name, t.level, t.specialty, t.specialty_required, t.progress, t.modifier
            )
            for t in character.traits.all()
        ),
        gifts=tuple(
            Gift(f.name, _modifiers(f), f.supernormal) for f in features if f.kind == "gift"
        ),
        faults=tuple(Fault(f.name, _modifiers(f)) for f in features if f.kind == "fault"),
        armor_bonus=max((g.armor_bonus or 0 for g in gear if g.kind == Gear.Kind.ARMOR), default=0),
        weapons=tuple(weapon_of(g) for g in gear if g.kind == Gear.Kind.WEAPON),
        mass_scale=character.mass_scale,
        xp=character.xp,
        trades=tuple(character.trades),
    )


def track_views(
    character: Character, ruleset: Ruleset
) -> list[tuple[sheet_tracks.Template, sheet_tracks.TrackView]]:
    """Each of the sheet's tracks, and what it draws: its stored state fitted to the
    campaign's tracks as they are now."""
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes, fit=True)
    return [
        (template, sheet_tracks.view(key, template, sheet_tracks.state_of(template, stored)))
        for key, template in templates.items()
        for stored in [character.tracks.get(key)]
    ]


def standing_lines(character: Character, ruleset: Ruleset) -> SheetModifiers:
    """The lines every roll from this sheet takes, whatever the trait (its tracks, Peupfudge
    statuses); a gift naming one trait shows on the table's roll form. Uses the prefetched
    details."""
    peup = ruleset.trait_scheme is TraitScheme.ABILITIES
    return sheet_modifiers(
        ruleset,
        trait="",
        tracks_state=character.tracks,
        npc_boxes=character.npc_boxes,
        details=roll_details(character.details.all()) if peup else (),
    )


def roll_details(details: Iterable[Detail]) -> list[SheetDetail]:
    """Peupfudge's statuses and properties that bring a modifier to a roll."""
    return [
        SheetDetail(d.name, d.value, d.modifier, situational=d.kind == Detail.Kind.PROPERTY)
        for d in details
        if d.modifier and d.kind != Detail.Kind.CHARACTERISTIC
    ]


@dataclass
class ItemNode:
    item: Item
    contents: list["ItemNode"] = field(default_factory=list)


def inventory_tree(character: Character) -> list[ItemNode]:
    nodes = {item.pk: ItemNode(item) for item in character.items.all()}
    roots: list[ItemNode] = []
    for node in nodes.values():
        parent = nodes.get(node.item.parent_id) if node.item.parent_id else None
        (parent.contents if parent else roots).append(node)
    return roots


@dataclass(frozen=True)
class TraitRow:
    trait: Any
    label: str  # the level in ladder words
    step_cost: int | None  # XP the next level costs, if it can be bought now
    step_refusal: str
    roll_lines: SheetModifiers  # what a roll of it takes from the sheet, each line untickable


@dataclass(frozen=True)
class FeatureRow:
    feature: Feature
    build_points: int | None  # its price in EZFudge build points while bought with them


def sheet_context(character: Character, *, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Everything the sheet page shows, computed once per render."""
    ruleset = ruleset or campaign_ruleset(character.campaign)
    sheet = rules_sheet(character)
    ladder = campaign_ladder(character.campaign)  # its words, for people to read
    marks = (
        {m.ability: m for m in AbilityMarks.objects.filter(campaign_id=character.campaign_id)}
        if ruleset.trait_scheme is TraitScheme.ABILITIES
        else {}
    )
    details = (
        roll_details(character.details.all())
        if ruleset.trait_scheme is TraitScheme.ABILITIES
        else ()
    )
    # While an EZFudge character is bought with build points, each gift and fault says its price.
    point_buy = (
        ruleset.build.method is BuildMethod.EZ_POINTS and character.stage == Character.Stage.DRAFT
    )
    features = [
        FeatureRow(
            f,
            ez_feature_points(fault=f.kind == Feature.Kind.FAULT, supernormal=f.supernormal)
            if point_buy
            else None,
        )
        for f in character.features.all()
    ]
    rows = []
    for trait, sheet_trait in zip(character.traits.all(), sheet.traits, strict=True):
        label = ladder.describe(trait.level)
        if trait.kind == ABILITY:
            label = str(trait.level + trait.modifier)
            mark = marks.get(trait.name)
            if mark is not None:
                level = trait.level + trait.modifier
                label += f" · {standing(level, mark.poor, mark.decent, mark.great)}"
        step = advance_step(ruleset, sheet_trait, character.xp)
        lines = sheet_modifiers(
            ruleset,
            trait=trait.name,
            tracks_state=character.tracks,
            npc_boxes=character.npc_boxes,
            gifts=sheet.gifts,
            faults=sheet.faults,
            details=details,
        )
        rows.append(TraitRow(trait, label, step.cost if step.allowed else None, step.reason, lines))
    is_peup = ruleset.trait_scheme is TraitScheme.ABILITIES
    tracks = track_views(character, ruleset)
    check: BuildCheck = build_check(ruleset, sheet)
    low, high = level_bounds(ruleset)
    levels = [(value, ladder.describe(value)) for value in range(low, high + 1)]
    return {
        "character": character,
        "ruleset": ruleset,
        "trait_rows": rows,
        "trait_kinds": SCHEME_KINDS[ruleset.trait_scheme],
        "is_ez": ruleset.trait_scheme is TraitScheme.ROLES_ATTRIBUTES,
        "is_peup": is_peup,
        "levels": levels,
        "derived": derived(ruleset, sheet),
        "build": check,
        "trading": ruleset.build.method is BuildMethod.DISTRIBUTION,
        "tracks": [view for _, view in tracks],
        "roll_lines": standing_lines(character, ruleset),
        # Condition tracks with a box a Fudge point could ease, where the campaign allows it.
        "easable": {
            view.key
            for template, view in tracks
            if isinstance(template, ConditionTrack)
            and any(mark != "clear" for _, _, boxes in view.rows for _, mark in boxes)
        }
        if "reduce-condition" in ruleset.fudge_point_uses and character.fudge_points
        else set(),
        "gifts": [row for row in features if row.feature.kind == Feature.Kind.GIFT],
        "faults": [row for row in features if row.feature.kind == Feature.Kind.FAULT],
        "feature_points": point_buy,
        "armour": [g for g in character.gear.all() if g.kind == Gear.Kind.ARMOR],
        "weapons": [g for g in character.gear.all() if g.kind == Gear.Kind.WEAPON],
        "inventory": inventory_tree(character),
        "items": list(character.items.all()),
        "details": list(character.details.all()),
    }


# --- NPC roster ---------------------------------------------------------------------------

REVEALED, HIDDEN = "revealed", "hidden"


def npc_roster(campaign: Campaign, *, query: str = "", shown: str = "") -> list[Character]:
    """The campaign's NPCs whose name, description or a behaviour holds ``query``, any case;
    ``shown`` keeps only the revealed or only the hidden ones.

    The search runs here rather than in SQL: SQLite's LIKE folds only ASCII letters and a
    JSON list's stored text escapes the rest, while a roster is small enough to scan."""
    npcs = Character.objects.filter(campaign=campaign, kind=Character.Kind.NPC)
    if shown in (REVEALED, HIDDEN):
        npcs = npcs.filter(revealed=shown == REVEALED)
    needle = query.strip().casefold()
    if not needle:
        return list(npcs)
    return [
        npc
        for npc in npcs
        if needle in npc.name.casefold()
        or needle in npc.description.casefold()
        or any(needle in str(line).casefold() for line in npc.behaviours)
    ]
