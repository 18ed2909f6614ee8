"""The odds shown before a roll: the exact chance of success and a small chart of margins."""

from typing import Any

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from fudgetable.rules import checks

CHART_WIDTH, CHART_HEIGHT = 280, 80


def odds_context(membership: Membership, level: int, data: dict[str, Any]) -> dict[str, Any]:
    ruleset = campaign_ruleset(membership.campaign)
    difficulty = (
        ruleset.default_difficulty if data.get("difficulty") is None else data["difficulty"]
    )
    method = checks.dice_for(
        ruleset, advantage=data.get("advantage") or 0, disadvantage=data.get("disadvantage") or 0
    )
    modifiers = data.get("modifiers") or ()
    chance = checks.chance(
        ruleset, level=level, difficulty=difficulty, modifiers=modifiers, method=method
    )
    margins = checks.margins(
        ruleset, level=level, difficulty=difficulty, modifiers=modifiers, method=method
    )
    tallest = max(margins.values())
    width = CHART_WIDTH / len(margins)
    bars = [
        {
            "margin": margin,
            "percent": round(float(p) * 100, 1),
            "x": round(index * width, 1),
            "width": round(width - 2, 1),
            "height": round(float(p / tallest) * (CHART_HEIGHT - 14), 1),
            "succeeds": margin > 0 or (margin == 0 and ruleset.static_rules.tie.value == "success"),
        }
        for index, (margin, p) in enumerate(sorted(margins.items()))
    ]
    for bar in bars:
        bar["y"] = round(CHART_HEIGHT - 14 - bar["height"], 1)
    return {
        "chance": chance,
        "chance_percent": round(float(chance) * 100, 1),
        "difficulty_name": ruleset.ladder.describe(difficulty),
        "bars": bars,
        "chart_width": CHART_WIDTH,
        "chart_height": CHART_HEIGHT,
    }
