"""Campaign-wide character settings: EZFudge people packages and Peupfudge ability marks."""

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.models import (
    AbilityMarks,
    PeoplePackage,
)
from fudgetable.rules.character import ATTRIBUTE_NAMES
from fudgetable.rules.errors import RulesError

# --- people packages and ability marks (campaign-wide, GM only) ----------------------------

PACKAGE_KINDS = ("role", "attribute", "gift", "fault")


def people_package_changes(*, campaign: Campaign, text: str) -> list[dict[str, object]]:
    """Reads the package form's lines; a bad line raises RulesError naming its number."""
    ladder = campaign_ruleset(campaign).ladder
    changes: list[dict[str, object]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        line = line.strip()
        if not line:
            continue
        kind, _, rest = line.partition(" ")
        kind = kind.lower()
        where = f"changes line {number}"
        if kind not in PACKAGE_KINDS:
            raise RulesError(
                where, gettext("starts with one of %(kinds)s") % {"kinds": ", ".join(PACKAGE_KINDS)}
            )
        if kind in ("gift", "fault"):
            name, level = rest.strip(), 0
        else:
            name, _, rung = rest.partition("=")
            name = name.strip()
            level = ladder.value(rung.strip() or "?", where)
            if kind == "attribute" and name not in ATTRIBUTE_NAMES:
                raise RulesError(
                    where,
                    gettext("attributes are %(names)s") % {"names": ", ".join(ATTRIBUTE_NAMES)},
                )
        if not name or len(name) > 80:
            raise RulesError(where, gettext("needs a name of 1 to 80 characters"))
        changes.append({"kind": kind, "name": name, "level": level})
    if not changes:
        raise RulesError("changes", gettext("a package changes at least one thing"))
    return changes


@transaction.atomic
def people_package_save(
    *, campaign: Campaign, name: str, description: str, points: int, changes_text: str
) -> PeoplePackage:
    changes = people_package_changes(campaign=campaign, text=changes_text)
    package, _ = PeoplePackage.objects.update_or_create(
        campaign=campaign,
        name=name,
        defaults={"description": description, "points": points, "changes": changes},
    )
    return package


def people_package_delete(*, package: PeoplePackage) -> None:
    package.delete()


def ability_marks_set(
    *, campaign: Campaign, ability: str, poor: int, decent: int, great: int
) -> AbilityMarks:
    marks, _ = AbilityMarks.objects.update_or_create(
        campaign=campaign,
        ability=ability,
        defaults={"poor": poor, "decent": decent, "great": great},
    )
    return marks


def ability_marks_delete(*, marks: AbilityMarks) -> None:
    marks.delete()
