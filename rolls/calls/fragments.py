"""What a call for a roll looks like: the GMs' card (every open call, filling in) and each
called player's own calls, with the odds and one Roll tap per PC."""

from dataclasses import dataclass

from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign
from campaigns.selectors import campaign_ladder, campaign_ruleset
from characters.models import Character
from fudgetable.rules import checks
from fudgetable.rules.rulesets import Ruleset
from rolls.calls.models import RollCall
from rolls.models import Roll
from rolls.roll_lines import offered

TEMPLATE = "rolls/calls/cards.html"


@dataclass(frozen=True)
class Called:
    """One PC of a call: who, and their answer if they have rolled."""

    character: Character
    roll: Roll | None
    chance_percent: float | None = None  # before rolling, when the difficulty is shown


def open_calls(campaign: Campaign) -> list[RollCall]:
    return list(RollCall.objects.filter(campaign=campaign, closed_at__isnull=True))


def _called(call: RollCall, characters: dict[int, Character], rolls: dict[int, Roll]) -> list:
    return [
        Called(characters[pk], rolls.get(call.answers.get(str(pk), 0)))
        for pk in call.characters
        if pk in characters
    ]


def _rows(campaign: Campaign, calls: list[RollCall]) -> list[tuple[RollCall, list[Called], str]]:
    ids = {pk for call in calls for pk in call.characters}
    found = Character.objects.filter(pk__in=ids, campaign=campaign).prefetch_related("traits")
    characters = {c.pk: c for c in found}
    answers = {pk for call in calls for pk in call.answers.values()}
    rolls = {r.pk: r for r in Roll.objects.filter(pk__in=answers)}
    describe = campaign_ladder(campaign).describe
    return [(call, _called(call, characters, rolls), describe(call.difficulty)) for call in calls]


def gm_calls(campaign: Campaign) -> list[RollCall]:
    """The calls on the GMs' card: open ones, and closed ones not yet dismissed."""
    return list(RollCall.objects.filter(campaign=campaign, dismissed_at__isnull=True))


def call_list(campaign: Campaign, *, oob: bool = False, problem: str = "") -> str:
    """The GMs' view of their calls: who has rolled, each result, who waits; a closed call
    keeps its results side by side until a GM dismisses it."""
    context = {"campaign": campaign, "calls": _rows(campaign, gm_calls(campaign))}
    return render_to_string(f"{TEMPLATE}#list", {**context, "oob": oob, "problem": problem})


def called_trait(ruleset: Ruleset, call: RollCall, character: Character) -> tuple[str, int]:
    """The trait a call names, as this sheet has it (its name and the level rolled), or
    untrained when the sheet lacks it. Reads the sheet's traits as loaded (prefetched)."""
    wanted = call.trait.casefold()
    for trait in character.traits.all():
        if trait.name.casefold() == wanted:
            return trait.name, trait.level + trait.modifier
    return call.trait, checks.untrained_level(ruleset)


def _odds(ruleset: Ruleset, call: RollCall, character: Character) -> float | None:
    """The chance of success of the called trait, with the sheet's standing lines; none when
    the difficulty is hidden (it would tell it) or each picks a trait."""
    if call.hidden_difficulty or not call.trait:
        return None
    name, level = called_trait(ruleset, call, character)
    lines = offered(ruleset, character, name).chosen()
    method = checks.dice_for(ruleset, advantage=call.advantage)
    chance = checks.chance(
        ruleset,
        level=level,
        difficulty=call.difficulty,
        modifiers=[line.amount for line in lines],
        method=method,
    )
    return round(float(chance) * 100, 1)


def calls_for_person(
    campaign: Campaign,
    user_id: int,
    *,
    oob: bool = False,
    problem: str = "",
    request: HttpRequest | None = None,
    only_if_called: bool = False,
) -> str:
    """One player's open calls: their PCs' rows, with the odds and a Roll tap for each not yet
    rolled. Nobody else's sockets get this. ``only_if_called``: "" when there is none."""
    ruleset = campaign_ruleset(campaign)
    mine = []
    for call, called, difficulty in _rows(campaign, open_calls(campaign)):
        rows = [
            Called(c.character, c.roll, None if c.roll else _odds(ruleset, call, c.character))
            for c in called
            if c.character.owner_id == user_id
        ]
        if rows:
            mine.append((call, rows, difficulty))
    if only_if_called and not mine:
        return ""
    context = {"campaign": campaign, "calls": mine, "oob": oob, "problem": problem}
    return render_to_string(f"{TEMPLATE}#mine", context, request=request)
