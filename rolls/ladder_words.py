"""A log entry's ladder words, said when it is drawn. The snapshot keeps the rules' own names
("result_name": "Good (+1)"), as it keeps every other fact of the roll; the entry shows them in
the campaign's words of the moment (its GM's, else the rules' in the language it is drawn in),
so that a change of words or of language redraws earlier entries too (docs/architecture.md,
"Languages")."""

from typing import Any

from campaigns.selectors import campaign_ladders
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder
from rolls.models import Roll


def in_ladder_words(roll: Roll) -> Any:
    """The roll's snapshot with every ``…_name`` that names a level of the campaign's ladder
    ("level_name", "result_name", "difficulty_name", a side's, a helper's) in its words. A name
    the rules' ladder of today no longer gives for it (an entry made before the ladder changed,
    a wound level's name) is left as it was written."""
    own, worded = campaign_ladders(roll.campaign)
    if own is worded:
        return roll.snapshot
    return _said(roll.snapshot, own, worded)


def _said(value: Any, own: Ladder, worded: Ladder) -> Any:
    if isinstance(value, list):
        return [_said(item, own, worded) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: _renamed(item, own, worded)
        if key.endswith("_name") and isinstance(item, str)
        else _said(item, own, worded)
        for key, item in value.items()
    }


def _renamed(name: str, own: Ladder, worded: Ladder) -> str:
    try:
        level = own.value(name)
    except RulesError:
        return name
    if name == own.describe(level):
        return worded.describe(level)
    if name == own.name(level):
        return worded.name(level)
    return name
