"""The X-card (Fudge Lite's safety tools): any member taps it and every screen at the table
shows that it was tapped. Who tapped it is never asked for, stored, logged or sent: the tap
takes only the campaign, and the banner is one fragment, the same for everyone."""

from django.template.loader import render_to_string
from django.utils import timezone

from campaigns.models import Campaign
from campaigns.selectors import table_language
from fudgetable import live

TEMPLATE = "rolls/x_card/card.html"


def banner(*, oob: bool) -> str:
    return render_to_string(f"{TEMPLATE}#banner", {"tapped": timezone.now(), "oob": oob})


def x_card_tap(*, campaign: Campaign) -> None:
    """Shows the banner on every screen at the table; nothing is written anywhere."""
    # Unnumbered: a tap writes nothing at all, and a screen that missed it has nothing to redo.
    with table_language(campaign):
        html = banner(oob=True)
    live.publish(campaign.pk, "x-card.tapped", everyone=html, numbered=False)
