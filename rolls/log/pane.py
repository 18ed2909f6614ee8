"""The table page's log pane: the newest entries with the newest at the bottom, earlier ones a
page at a time on demand, and what a page back from a drop lacks of it.

A page holds a window of the log: from its first entry to its last. Coming back, it says the
table's number it saw last (``Seen``); every entry that reached screens since carries a higher
number (``Roll.everyone_seq``, ``Roll.gm_seq``), so it gets those and no others: new ones at
the bottom, changed ones in place."""

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q
from django.http import HttpRequest
from django.template.loader import render_to_string

from campaigns.models import Campaign
from fudgetable import entry_ids
from fudgetable.live import Audience
from rolls import fragments, log_selectors
from rolls.models import Roll, Whispered

LOG_PAGE = 20  # entries a table page starts with, and loads at a time going back
TEMPLATE = fragments.TEMPLATE
# Ids in a query string are bounded like the ids in a URL: no more digits than a big int has.
ID_DIGITS = 18


@dataclass(frozen=True)
class Seen:
    """What a page says it shows: the table's number it saw last, and the ids of the first and
    last entries of its log (0: none)."""

    seq: int
    first: int = 0
    last: int = 0
    mine: int = 0  # the person's own number it saw last (``live.person_mark``: whispers)

    @classmethod
    def read(cls, values: Mapping[str, object]) -> "Seen | None":
        """From a page's words (a socket's query string, a catch-up message): the numbers
        whole, the entries by the ids pages show them by (``fudgetable.entry_ids``), "0" for
        none. None for anything else, which the page then gets the table whole for."""
        read = []
        for name in ("since", "first", "last", "mine"):
            value = values.get(name, "0" if name != "since" else None)
            if isinstance(value, int) and not isinstance(value, bool):
                value = str(value)
            if not isinstance(value, str):
                return None
            number = _entry(value) if name in ("first", "last") else _number(value)
            if number is None:
                return None
            read.append(number)
        return cls(*read)


def _number(value: str) -> int | None:
    return int(value) if value.isdigit() and len(value) <= ID_DIGITS else None


def _entry(value: str) -> int | None:
    """An entry a page names, by the id it shows; "0" for none. A database id is never shown,
    so a page naming one is older than the ids and gets the table whole."""
    return 0 if value == "0" else entry_ids.decode(value)


def log_page(
    campaign: Campaign, audience: Audience, *, reader: int | None, before: Roll | None = None
) -> tuple[list[Roll], bool]:
    """Up to a page of the log as ``audience`` reads it (with ``reader``'s whispers), before
    ``before`` (the newest, without it), oldest first; and whether there are earlier ones."""
    rolls = log_selectors.filtered_log(campaign, gm_view=audience == "gm", reader=reader)
    if before is not None:
        at = before.created_at
        rolls = rolls.filter(Q(created_at__lt=at) | Q(created_at=at, pk__lt=before.pk))
    page = list(rolls[: LOG_PAGE + 1])
    return page[:LOG_PAGE][::-1], len(page) > LOG_PAGE


def log_pane(
    campaign: Campaign,
    audience: Audience,
    request: HttpRequest | None = None,
    *,
    reader: int | None,
    oob: bool = False,
) -> tuple[str, frozenset[int]]:
    """The log's newest page as a whole list, and the ids of its entries."""
    rolls, earlier = log_page(campaign, audience, reader=reader)
    entries = fragments.log_entries(campaign, rolls, audience, request)
    html = render_to_string(
        f"{TEMPLATE}#log-replace",
        {
            "campaign": campaign,
            "entries": entries,
            "earlier": rolls[0].pk if earlier else None,
            "oob": oob,
        },
        request=request,
    )
    return html, frozenset(roll.pk for roll in rolls)


def earlier_entries(
    campaign: Campaign, audience: Audience, before: Roll, request: HttpRequest, *, reader: int
) -> str:
    """The page of entries before ``before``, oldest first, led by the way to the page before
    them when there is one: it takes the place of the link that asked for it."""
    rolls, earlier = log_page(campaign, audience, reader=reader, before=before)
    entries = fragments.log_entries(campaign, rolls, audience, request)
    return render_to_string(
        f"{TEMPLATE}#log-earlier",
        {"campaign": campaign, "entries": entries, "earlier": rolls[0].pk if earlier else None},
        request=request,
    )


def entries_since(
    campaign: Campaign, audience: Audience, seen: Seen, *, reader: int
) -> tuple[str, frozenset[int]] | None:
    """What the page that saw ``seen`` lacks of the log: entries new since, at the bottom, and
    entries of its window that changed since, in place; and the whispers to ``reader`` past
    the person's own number it saw. None when more are new than a page starts with: the page
    then gets the log's newest page whole."""
    field = "gm_seq" if audience == "gm" else "everyone_seq"
    whispered = Whispered.objects.filter(entry=OuterRef("pk"), user_id=reader, seq__gt=seen.mine)
    log = log_selectors.filtered_log(campaign, gm_view=audience == "gm", reader=reader)
    rolls = log.filter(Q(**{f"{field}__gt": seen.seq}) | Q(Exists(whispered)), pk__gte=seen.first)
    changed = list(rolls[: LOG_PAGE + 1])
    new = [roll for roll in changed if roll.pk > seen.last]
    if len(changed) > LOG_PAGE:
        return None
    held = [roll for roll in changed if roll.pk <= seen.last]
    html = "".join(fragments.log_entries(campaign, held, audience, oob=True))
    if new:
        appended = fragments.log_entries(campaign, new[::-1], audience)
        html += render_to_string(f"{TEMPLATE}#log-append", {"entries": appended})
    return html, frozenset(roll.pk for roll in changed)
