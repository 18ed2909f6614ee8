"""The small commands a sheet accepts, by name: the form each reads, who may send it, and the
service it calls. One view serves them all (``views.sheet_command``)."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django import forms
from django.db.models import Model, QuerySet
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters import forms as f
from characters import services
from characters.models import Character
from characters.services.sheet_parts import track_take_condition
from fudgetable.rules.errors import RulesError

Handler = Callable[[Membership, Character, dict[str, Any]], object]


@dataclass(frozen=True)
class Undo:
    """What a command changed, in words, and the command that puts it back: a level chosen
    from a list saves itself, so a slip of the thumb is undone from the notice."""

    text: str
    command: str
    fields: dict[str, Any]


@dataclass(frozen=True)
class Command:
    form: type[forms.Form]
    run: Handler
    gm_only: bool = False
    # Players may not reshape a finished character directly; they spend XP instead.
    building_only: bool = False
    # It changes what other screens show live (points, XP, tracks, statuses): the party
    # strip and the sheet's open copies hear of it (``live_sheets.sheet_changed``).
    live: bool = False
    # All it changes shows in the sheet's live parts (points, what rolls take, traits,
    # tracks), so a tap is answered with those alone, not the whole sheet drawn again.
    answers_live: bool = False
    # It changes what a fight at the table may pick (traits and their levels, weapons): the
    # GM's open fight panel hears of it (``live_sheets.fighters_changed``).
    fighting: bool = False


def _one[M: Model](rows: QuerySet[M], pk: int | None, what: str) -> M:
    """A row of this very sheet; an id from another sheet or campaign is refused."""
    row = rows.filter(pk=pk).first() if pk is not None else None
    if row is None:
        raise RulesError(what, gettext("no such %(what)s on this sheet") % {"what": what})
    return row


def _inside(character: Character, pk: int | None) -> Any:
    return None if pk is None else _one(character.items.all(), pk, "container")


def _fudge_points(membership: Membership, character: Character, data: dict[str, Any]) -> object:
    if data["by"] > 0 and not membership.is_gm:
        raise RulesError("fudge_points", gettext("only the GM hands out Fudge points"))
    return services.fudge_points_change(character=character, by=data["by"])


def _set_level(membership: Membership, character: Character, data: dict[str, Any]) -> Undo:
    trait = _one(character.traits.all(), data["trait"], "trait")
    was = trait.level
    services.trait_set_level(character=character, trait=trait, level=data["level"])
    ladder = campaign_ruleset(character.campaign).ladder
    return Undo(
        f"{trait.name}: {ladder.describe(data['level'])}, was {ladder.describe(was)}.",
        "trait-level",
        {"trait": trait.pk, "level": was},
    )


def _remove_feature(membership: Membership, character: Character, data: dict[str, Any]) -> object:
    if data["pay_xp"] and not membership.is_gm:
        raise RulesError("feature", gettext("buying off a fault needs the GM"))
    feature = _one(character.features.all(), data["feature"], "gift or fault")
    return services.feature_remove(character=character, feature=feature, pay_xp=data["pay_xp"])


def _add_feature(membership: Membership, character: Character, data: dict[str, Any]) -> object:
    if data["pay_xp"] and not membership.is_gm:
        raise RulesError("feature", gettext("buying a gift with XP needs the GM"))
    return services.feature_add(
        character=character,
        kind=data["kind"],
        name=data["name"],
        target=data["target"],
        amount=data["amount"] or 0,
        situation=data["situation"],
        supernormal=data["supernormal"],
        pay_xp=data["pay_xp"],
    )


COMMANDS: dict[str, Command] = {
    "trait-add": Command(
        f.TraitAddForm,
        lambda m, c, d: services.trait_add(character=c, **d),
        building_only=True,
        fighting=True,
    ),
    "trait-level": Command(
        f.TraitLevelForm,
        _set_level,
        building_only=True,
        live=True,
        answers_live=True,
        fighting=True,
    ),
    "trait-remove": Command(
        f.TraitForm,
        lambda m, c, d: services.trait_remove(
            character=c, trait=_one(c.traits.all(), d["trait"], "trait")
        ),
        building_only=True,
        fighting=True,
    ),
    "trait-advance": Command(
        f.TraitForm,
        lambda m, c, d: services.trait_advance(
            character=c, trait=_one(c.traits.all(), d["trait"], "trait"), gm_permission=m.is_gm
        ),
        live=True,
        fighting=True,
    ),
    "ability-allocate": Command(
        f.AllocateForm,
        lambda m, c, d: services.ability_allocate(
            character=c, trait=_one(c.traits.all(), d["trait"], "ability"), xp=d["xp"]
        ),
        live=True,
    ),
    "feature-add": Command(f.FeatureAddForm, _add_feature, live=True),
    "feature-remove": Command(f.FeatureForm, _remove_feature, live=True),
    "gear-add": Command(
        f.GearAddForm, lambda m, c, d: services.gear_add(character=c, **d), fighting=True
    ),
    "gear-ranged": Command(
        f.GearRangedForm,
        lambda m, c, d: services.gear_set_ranged(
            character=c, gear=_one(c.gear.all(), d["gear"], "gear"), ranged=d["ranged"]
        ),
        fighting=True,
    ),
    "gear-remove": Command(
        f.GearForm,
        lambda m, c, d: services.gear_remove(
            character=c, gear=_one(c.gear.all(), d["gear"], "gear")
        ),
        fighting=True,
    ),
    "item-add": Command(
        f.ItemAddForm,
        lambda m, c, d: services.item_add(
            character=c,
            name=d["name"],
            quantity=d["quantity"],
            note=d["note"],
            inside=_inside(c, d["inside"]),
        ),
    ),
    "item-move": Command(
        f.ItemMoveForm,
        lambda m, c, d: services.item_move(
            character=c,
            item=_one(c.items.all(), d["item"], "item"),
            inside=_inside(c, d["inside"]),
        ),
    ),
    "item-remove": Command(
        f.ItemForm,
        lambda m, c, d: services.item_remove(
            character=c, item=_one(c.items.all(), d["item"], "item")
        ),
    ),
    "detail-add": Command(
        f.DetailAddForm,
        lambda m, c, d: services.detail_add(
            character=c,
            kind=d["kind"],
            name=d["name"],
            value=d["value"],
            modifier=d["modifier"] or 0,
        ),
        live=True,
    ),
    "detail-remove": Command(
        f.DetailForm,
        lambda m, c, d: services.detail_remove(
            character=c, detail=_one(c.details.all(), d["detail"], "detail")
        ),
        live=True,
    ),
    "track-box": Command(
        f.TrackBoxForm,
        lambda m, c, d: services.track_set_box(
            character=c,
            track=d["track"],
            box=d["box"][0],
            marked=d["box"][1],
            stun=d["stun"],
            by=m,
        ),
        live=True,
        answers_live=True,
    ),
    "track-condition": Command(
        f.TrackConditionForm,
        lambda m, c, d: track_take_condition(
            character=c, track=d["track"], name=d["name"], effect=d["effect"], box=d["box"], by=m
        ),
        live=True,
        answers_live=True,
    ),
    "track-ease": Command(
        f.TrackEaseForm,
        lambda m, c, d: services.track_ease(character=c, track=d["track"], box=d["box"]),
        live=True,
        answers_live=True,
    ),
    "fudge-points": Command(f.FudgePointsForm, _fudge_points, live=True, answers_live=True),
    "points-to-xp": Command(
        f.PointsTradeForm,
        lambda m, c, d: services.points_trade(character=c, to_xp=True, spend=d["spend"]),
        live=True,
        answers_live=True,
    ),
    # Back-conversion is the GM's to allow ("I allow back-conversion"), so the GM does it.
    "xp-to-points": Command(
        f.PointsTradeForm,
        lambda m, c, d: services.points_trade(character=c, to_xp=False, spend=d["spend"]),
        gm_only=True,
        live=True,
        answers_live=True,
    ),
    "xp": Command(
        f.XpForm,
        lambda m, c, d: services.xp_award(character=c, amount=d["amount"]),
        gm_only=True,
        live=True,
    ),
    "trade": Command(
        f.TradeForm,
        lambda m, c, d: services.build_trade(character=c, level=d["level"]),
        building_only=True,
    ),
    "untrade": Command(
        f.EmptyForm, lambda m, c, d: services.build_untrade(character=c), building_only=True
    ),
    "finish": Command(f.EmptyForm, lambda m, c, d: services.character_finish(character=c)),
    "reopen": Command(
        f.EmptyForm, lambda m, c, d: services.character_reopen(character=c), gm_only=True
    ),
    "exception": Command(
        f.ExceptionForm,
        lambda m, c, d: services.exception_approve(character=c, note=d["note"]),
        gm_only=True,
    ),
}
