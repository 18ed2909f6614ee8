"""The odds shown before a roll: the exact chance of what the roller hopes for and a small chart
of every way it can land, for a check, an opposed roll and a situational or reaction roll."""

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.models import Trait
from fudgetable.rules import checks
from fudgetable.rules.dice import DeckState
from fudgetable.rules.resolution import Outcome
from fudgetable.rules.rulesets import Ruleset

CHART_WIDTH, CHART_HEIGHT = 280, 80


def _bars(
    chances: Mapping[int, Fraction], succeeds: Callable[[int], bool], label: Callable[[int], str]
) -> dict[str, Any]:
    """The chart: one bar per value, coloured by whether it is what the roller hopes for."""
    tallest = max(chances.values())
    width = CHART_WIDTH / len(chances)
    bars = []
    for index, (value, p) in enumerate(sorted(chances.items())):
        height = round(float(p / tallest) * (CHART_HEIGHT - 14), 1)
        bars.append(
            {
                "label": label(value),
                "percent": round(float(p) * 100, 1),
                "x": round(index * width, 1),
                "y": round(CHART_HEIGHT - 14 - height, 1),
                "width": round(width - 2, 1),
                "height": height,
                "succeeds": succeeds(value),
            }
        )
    return {"bars": bars, "chart_width": CHART_WIDTH, "chart_height": CHART_HEIGHT}


def _headline(chance: Fraction, words: str) -> dict[str, Any]:
    return {"chance": chance, "chance_percent": round(float(chance) * 100, 1), "odds_words": words}


def odds_context(membership: Membership, level: int, data: dict[str, Any]) -> dict[str, Any]:
    """A trait check against its difficulty: the chance of success and of each margin."""
    ruleset = campaign_ruleset(membership.campaign)
    difficulty = (
        ruleset.default_difficulty if data.get("difficulty") is None else data["difficulty"]
    )
    method = checks.dice_for(
        ruleset, advantage=data.get("advantage") or 0, disadvantage=data.get("disadvantage") or 0
    )
    modifiers = data.get("modifiers") or ()
    if method == "deck":
        # The table's deck remembers: the odds are those of what is left in its pile.
        stored = membership.campaign.deck
        deck = DeckState.from_dict(stored) if stored else None
        margins = checks.deck_margins(
            ruleset, deck, level=level, difficulty=difficulty, modifiers=modifiers
        )
    else:
        margins = checks.margins(
            ruleset, level=level, difficulty=difficulty, modifiers=modifiers, method=method
        )
    rules = ruleset.static_rules
    words = gettext("to succeed against %(difficulty)s") % {
        "difficulty": ruleset.ladder.describe(difficulty)
    }
    if data.get("helped_by"):
        words += gettext(", with %(helper)s") % {"helper": data["helped_by"]}
    return {
        **_headline(checks.chance_of_margins(ruleset, margins), words),
        **_bars(
            margins,
            lambda margin: rules.outcome(margin) is Outcome.SUCCESS,
            lambda margin: gettext("margin %(margin)s") % {"margin": f"{margin:+d}"},
        ),
    }


def contest_context(
    ruleset: Ruleset,
    level: int,
    opposing: Trait,
    modifiers: Sequence[int],
    opponent_modifiers: Sequence[int],
    *,
    minimum: int | None = None,
    helped_by: str = "",
) -> dict[str, Any]:
    """An opposed roll: the chance of winning and of each relative degree, with the NPC's
    side rolled by the campaign's NPC roll mode. A minimum result (F95 3.5) counts in the
    chance of winning; the chart of degrees cannot show it, so the words say how often the
    roller reaches it."""
    odds = checks.contest_odds(
        ruleset,
        active_level=level,
        passive_level=opposing.level + opposing.modifier,
        active_modifiers=modifiers,
        passive_modifiers=opponent_modifiers,
        passive_is_npc=opposing.character.is_npc,
        minimum=minimum,
    )
    words = gettext("to win against %(name)s (%(trait)s)") % {
        "name": opposing.character.name,
        "trait": opposing.name,
    }
    if helped_by:
        words += gettext(", with %(helper)s") % {"helper": helped_by}
    if minimum is not None and odds.reaches_minimum is not None:
        reach = round(float(odds.reaches_minimum) * 100, 1)
        words += gettext(", needing at least %(minimum)s, reached %(reach)s%% of the time") % {
            "minimum": ruleset.ladder.describe(minimum),
            "reach": reach,
        }
    return {
        **_headline(odds.chance, words),
        **_bars(
            odds.degrees,
            lambda degree: ruleset.opposed_rules.outcome(degree) is Outcome.SUCCESS,
            lambda degree: gettext("by %(degree)s") % {"degree": f"{degree:+d}"},
        ),
    }


def reading_context(ruleset: Ruleset, modifiers: Sequence[int], *, npc_reaction: bool) -> dict:
    """A situational or reaction roll: the chance of each result, and of each reaction."""
    results = checks.reading_odds(ruleset, modifiers=modifiers)
    describe = ruleset.ladder.describe
    context: dict[str, Any] = {"odds_words": gettext("Each result, read from Fair")}
    if npc_reaction:
        bands = checks.reaction_odds(ruleset, modifiers=modifiers)
        context["bands"] = [
            (band.replace("-", " "), round(float(p) * 100, 1)) for band, p in bands.items()
        ]
        context["odds_words"] = gettext("Each reaction")
    fair = checks.FAIR_ON_THE_STANDARD_LADDER  # a reaction is good above Fair (F95 3.7)
    return {**context, **_bars(results, lambda result: result > fair, describe)}
