"""A contest of many: three or more sides, each rolling its own result, ranked against each
other.

Seeds: Peupfudge 2 (peupfudge-2022-draft.txt :73): "during a race between multiple characters
... compare L + A + R for each character to determine their performance relative to one
another ... When the L + A + R of multiple characters is equal, this should be interpreted as a
tie rather than as a success for any of the tied characters"; its Example 4 (:189-203), the
race out of the cave. Fudge 1995 3.5 only notes that an opposed action may involve more than
two characters (its Section 4.34, not among the seeds).

The best result wins. When the best result is shared, the ruleset's reading of a tie in a
contest decides, read for a race where every side is acting: a tie (Peupfudge, Fate), a draw
(EZFudge) or the status quo (Fudge 1995) leaves nobody the winner; "the one acting succeeds"
(Fudge Lite) makes each tied leader a winner; "the one acting fails" makes none. Minimum
results and criticals, which read one side against one other, are not applied.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from fudgetable.rules.errors import RulesError
from fudgetable.rules.resolution.action import (
    PLAIN_OPPOSED_RULES,
    ActionRules,
    Outcome,
    Side,
    SideResult,
)
from fudgetable.rules.words import gettext_noop


@dataclass(frozen=True)
class ManyOutcome:
    """A contest of many, settled. Sides keep the order they were given in."""

    sides: tuple[SideResult, ...]
    ranking: tuple[tuple[int, ...], ...]  # side indices with equal results, best first
    outcome: Outcome  # SUCCESS when someone wins; else the ruleset's reading of the tie
    winners: tuple[int, ...]  # indices of the sides that win (none on a tie)
    lead: int  # the best result over the next best (0: the best is shared)
    rules: ActionRules

    @property
    def leaders(self) -> tuple[int, ...]:
        return self.ranking[0]

    def place(self, index: int) -> int:
        """A side's place, 1 for the best; equal results share a place ("1, 1, 3")."""
        ahead = 0
        for group in self.ranking:
            if index in group:
                return ahead + 1
            ahead += len(group)
        raise RulesError("index", gettext_noop("no side %(index)s in this contest"), index=index)

    @property
    def in_order(self) -> tuple[int, ...]:
        """Every side's index, best first; sides with equal results in the order given."""
        return tuple(index for group in self.ranking for index in group)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sides": [side.to_dict() for side in self.sides],
            "ranking": [list(group) for group in self.ranking],
            "outcome": self.outcome.value,
            "winners": list(self.winners),
            "lead": self.lead,
            "rules": self.rules.to_dict(),
        }


def resolve_many(sides: Sequence[Side], rules: ActionRules = PLAIN_OPPOSED_RULES) -> ManyOutcome:
    """Each side's result (level + modifiers + roll, as the ruleset combines and clamps them),
    ranked; the winner, or what a shared best result comes to under ``rules.tie``."""
    if len(sides) < 2:
        raise RulesError("sides", gettext_noop("a contest needs at least two sides"))
    results = tuple(side.settle(rules, f"sides[{index}].") for index, side in enumerate(sides))
    levels = sorted({result.result for result in results}, reverse=True)
    ranking = tuple(
        tuple(index for index, result in enumerate(results) if result.result == level)
        for level in levels
    )
    lead = levels[0] - levels[1] if len(ranking) > 1 and len(ranking[0]) == 1 else 0
    if len(ranking[0]) == 1 or rules.tie is Outcome.SUCCESS:
        outcome, winners = Outcome.SUCCESS, ranking[0]
    else:
        outcome, winners = rules.tie, ()
    return ManyOutcome(results, ranking, outcome, winners, lead, rules)
