"""What a change to a sheet pushes: the party strip at the table, to each audience, and its
live parts to every open copy of that sheet. Services that change a sheet's vitals from elsewhere
(a roll's spend, a fight's wound, a session's XP) and the sheet's own commands call it."""

from collections.abc import Mapping

from django.db import transaction

from campaigns.models import Campaign
from campaigns.selectors import table_language
from characters import signals
from characters.models import Character
from characters.party import party_rows, party_strip
from characters.sheet_news import tell_player
from characters.sheet_page import Audience, Parts
from fudgetable import live


def sheet_changed(
    character: Character,
    *,
    party: bool = True,
    drawn: Mapping[Audience, Parts] | None = None,
    told: str = "",
    by: int | None = None,
) -> None:
    """The sheet changed: its open copies get its live parts (``drawn`` for some audiences
    already; the others' copies draw their own), and (unless the caller redraws it once for
    many sheets) the party strip is redrawn. An NPC that players have not met changes
    nothing they can see, so they get no frame. ``told``: the change in words, for the PC's
    player when someone else (``by``; None: the table itself) made it (``sheet_news``)."""
    players = not character.is_npc or character.revealed
    parts = {str(name): drawing.to_dict() for name, drawing in (drawn or {}).items()}
    live.sheet_changed(character.campaign_id, character.pk, players=players, parts=parts)
    signals.sheet_changed.send(sender=Character, character=character)
    if party:
        party_changed(character.campaign, players=not character.is_npc)
    tell_player(character, actor_id=by, what=told)


def party_changed(campaign: Campaign, *, players: bool = True) -> None:
    """Redraws the party strip at the table once the change commits. Players' strip shows
    only PCs, so an NPC's change sends them nothing."""

    def push() -> None:
        rows = party_rows(campaign, gm_view=True)
        with table_language(campaign):
            everyone = party_strip(campaign, "everyone", oob=True, rows=rows) if players else None
            gm = party_strip(campaign, "gm", oob=True, rows=rows)
        live.publish(campaign.pk, "party.changed", everyone=everyone, gm=gm)

    # Drawn after the commit, so the strip shows what was saved, not what was being saved.
    transaction.on_commit(push)


def fighters_changed(character: Character) -> None:
    """A sheet's traits or weapons changed, or a sheet was made: the table's fight pickers are
    drawn again (``rolls.fight.pushes``; ``characters`` may not draw the table itself)."""
    signals.fighters_changed.send(sender=Character, character=character)
