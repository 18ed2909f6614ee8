"""The table's page: everything a person at the table sees when it opens, for their role."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_safe

from campaigns.access import membership_or_404
from campaigns.models import Membership
from campaigns.selectors import campaign_ladder, campaign_ruleset
from characters.models import Character
from characters.party import party_strip
from fudgetable import live
from fudgetable.http import AuthenticatedHttpRequest, new_key
from fudgetable.live import audience_of
from rolls import fragments, selectors
from rolls.calls.fragments import call_list, calls_for_person
from rolls.fight.defend_cards import cards_for
from rolls.log import pane as table_log
from rolls.quick_rolls import quick_rolls
from rolls.scene.fragments import scene_parts
from rolls.table import layout as table_layout
from rolls.talk.views import composer_context


def _table_context(request: AuthenticatedHttpRequest, membership: Membership) -> dict[str, object]:
    campaign = membership.campaign
    ruleset = campaign_ruleset(campaign)
    ladder = campaign_ladder(campaign)
    audience = audience_of(membership)
    rollable = selectors.rollable(membership).prefetch_related("traits")
    if not membership.is_gm:  # a player's own PCs, whose traits are their quick rolls
        rollable = rollable.prefetch_related("features", "details")
    characters = list(rollable)
    tools = table_layout.tools(membership, ruleset)
    return {
        "campaign": campaign,
        "membership": membership,
        "ruleset": ruleset,
        "characters": characters,
        "trait_names": sorted({t.name for c in characters for t in c.traits.all()}),
        "coincidence_pcs": [c for c in characters if not c.is_npc]
        if "coincidence" in ruleset.fudge_point_uses
        else [],
        "opponents": list(selectors.opponents(membership).prefetch_related("traits")),
        "difficulties": [
            (value, ladder.describe(value))
            for value in range(ruleset.default_difficulty - 4, ruleset.default_difficulty + 5)
        ],
        "key": new_key(),
        "session": selectors.latest_session(campaign),
        "session_form": fragments.session_end_form(campaign, ruleset) if membership.is_gm else None,
        # Read before the state it numbers: an event after it is one the page may lack.
        "seq": live.current_seq(campaign.pk, audience),
        "mine": live.current_person_seq(campaign.pk, membership.user_id),  # whispers: the same
        "log": table_log.log_pane(campaign, audience, request, reader=membership.user_id)[0],
        "present": selectors.present_usernames(campaign.pk),
        "party_strip": party_strip(campaign, audience),
        "my_calls": calls_for_person(campaign, membership.user_id, request=request),
        "call_list": call_list(campaign) if membership.is_gm else "",
        "attacks": cards_for(membership, request=request),
        "pcs": [c for c in characters if not c.is_npc] if membership.is_gm else [],
        "gm_moves": campaign.gm_moves,
        "quick_rolls": [] if membership.is_gm else quick_rolls(ruleset, characters, ladder),
        "default_difficulty_name": ladder.describe(ruleset.default_difficulty),
        "tools": tools,
        "tool_keys": {tool.key for tool in tools},
        "views": table_layout.views(membership),
        "places": table_layout.places(membership),
        "my_sheet": _my_sheet(membership, characters),
        **composer_context(membership),
        "scene": scene_parts(membership, oob=False, request=request),
    }


def _my_sheet(membership: Membership, characters: list[Character]) -> dict[str, str] | None:
    """A player's way to their sheet from the table, or to making one."""
    if membership.role != Membership.Role.PLAYER:
        return None
    pcs = [c for c in characters if not c.is_npc]
    if pcs:
        url = reverse("characters:sheet", args=[membership.campaign_id, pcs[0].pk])
        return {"url": url, "label": gettext("Sheet"), "long": gettext("Your sheet")}
    url = reverse("characters:create", args=[membership.campaign_id])
    return {"url": url, "label": gettext("New PC"), "long": gettext("Make your character")}


@require_safe
@login_required
def table(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    membership = membership_or_404(request.user, campaign_id)
    return render(request, "rolls/table.html", _table_context(request, membership))
