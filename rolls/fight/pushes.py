"""What a change to a sheet brings the GMs' open fight panel: its pickers (who fights, with
which trait and weapon) drawn again and pushed, so a bow added on a sheet can be shot at
once, without a reload.

Only GMs see the fight panel, and its pickers name every NPC, those the players have not met
too: the push goes to the GMs' sockets alone (``everyone=None``), never to players."""

from django.db import transaction
from django.template.loader import render_to_string

from campaigns.models import Campaign
from campaigns.selectors import campaign_ladder, campaign_ruleset, table_language
from characters.models import Character
from characters.signals import fighters_changed, npc_shown_changed
from fudgetable import live
from fudgetable.rules import fight as rules
from rolls.fight.selectors import fighter_choices

PICKERS = "rolls/fight/panel.html#pickers"


def fight_pickers(campaign: Campaign) -> str:
    """The fight panel's pickers as GMs see them, each to be swapped in by its id; nothing
    at a table without a wound track, which has no fight panel."""
    ruleset = campaign_ruleset(campaign)
    if ruleset.wound_track is None:
        return ""
    fight = {
        "fighters": fighter_choices(campaign.pk, ruleset),
        "sides": (rules.ATTACKER, rules.DEFENDER),
        "untrained": campaign_ladder(campaign).describe(rules.POOR),
    }
    return render_to_string(PICKERS, {"fight": fight, "oob": True})


def pickers_changed(campaign: Campaign) -> None:
    """Pushes the pickers to the table's GMs once the change commits, drawn from what was
    saved."""

    def push() -> None:
        with table_language(campaign):
            html = fight_pickers(campaign)
        if html:
            live.publish(campaign.pk, "fight.pickers", everyone=None, gm=html)

    transaction.on_commit(push)


def _sheet_changed(sender: object, *, character: Character, **kwargs: object) -> None:
    pickers_changed(character.campaign)


def _npc_shown_changed(sender: object, *, npc: Character, **kwargs: object) -> None:
    pickers_changed(npc.campaign)  # the pickers say which NPCs are hidden from the players


def connect() -> None:
    """Has the fight panel hear of a sheet's change (``characters.signals``)."""
    fighters_changed.connect(_sheet_changed, dispatch_uid="fight-pickers")
    npc_shown_changed.connect(_npc_shown_changed, dispatch_uid="fight-pickers-shown")
