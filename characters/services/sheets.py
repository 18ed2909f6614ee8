"""Creating a character and changing its traits: levels, advancement, XP toward abilities."""

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership
from campaigns.selectors import campaign_ruleset
from characters.models import (
    Character,
    Feature,
    PeoplePackage,
    Trait,
)
from characters.services._common import locked, next_position
from fudgetable.rules import sheet_tracks
from fudgetable.rules.abilities import Ability
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import BuildMethod, TraitScheme
from fudgetable.rules.sheet import (
    ABILITY,
    SCHEME_KINDS,
    SheetTrait,
    advance_step,
    check_level,
    starting_traits,
    traded_distribution,
)
from fudgetable.rules_words import said


@transaction.atomic
def character_create(
    *,
    campaign: Campaign,
    owner: User | None,
    name: str,
    kind: str = Character.Kind.PC,
    npc_boxes: int | None = None,
    people_package: PeoplePackage | None = None,
) -> Character:
    ruleset = campaign_ruleset(campaign)
    is_npc = kind == Character.Kind.NPC
    if is_npc and npc_boxes is None:
        npc_boxes = 2
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=npc_boxes if is_npc else None)
    character = Character.objects.create(
        campaign=campaign,
        owner=None if is_npc else owner,
        kind=kind,
        name=name,
        fudge_points=0 if is_npc else ruleset.starting_fudge_points,
        xp=ruleset.build.starting_xp
        if ruleset.build.method is BuildMethod.STARTING_XP and not is_npc
        else 0,
        npc_boxes=npc_boxes if is_npc else None,
        tracks={key: template.empty().to_dict() for key, template in templates.items()},
    )
    Trait.objects.bulk_create(
        Trait(character=character, kind=t.kind, name=t.name, level=t.level, position=i)
        for i, t in enumerate(starting_traits(ruleset))
    )
    if people_package is not None:
        _apply_package(character, people_package)
    return character


@transaction.atomic
def character_take(*, character: Character, player: Membership) -> Character:
    """A player takes a ready-made PC (one a GM made for whoever joins, or a restored one whose
    player has no account here): it is theirs from now on. One already played is refused."""
    character = Character.objects.select_for_update().get(pk=character.pk)
    if character.campaign_id != player.campaign_id or character.kind != Character.Kind.PC:
        raise RulesError("character", gettext("that is not a PC of this table"))
    if player.role != Membership.Role.PLAYER:
        raise RulesError("character", gettext("only a player takes a ready-made PC"))
    if character.owner_id is not None:
        raise RulesError(
            "character",
            gettext("%(character)s already has a player") % {"character": character.name},
        )
    character.owner_id = player.user_id
    character.save(update_fields=["owner"])
    return character


def _apply_package(character: Character, package: PeoplePackage) -> None:
    """EZFudge people packages add or change traits, and add gifts and faults, at creation."""
    for change in package.changes:
        kind, name, level = change.get("kind"), change.get("name", ""), change.get("level", 0)
        if kind in (Feature.Kind.GIFT, Feature.Kind.FAULT):
            Feature.objects.create(character=character, kind=kind, name=name)
        elif kind in (Trait.Kind.ROLE, Trait.Kind.ATTRIBUTE):
            Trait.objects.update_or_create(
                character=character,
                kind=kind,
                name=name,
                defaults={"level": level, "position": next_position(character)},
            )


# --- traits -------------------------------------------------------------------------------


@transaction.atomic
def trait_add(
    *,
    character: Character,
    name: str,
    level: int,
    kind: str = "",
    specialty: str = "",
    specialty_required: bool = False,
) -> Trait:
    character = locked(character)
    ruleset = campaign_ruleset(character.campaign)
    kinds = SCHEME_KINDS[ruleset.trait_scheme]
    kind = kind or kinds[0]
    if kind not in kinds:
        raise RulesError(
            "kind",
            gettext("a %(label)s sheet has no %(kind)ss")
            % {"label": said(ruleset.label), "kind": kind},
        )
    if ruleset.trait_scheme is TraitScheme.ROLES_ATTRIBUTES and kind == Trait.Kind.ATTRIBUTE:
        raise RulesError("kind", gettext("EZFudge has exactly four attributes"))
    existing = character.traits.filter(kind=kind, name__iexact=name).first()
    if existing is not None:
        raise RulesError(
            "name", gettext("%(existing)s is already on this sheet") % {"existing": existing.name}
        )
    return Trait.objects.create(
        character=character,
        kind=kind,
        name=name,
        level=check_level(ruleset, level),
        specialty=specialty,
        specialty_required=specialty_required,
        position=next_position(character),
    )


@transaction.atomic
def trait_set_level(*, character: Character, trait: Trait, level: int) -> Trait:
    character = locked(character)
    trait.level = check_level(campaign_ruleset(character.campaign), level)
    trait.save(update_fields=["level"])
    return trait


@transaction.atomic
def trait_remove(*, character: Character, trait: Trait) -> None:
    locked(character)
    if trait.kind == Trait.Kind.ATTRIBUTE:
        raise RulesError("trait", gettext("the four attributes stay on the sheet"))
    trait.delete()


@transaction.atomic
def trait_advance(*, character: Character, trait: Trait, gm_permission: bool = False) -> Trait:
    """Spends XP to raise a trait one level at the ruleset's cost."""
    character = locked(character)
    trait.refresh_from_db()
    ruleset = campaign_ruleset(character.campaign)
    if trait.kind == ABILITY:
        return ability_allocate(character=character, trait=trait, xp=None)
    step = advance_step(ruleset, _sheet_trait(trait), character.xp, gm_permission=gm_permission)
    if not step.allowed:
        raise RulesError("xp", f"{trait.name}: {step.reason}")
    trait.level = check_level(ruleset, trait.level + 1)
    trait.save(update_fields=["level"])
    Character.objects.filter(pk=character.pk).update(xp=F("xp") - step.cost)
    return trait


@transaction.atomic
def ability_allocate(*, character: Character, trait: Trait, xp: int | None) -> Trait:
    """Peupfudge: XP put toward an ability counts as spent even short of a level.
    ``None`` puts exactly what the next level still needs (or all there is)."""
    character = locked(character)
    trait.refresh_from_db()
    ability = Ability(trait.name, trait.level, trait.progress, trait.modifier)
    missing = ability.next_cost - trait.progress
    amount = min(missing, character.xp) if xp is None else xp
    if amount < 1:
        raise RulesError("xp", gettext("put at least 1 XP toward the ability"))
    if amount > character.xp:
        raise RulesError(
            "xp",
            gettext("needs %(amount)s XP, has %(xp)s") % {"amount": amount, "xp": character.xp},
        )
    raised = ability.allocate(amount)
    trait.level, trait.progress = raised.level, raised.progress
    trait.save(update_fields=["level", "progress"])
    Character.objects.filter(pk=character.pk).update(xp=F("xp") - amount)
    return trait


def _sheet_trait(trait: Trait) -> SheetTrait:
    return SheetTrait(
        trait.kind,
        trait.name,
        trait.level,
        trait.specialty,
        trait.specialty_required,
        trait.progress,
        trait.modifier,
    )


@transaction.atomic
def build_trade(*, character: Character, level: int) -> Character:
    """Fudge Lite "Trading Traits": one slot at ``level`` becomes two slots one level lower."""
    character = locked(character)
    trades = (*character.trades, level)
    traded_distribution(campaign_ruleset(character.campaign), trades)  # refuses a bad trade
    character.trades = list(trades)
    character.save(update_fields=["trades", "updated_at"])
    return character


@transaction.atomic
def build_untrade(*, character: Character) -> Character:
    """Undoes the last trade."""
    character = locked(character)
    if not character.trades:
        raise RulesError("trade", gettext("no trade to undo"))
    character.trades = character.trades[:-1]
    character.save(update_fields=["trades", "updated_at"])
    return character
