"""What a sheet page shows its viewer, drawn for a request or for an open copy's socket.

One context for both, so a socket's copy follows the page's own rules: a player's private
notes and the GM's controls reach only the people the page would show them to."""

from typing import Any

from django.contrib.auth.models import User
from django.http import Http404
from django.template.loader import render_to_string

from campaigns.models import Membership
from characters.access import character_or_404, may_edit
from characters.forms import GEAR_PRESETS, ProfileForm
from characters.models import Character
from characters.selectors import sheet_context
from fudgetable.http import new_key

LIVE = "characters/sheet.html#live"


def page_context(
    character: Character, membership: Membership, *, live: bool = False, answer: bool = False
) -> dict[str, Any]:
    """The sheet page's context; ``live``: its live parts alone, each swapped in by id, and
    (``answer``) with the messages of the tap they answer."""
    context = sheet_context(character)
    context.update(
        {
            "campaign": character.campaign,
            "membership": membership,
            "editable": may_edit(membership, character),
            "building": character.stage == Character.Stage.DRAFT or membership.is_gm,
            "gear_presets": GEAR_PRESETS,
            "roll_key": new_key(),
            "profile_form": ProfileForm(instance=character, initial={"version": character.version}),
            "live": live,
            "answer": answer,
        }
    )
    return context


def live_parts(user: User, campaign_id: int, character_id: int, *, csrf_secret: str) -> str:
    """The sheet's live parts (points, what rolls take, traits, tracks) as ``user`` may see
    them now, for their open copy's socket; nothing for whom the page would refuse, or show
    only an NPC's public face. ``csrf_secret`` is the browser's CSRF cookie, which Django
    takes as a token as it stands (htmx sends the page's token in a header besides)."""
    try:
        membership, character = character_or_404(user, campaign_id, character_id)
    except Http404:
        return ""
    if character.is_npc and not membership.is_gm:
        return ""
    context = page_context(character, membership, live=True)
    context["csrf_token"] = csrf_secret
    return render_to_string(LIVE, context)
