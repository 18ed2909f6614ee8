"""The table's fragments, rendered once per audience and pushed or served as they are."""

from typing import Literal

from django.template.loader import render_to_string

from campaigns.models import Campaign, Membership
from rolls import selectors
from rolls.models import Roll

Audience = Literal["everyone", "gm"]
TEMPLATE = "rolls/table.html"


def roll_entry(roll: Roll, audience: Audience, *, oob: bool = False) -> str:
    """One log entry; ``oob`` makes it replace the entry already on the page (a GM's note).
    The snapshot holds the ladder words as they were, so no ruleset is needed here."""
    return render_to_string(
        f"{TEMPLATE}#entry", {"roll": roll, "gm_view": audience == "gm", "oob": oob}
    )


def roll_entries(roll: Roll) -> dict[Audience, str]:
    """The new entry as each audience sees it, wrapped to be added at the top of the log."""
    return {
        audience: render_to_string(f"{TEMPLATE}#log-prepend", {"entry": roll_entry(roll, audience)})
        for audience in ("everyone", "gm")
    }


def session_status(campaign: Campaign, audience: Audience) -> str:
    gm_view = audience == "gm"
    return render_to_string(
        f"{TEMPLATE}#session",
        {
            "campaign": campaign,
            "session": selectors.latest_session(campaign),
            "gm_view": gm_view,
            "session_pcs": selectors.player_characters(campaign) if gm_view else [],
            "oob": True,
        },
    )


def session_statuses(campaign: Campaign) -> dict[Audience, str]:
    return {audience: session_status(campaign, audience) for audience in ("everyone", "gm")}


def presence(campaign_id: int) -> str:
    return render_to_string(
        f"{TEMPLATE}#presence",
        {"present": selectors.present_usernames(campaign_id), "oob": True},
    )


def table_state(membership: Membership) -> str:
    """Everything a socket needs on (re)connect: session, the whole recent log, who is here."""
    campaign = membership.campaign
    audience: Audience = "gm" if membership.is_gm else "everyone"
    rolls = selectors.roll_log(campaign)[: selectors.LOG_LENGTH]
    entries = [roll_entry(roll, audience) for roll in rolls]
    log = render_to_string(f"{TEMPLATE}#log-replace", {"entries": entries, "oob": True})
    return session_status(campaign, audience) + log + presence(campaign.pk)


def roll_summary(roll: Roll) -> str:
    """One line for the roller's own screen (the sheet), from the roll's snapshot."""
    s = roll.snapshot
    line = f"{roll.label}: {' '.join(s['shown'])} → {s['result_name']}"
    if "difficulty_name" in s:
        line += f" vs {s['difficulty_name']}: {s['outcome']}, margin {s['margin']:+d}"
        if s.get("degree"):
            line += f" ({s['degree']})"
    return line
