"""The rest of a sheet: gifts and faults, gear, inventory, details, tracks, points, profile
and finishing the build."""

from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.limits import MAX_FUDGE_POINTS, MAX_XP
from characters.models import (
    Character,
    Detail,
    Feature,
    Gear,
    Item,
)
from characters.selectors import rules_sheet, sheet_queryset
from characters.services._common import StaleEdit, locked, track_template
from characters.signals import track_marked
from fudgetable.rules import fight, sheet_tracks, tracks, wounds
from fudgetable.rules.advancement import fudge_points_to_xp, xp_to_fudge_points
from fudgetable.rules.character import Fault, Gift, Modifier
from fudgetable.rules.errors import RulesError
from fudgetable.rules.sheet import (
    build_check,
    gift_or_fault_step,
)
from fudgetable.rules.tracks import ConditionTrack, TrackState

# --- gifts, faults, gear, inventory, details ----------------------------------------------


@transaction.atomic
def feature_add(
    *,
    character: Character,
    kind: str,
    name: str,
    target: str = "",
    amount: int = 0,
    situation: str = "",
    supernormal: bool = False,
    pay_xp: bool = False,
) -> Feature:
    """Adds a gift or fault; with ``pay_xp`` a gift is bought with XP (EZFudge: 8 XP)."""
    character = locked(character)
    if amount:
        # The rules decide what a gift or fault may give: +1 or -1 to a named target.
        modifiers = (Modifier(target, amount, situation),)
        Gift(name, modifiers) if kind == Feature.Kind.GIFT else Fault(name, modifiers)
    if pay_xp:
        _pay_for_gift_or_fault(character)
    return Feature.objects.create(
        character=character,
        kind=kind,
        name=name,
        target=target,
        amount=amount,
        situation=situation,
        supernormal=supernormal,
    )


@transaction.atomic
def feature_remove(*, character: Character, feature: Feature, pay_xp: bool = False) -> None:
    """Removes a gift or fault; with ``pay_xp`` a fault is bought off with XP."""
    character = locked(character)
    if pay_xp:
        if feature.kind != Feature.Kind.FAULT:
            raise RulesError("feature", gettext("only a fault is bought off with XP"))
        _pay_for_gift_or_fault(character)
    feature.delete()


def _pay_for_gift_or_fault(character: Character) -> None:
    ruleset = campaign_ruleset(character.campaign)
    # Only GMs reach a paid change (the view checks), so the GM's agreement is given.
    step = gift_or_fault_step(ruleset, character.xp, gm_agrees=True)
    if not step.allowed:
        raise RulesError("xp", step.reason)
    Character.objects.filter(pk=character.pk).update(xp=F("xp") - step.cost)


@transaction.atomic
def gear_add(
    *,
    character: Character,
    kind: str,
    name: str,
    armor_bonus: int | None = None,
    damage_factor: int | None = None,
    inj: int | None = None,
    quality: bool = False,
    ranged: bool = False,
) -> Gear:
    """Armour or a weapon. ``ranged``: a weapon shot or thrown (a bow); a self-powered one
    always is, as ``rules.Weapon`` reads it."""
    locked(character)
    if kind == Gear.Kind.ARMOR:
        if armor_bonus is None or armor_bonus < 0:
            raise RulesError("armor_bonus", gettext("armour needs a bonus of 0 or more"))
        damage_factor = inj = None
        ranged = False
    elif (damage_factor is None) == (inj is None):
        raise RulesError(
            "damage_factor", gettext("give a damage factor or, for a gun, its own INJ")
        )
    return Gear.objects.create(
        character=character,
        kind=kind,
        name=name,
        armor_bonus=armor_bonus if kind == Gear.Kind.ARMOR else None,
        damage_factor=damage_factor,
        inj=inj,
        quality=quality,
        ranged=ranged or inj is not None,
    )


@transaction.atomic
def gear_set_ranged(*, character: Character, gear: Gear, ranged: bool) -> Gear:
    """Marks a weapon powered by its wielder's strength as shot or thrown (a bow), or as a
    melee weapon again. A self-powered weapon is always shot; armour is neither."""
    locked(character)
    if gear.kind != Gear.Kind.WEAPON:
        raise RulesError("gear", gettext("armour is not shot or thrown"))
    if gear.inj is not None:
        raise RulesError(
            "gear", gettext("%(gear)s is self-powered: it is always shot") % {"gear": gear.name}
        )
    gear.ranged = ranged
    gear.save(update_fields=["ranged"])
    return gear


@transaction.atomic
def gear_remove(*, character: Character, gear: Gear) -> None:
    locked(character)
    gear.delete()


@transaction.atomic
def item_add(
    *, character: Character, name: str, quantity: int = 1, note: str = "", inside: Item | None
) -> Item:
    locked(character)
    return Item.objects.create(
        character=character, name=name, quantity=quantity, note=note, parent=inside
    )


@transaction.atomic
def item_move(*, character: Character, item: Item, inside: Item | None) -> Item:
    locked(character)
    parents = dict(character.items.values_list("pk", "parent_id"))
    holder = inside.pk if inside else None
    while holder is not None:
        if holder == item.pk:
            raise RulesError(
                "inside", gettext("%(item)s cannot go inside itself") % {"item": item.name}
            )
        holder = parents.get(holder)
    item.parent = inside
    item.save(update_fields=["parent"])
    return item


@transaction.atomic
def item_remove(*, character: Character, item: Item) -> None:
    """Removes the item; what was inside it goes where the item was."""
    locked(character)
    item.contents.update(parent=item.parent)
    item.delete()


@transaction.atomic
def detail_add(
    *, character: Character, kind: str, name: str, value: str = "", modifier: int = 0
) -> Detail:
    locked(character)
    return Detail.objects.create(
        character=character, kind=kind, name=name, value=value, modifier=modifier
    )


@transaction.atomic
def detail_remove(*, character: Character, detail: Detail) -> None:
    locked(character)
    detail.delete()


# --- tracks, points, profile --------------------------------------------------------------


def _marked_by(
    by: Membership | None,
    character: Character,
    template: sheet_tracks.Template,
    before: sheet_tracks.State,
    after: sheet_tracks.State,
) -> None:
    """Tells the table what a person's command marked on a track (``signals.track_marked``);
    nothing when nothing was marked (a box cleared, a tap on a box already so)."""
    taken = sheet_tracks.taken(template, before, after)
    if by is not None and taken:
        track_marked.send(
            sender=Character, by=by, character=character, track=template.name, taken=taken
        )


@transaction.atomic
def track_set_box(
    *,
    character: Character,
    track: str,
    box: int,
    marked: bool,
    stun: bool = False,
    by: Membership | None = None,
) -> Character:
    """A tap on a track's box. ``by``: the person who tapped, so the table logs a wound
    they marked."""
    character = locked(character)
    template = track_template(character, track)
    state = sheet_tracks.state_of(template, character.tracks.get(track))
    after = sheet_tracks.set_box(template, state, box, marked=marked, stun=stun)
    character.tracks[track] = after.to_dict()
    character.save(update_fields=["tracks", "updated_at"])
    _marked_by(by, character, template, state, after)
    return character


@transaction.atomic
def track_take_condition(
    *,
    character: Character,
    track: str,
    name: str,
    effect: int,
    box: int | None = None,
    by: Membership | None = None,
) -> Character:
    """A condition taken, named, on a condition track: as many boxes as its effect marks.
    ``by``: the person who took it, so the table logs it."""
    character = locked(character)
    template = track_template(character, track)
    state = sheet_tracks.state_of(template, character.tracks.get(track))
    after = sheet_tracks.take_condition(template, state, name=name, effect=effect, box=box)
    character.tracks[track] = after.to_dict()
    character.save(update_fields=["tracks", "updated_at"])
    _marked_by(by, character, template, state, after)
    return character


@transaction.atomic
def track_heal(*, character: Character, track: str, action: str) -> Character:
    character = locked(character)
    template = track_template(character, track)
    state = sheet_tracks.state_of(template, character.tracks.get(track))
    character.tracks[track] = sheet_tracks.heal(template, state, action).to_dict()
    character.save(update_fields=["tracks", "updated_at"])
    return character


@transaction.atomic
def track_treat(*, character: Character, level: int, result: int, fair: int) -> int | None:
    """Medical care's result on the wound track's wound at ``level`` (EZFudge "Medical
    Care"); returns where that wound is now (None: healed). The roll is the caller's."""
    character = locked(character)
    template = track_template(character, sheet_tracks.WOUNDS)
    assert isinstance(template, wounds.WoundTrack)
    state = sheet_tracks.state_of(template, character.tracks.get(sheet_tracks.WOUNDS))
    assert isinstance(state, wounds.WoundState)
    after = wounds.treat(template, state, level, result, fair=fair)
    character.tracks[sheet_tracks.WOUNDS] = after.to_dict()
    character.save(update_fields=["tracks", "updated_at"])
    return wounds.treated_to(level, after != state)


@transaction.atomic
def track_ease(*, character: Character, track: str, box: int) -> Character:
    """A Fudge point spent to reduce a condition's severity by one level (Fudge Lite, "Fudge
    Points"): the condition moves to a free box of the group below, or clears from the first."""
    character = locked(character)
    ruleset = campaign_ruleset(character.campaign)
    if "reduce-condition" not in ruleset.fudge_point_uses:
        raise RulesError("use", gettext("this campaign does not spend Fudge points on conditions"))
    template = track_template(character, track)
    if not isinstance(template, ConditionTrack):
        raise RulesError(
            "track", gettext("a Fudge point eases a condition track's box, not a wound")
        )
    if character.fudge_points < 1:
        raise RulesError("fudge_points", gettext("no Fudge points left to spend"))
    state = sheet_tracks.state_of(template, character.tracks.get(track))
    assert isinstance(state, TrackState)
    character.tracks[track] = tracks.ease(template, state, box).to_dict()
    character.fudge_points -= 1
    character.save(update_fields=["tracks", "fudge_points", "updated_at"])
    return character


@transaction.atomic
def points_trade(*, character: Character, to_xp: bool, spend: int) -> Character:
    """EZFudge: Fudge points "can be converted to Experience Points" (at the campaign's rate,
    3 FP per XP unless its GM set another), and back at 2 FP per XP ("Yes, I'm mean")."""
    character = locked(character)
    ruleset = campaign_ruleset(character.campaign)
    if ruleset.key != "ezfudge":
        raise RulesError("spend", gettext("Fudge points and XP are traded in EZFudge campaigns"))
    if to_xp:
        points = fudge_points_to_xp(
            character.fudge_points,
            character.xp,
            spend=spend,
            fudge_points_per_xp=ruleset.fudge_points_per_xp,
        )
    else:
        points = xp_to_fudge_points(character.fudge_points, character.xp, spend=spend)
    if points.fudge_points > MAX_FUDGE_POINTS:
        raise RulesError(
            "spend", gettext("at most %(most)s Fudge points") % {"most": MAX_FUDGE_POINTS}
        )
    character.fudge_points, character.xp = points.fudge_points, points.xp
    character.save(update_fields=["fudge_points", "xp", "updated_at"])
    return character


@transaction.atomic
def fudge_points_change(*, character: Character, by: int) -> Character:
    """Spends (negative) or gains Fudge points; never below 0."""
    character = locked(character)
    new = character.fudge_points + by
    if new < 0:
        raise RulesError("fudge_points", gettext("no Fudge points left to spend"))
    if new > MAX_FUDGE_POINTS:
        raise RulesError(
            "fudge_points", gettext("at most %(most)s Fudge points") % {"most": MAX_FUDGE_POINTS}
        )
    character.fudge_points = new
    character.save(update_fields=["fudge_points", "updated_at"])
    return character


@transaction.atomic
def xp_award(*, character: Character, amount: int) -> Character:
    """The GM gives (or, to correct a mistake, takes back) unspent XP."""
    character = locked(character)
    new = character.xp + amount
    if not 0 <= new <= MAX_XP:
        raise RulesError(
            "xp", gettext("unspent XP must stay between 0 and %(most)s") % {"most": MAX_XP}
        )
    character.xp = new
    character.save(update_fields=["xp", "updated_at"])
    return character


@transaction.atomic
def profile_update(
    *,
    character: Character,
    version: int,
    name: str,
    description: str,
    notes: str,
    mass_scale: int = 0,
) -> Character:
    updated = Character.objects.filter(pk=character.pk, version=version).update(
        name=name,
        description=description,
        notes=notes,
        mass_scale=mass_scale,
        version=F("version") + 1,
    )
    if not updated:
        raise StaleEdit
    character.refresh_from_db()
    return character


@transaction.atomic
def character_finish(*, character: Character) -> Character:
    """Marks a built character finished, unless it breaks a rule the GM has not excused."""
    character = locked(character)
    fresh = sheet_queryset(character.campaign).get(pk=character.pk)
    broken = build_check(campaign_ruleset(character.campaign), rules_sheet(fresh)).broken
    if broken and not character.exception_note:
        raise RulesError(
            "build", gettext("Not finished yet: %(broken)s") % {"broken": "; ".join(broken)}
        )
    character.stage = Character.Stage.FINISHED
    character.save(update_fields=["stage", "updated_at"])
    return character


@transaction.atomic
def character_reopen(*, character: Character) -> Character:
    character = locked(character)
    character.stage = Character.Stage.DRAFT
    character.save(update_fields=["stage", "updated_at"])
    return character


@transaction.atomic
def exception_approve(*, character: Character, note: str) -> Character:
    """A GM lets a build stand although it breaks a rule; the note says why."""
    character = locked(character)
    character.exception_note = note
    character.save(update_fields=["exception_note", "updated_at"])
    return character


def character_delete(*, character: Character) -> None:
    character.delete()


@transaction.atomic
def track_take_wound(
    *, character: Character, level: int, name: str, stun: bool = False
) -> fight.Marked:
    """Marks a wound of ``level`` (called ``name`` on the campaign's wound track): on a PC's
    wound track, or as boxes on an NPC's condition track. ``stun``: the attacker attacked to
    stun (EZFudge "Attacking to Stun"), so the result is circled as a stun instead."""
    character = locked(character)
    ruleset = campaign_ruleset(character.campaign)
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes, fit=True)
    key = fight.wound_track_key(templates)
    template = templates[key]
    state = sheet_tracks.state_of(template, character.tracks.get(key))
    if stun:
        boxes = fight.npc_boxes_for(level)
        marked = fight.Marked(
            key, *sheet_tracks.stun(template, state, level, name=name, npc_boxes=boxes)
        )
    else:
        marked = fight.mark_wound(key, template, state, level, name)
    character.tracks[key] = marked.state.to_dict()
    character.save(update_fields=["tracks", "updated_at"])
    return marked
