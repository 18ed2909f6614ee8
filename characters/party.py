"""The party strip at the table: every PC's vitals at a glance (track boxes and the penalty in
force, Fudge points, XP, statuses), and for GMs the NPCs in play (any box marked). Pushed
again whenever a sheet changes (``live_sheets``)."""

from dataclasses import dataclass

from django.template.loader import render_to_string

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.models import Character
from characters.selectors import standing_lines, track_views
from fudgetable.live import Audience
from fudgetable.rules_words import said


@dataclass(frozen=True)
class TrackSummary:
    name: str
    marked: int
    boxes: int
    consequence: str


@dataclass(frozen=True)
class PartyRow:
    character: Character
    tracks: tuple[TrackSummary, ...]
    lines: tuple[str, ...]  # what the sheet adds to every roll, in words ("Injury: Hurt -1")
    no_action: str


def party_rows(campaign: Campaign, *, gm_view: bool) -> list[PartyRow]:
    ruleset = campaign_ruleset(campaign)
    characters = (
        Character.objects.filter(campaign=campaign)
        .select_related("owner")
        .prefetch_related("details")
        .order_by("kind", "name", "pk")
    )
    if not gm_view:
        characters = characters.filter(kind=Character.Kind.PC)
    rows = []
    for character in characters:
        summaries = tuple(
            TrackSummary(view.name, view.marked, view.size, view.consequence)
            for _, view in track_views(character, ruleset)
        )
        if character.is_npc and not any(summary.marked for summary in summaries):
            continue  # an NPC comes into play when it takes its first box
        offered = standing_lines(character, ruleset)
        lines = tuple(
            f"{said(line.name)} {line.amount:+d}" for line in offered.lines if not line.situational
        )
        rows.append(PartyRow(character, summaries, lines, offered.no_action))
    return rows


def party_strip(
    campaign: Campaign, audience: Audience, *, oob: bool = False, rows: list[PartyRow] | None = None
) -> str:
    """The strip for ``audience``; ``rows``: the GMs' rows, read once for both audiences
    (players see the PCs among them)."""
    gm_view = audience == "gm"
    if rows is None:
        rows = party_rows(campaign, gm_view=gm_view)
    elif not gm_view:
        rows = [row for row in rows if not row.character.is_npc]
    context = {"campaign": campaign, "party": rows, "gm_view": gm_view, "oob": oob}
    return render_to_string("characters/party.html#strip", context)
