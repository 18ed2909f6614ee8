"""What a table socket sends on (re)connect, and when a page asks to catch up: the table as it
stands, or, for a page that says what it saw (``table_log.Seen``), only what it lacks."""

from campaigns.models import Membership
from campaigns.selectors import table_language
from characters.party import party_strip
from fudgetable.live import audience_of
from rolls import fragments
from rolls.calls.fragments import call_list, calls_for_person
from rolls.challenges.fragments import challenge_list
from rolls.countdowns.fragments import countdown_list
from rolls.fight.defend_cards import cards_for
from rolls.fight.pushes import fight_pickers
from rolls.log import pane as table_log
from rolls.scene.fragments import scene_state
from rolls.spotlight import services as spotlight


def table_state(
    membership: Membership, *, seq: int, mine: int = 0, seen: table_log.Seen | None = None
) -> tuple[str, frozenset[int]]:
    """The table for a socket whose page saw ``seen`` (None: nothing, or nothing it can say),
    with the table at ``seq``; and the ids of the log's entries in it, which the socket must
    not add a second time.

    A page that saw the table at ``seq`` gets only who is here, its person's own calls for
    a roll (a player's calls reach them alone, unnumbered) and the attacks waiting for a
    defence that they see, if it also saw its person's own
    number at ``mine`` (their whispers). One that saw an earlier number gets
    every part but the log again (each a few rows) and only the entries it lacks of the log;
    a page that saw nothing, or a number the table never reached, gets the table whole.

    It goes to one socket, but it is the table as everyone at it reads it, so it is drawn in
    the table's language, as its pushes are."""
    with table_language(membership.campaign):
        return _table_state(membership, seq=seq, mine=mine, seen=seen)


def _table_state(
    membership: Membership, *, seq: int, mine: int, seen: table_log.Seen | None
) -> tuple[str, frozenset[int]]:
    campaign = membership.campaign
    audience = audience_of(membership)
    personal = calls_for_person(campaign, membership.user_id, oob=True)
    # An attack waiting for its defence: the player's own, numbered in their own count, and
    # the GMs' (a few rows): both always, as a call is.
    personal += cards_for(membership, oob=True)
    here = fragments.presence(campaign)
    reader = membership.user_id
    if seen is not None and seen.seq == seq and seen.mine == mine:
        return here + personal, frozenset()
    log = None
    if seen is not None and seen.seq <= seq and seen.mine <= mine:
        log = table_log.entries_since(campaign, audience, seen, reader=reader)
    if log is None:
        log = table_log.log_pane(campaign, audience, reader=reader, oob=True)
    state = fragments.session_status(campaign, audience) + log[0] + here
    state += spotlight.connect_fragments(membership)
    state += party_strip(campaign, audience, oob=True)
    # A call survives a reconnect: the GMs' card, and this person's own calls.
    if audience == "gm":
        state += call_list(campaign, oob=True)
        # The fight's pickers as the sheets now stand: a change missed while away shows.
        state += fight_pickers(campaign)
    state += personal
    state += countdown_list(campaign, audience, oob=True)
    state += challenge_list(campaign, audience, oob=True)
    state += scene_state(membership)
    return state, log[1]
