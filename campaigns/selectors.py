import json
from functools import lru_cache

from django.conf import settings
from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet
from django.utils import translation
from django.utils.translation import gettext

from campaigns.models import Campaign, Membership, Profile
from fudgetable.rows import row
from fudgetable.rules import rulesets
from fudgetable.rules.dice import get_method
from fudgetable.rules.ladder import Ladder, worded
from fudgetable.rules.rulesets import Ruleset
from fudgetable.rules_words import said


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
    # Every request at the table asks this: one statement, by keys (fudgetable.rows).
    return row(
        Membership,
        "main.user_id = %s AND main.campaign_id = %s",
        [user.pk, campaign_id],
        joined=["campaign"],
    )


def members_of(campaign: Campaign) -> QuerySet[Membership]:
    return campaign.memberships.select_related("user", "campaign").order_by(
        "role", "user__username"
    )


def campaign_language(campaign: Campaign) -> str:
    """The language the table's pushed fragments are rendered in, for everyone at it: render
    each once per audience under ``translation.override(campaign_language(campaign))``."""
    return campaign.language or settings.LANGUAGE_CODE


def table_language(campaign: Campaign | int) -> translation.override:
    """``with table_language(campaign):`` what is drawn once for everyone at the table (its
    pushes, a socket's catch-up, the log's entries on the table page, the webhook's words) is
    drawn in the table's language, whoever's command or thread draws it. ``campaign`` may be
    an id, where only that is at hand (one query; a campaign deleted meanwhile: the default)."""
    if isinstance(campaign, int):
        rows = Campaign.objects.filter(pk=campaign).values_list("language", flat=True)
        return translation.override(rows.first() or settings.LANGUAGE_CODE)
    return translation.override(campaign_language(campaign))


def person_language(user: User) -> str:
    """The language ``user`` chose on the Account page, "" for their browser's."""
    language = Profile.objects.filter(user=user).values_list("language", flat=True).first()
    return language or ""


def campaign_ruleset(campaign: Campaign) -> Ruleset:
    """The rules in force at this campaign: its preset with its stored (checked) overrides."""
    return _resolved(campaign.ruleset, json.dumps(campaign.overrides, sort_keys=True))


@lru_cache(maxsize=256)
def _resolved(ruleset: str, overrides: str) -> Ruleset:
    # Kept by what it is made from (the rules are frozen): a roll asks for them three times.
    return rulesets.resolve(ruleset, json.loads(overrides))


def campaign_ladder(campaign: Campaign) -> Ladder:
    """The campaign's ladder in words, for people to read and type: each rung in the GM's word
    for it (Settings), else in the rules' word said in the active language, which is the
    table's for what is pushed and the reader's own on their pages. The rules' English names,
    and the words of the table's language, still read back ("/r Athletics vs Good")."""
    return campaign_ladders(campaign)[1]


def campaign_ladders(campaign: Campaign) -> tuple[Ladder, Ladder]:
    """The rules' own ladder, in their English names, and ``campaign_ladder``: a record that
    holds the rules' names (a log entry's snapshot) is said again in the campaign's words."""
    return _worded_ladder(
        campaign.ruleset,
        json.dumps(campaign.overrides, sort_keys=True),
        json.dumps(campaign.ladder_words or {}, sort_keys=True),
        translation.get_language() or settings.LANGUAGE_CODE,
        campaign_language(campaign),
    )


def ladder_word(campaign: Campaign, level: int) -> str:
    """The name of ``level`` on the campaign's ladder: "Bom", "Superb +2" ("-1" on a ladder of
    plain numbers)."""
    return campaign_ladder(campaign).name(level)


@lru_cache(maxsize=256)
def _worded_ladder(
    ruleset: str, overrides: str, words: str, language: str, table_language: str
) -> tuple[Ladder, Ladder]:
    # Kept by what it is made from: a log page names hundreds of levels with one ladder.
    ladder = rulesets.resolve(ruleset, json.loads(overrides)).ladder
    own = [rung.name for rung in (*ladder.rungs, *ladder.aliases)]
    with translation.override(language):
        said = {name: gettext(name) for name in own}
    with translation.override(table_language):
        at_the_table = {name: gettext(name) for name in own}
    in_words = worded(ladder, json.loads(words), said, at_the_table)
    # The same ladder when its words are its own (English, no GM's words): then a log entry's
    # names need no saying again (rolls.ladder_words).
    return ladder, ladder if in_words == ladder else in_words


def campaign_summary(campaign: Campaign) -> list[tuple[str, str]]:
    """The settings a player wants to know at a glance, in words."""
    ruleset = campaign_ruleset(campaign)
    rows = [
        (gettext("Rules"), said(ruleset.label)),
        (gettext("Dice"), said(get_method(ruleset.dice).label)),
        (
            gettext("Default difficulty"),
            campaign_ladder(campaign).describe(ruleset.default_difficulty),
        ),
        (gettext("Traits"), ", ".join(ruleset.trait_list) or "—"),
    ]
    if ruleset.injury_track:
        fate = (
            gettext("The character dies")
            if ruleset.last_box == "dies"
            else gettext("The character is incapacitated")
        )
        rows.append((gettext("At the last injury box"), fate))
    if ruleset.wound_track:
        levels = ", ".join(level.name for level in ruleset.wound_track.levels)
        rows.append((gettext("Wounds"), levels))
    rows.append((gettext("Starting Fudge points"), str(ruleset.starting_fudge_points)))
    if ruleset.key == "ezfudge":
        per_xp = gettext("%(points)s FP for 1 XP") % {"points": ruleset.fudge_points_per_xp}
        rows.append((gettext("Fudge points to XP"), per_xp))
    if ruleset.xp_on_a_miss:
        rows.append((gettext("XP on a miss"), gettext("+1 XP for each failed roll")))
    return rows
