from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from campaigns.models import Campaign, Membership
from fudgetable.rules import rulesets
from fudgetable.rules.dice import get_method
from fudgetable.rules.rulesets import Ruleset


def memberships_for_user(user: User) -> QuerySet[Membership]:
    """The campaigns a person is at, with their role, for the dashboard."""
    return (
        Membership.objects.filter(user=user)
        .select_related("campaign", "campaign__owner")
        .order_by("campaign__name", "campaign__pk")
    )


def membership_for(user: User | AnonymousUser, campaign_id: int) -> Membership | None:
    if not user.is_authenticated:
        return None
    # A command over a table's socket: the membership its socket holds (rolls.table's
    # ``TakesCommands``), read once and read again after any event that changes it.
    held = vars(user).get("held_membership")
    if held is not None and held.campaign_id == campaign_id and held.user_id == user.pk:
        return held
    # One row by its unique pair: get() builds no ORDER BY, which first() would (every request
    # at the table asks this).
    try:
        return Membership.objects.select_related("campaign").get(
            user_id=user.pk, campaign_id=campaign_id
        )
    except Membership.DoesNotExist:
        return None


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user", "campaign").order_by(
        "role", "user__username"
    )


def campaign_ruleset(campaign: Campaign) -> Ruleset:
    """The rules in force at this campaign: its preset with its stored (checked) overrides."""
    return rulesets.resolve(campaign.ruleset, campaign.overrides)


def campaign_summary(campaign: Campaign) -> list[tuple[str, str]]:
    """The settings a player wants to know at a glance, in words."""
    ruleset = campaign_ruleset(campaign)
    rows = [
        ("Rules", ruleset.label),
        ("Dice", get_method(ruleset.dice).label),
        ("Default difficulty", ruleset.ladder.describe(ruleset.default_difficulty)),
        ("Traits", ", ".join(ruleset.trait_list) or "—"),
    ]
    if ruleset.injury_track:
        fate = "dies" if ruleset.last_box == "dies" else "is incapacitated"
        rows.append(("At the last injury box", f"The character {fate}"))
    if ruleset.wound_track:
        rows.append(("Wounds", ", ".join(level.name for level in ruleset.wound_track.levels)))
    rows.append(("Starting Fudge points", str(ruleset.starting_fudge_points)))
    if ruleset.key == "ezfudge":
        rows.append(("Fudge points to XP", f"{ruleset.fudge_points_per_xp} FP for 1 XP"))
    if ruleset.xp_on_a_miss:
        rows.append(("XP on a miss", "+1 XP for each failed roll"))
    return rows
