"""What a sheet page shows its viewer, drawn for a request or for an open copy's socket.

One context for both, so a socket's copy follows the page's own rules: a player's private
notes and the GM's controls reach only the people the page would show them to.

A change's live parts are drawn once for an audience (the GMs, the PC's player, the rest of
the table) and made each copy's own by swapping in its roll key and its CSRF token
(``Parts.for_copy``): the change's request draws the GMs' and pushes them before it draws
its own answer; the other copies draw their own."""

from dataclasses import dataclass
from typing import Any, Literal

from django.contrib.auth.models import User
from django.http import Http404
from django.template.loader import render_to_string
from django.urls import reverse

from campaigns.models import Membership
from characters.access import character_or_404, may_edit
from characters.forms import GEAR_PRESETS, ProfileForm
from characters.models import Character
from characters.selectors import sheet_context
from fudgetable.http import new_key

LIVE = "characters/sheet.html#live"
MESSAGES = "characters/sheet.html#sheet_messages"
CSRF = "csrf-token-of-this-copy"  # stands in for each copy's own token until ``for_copy``
Audience = Literal["gm", "player", "table"]


@dataclass(frozen=True)
class Parts:
    """The live parts as drawn for one audience."""

    html: str
    roll_key: str  # the key their Roll buttons were drawn with

    def for_copy(self, csrf_secret: str, roll_key: str | None = None) -> str:
        """This copy's own: a fresh roll key (two copies' taps must not pass for one resent
        tap) and its browser's CSRF token."""
        own = self.html.replace(self.roll_key, roll_key or new_key())
        return own.replace(CSRF, csrf_secret)

    def to_dict(self) -> dict[str, str]:
        return {"html": self.html, "roll_key": self.roll_key}


def audience(membership: Membership, character: Character) -> Audience:
    if membership.is_gm:
        return "gm"
    return "player" if may_edit(membership, character) else "table"


def copy_audience(membership: Membership, character_id: int) -> Audience | None:
    """Whom an open copy of that sheet is drawn for; None if ``membership`` may not open it
    (``character_or_404``'s rule, for a socket)."""
    character = (
        Character.objects.filter(pk=character_id, campaign_id=membership.campaign_id)
        .only("kind", "owner_id", "revealed")
        .first()
    )
    if character is None or (character.is_npc and not membership.is_gm and not character.revealed):
        return None
    return audience(membership, character)


def draw(character: Character, membership: Membership) -> Parts:
    """The live parts as ``membership``'s audience sees them."""
    context = page_context(character, membership, live=True)
    context["csrf_token"] = CSRF
    return Parts(render_to_string(LIVE, context), context["roll_key"])


def drawn_for_gms(character: Character, membership: Membership) -> Parts:
    """The live parts as the GMs see them, drawn by the request that changed the sheet, so
    the copy a GM has open, the one most often open, needs no drawing of its own."""
    if membership.is_gm:
        return draw(character, membership)
    # Drawn as any GM sees it: a stand-in membership, never saved, read only for its role.
    return draw(character, Membership(campaign=character.campaign, role=Membership.Role.GM))


def page_context(
    character: Character, membership: Membership, *, live: bool = False, answer: bool = False
) -> dict[str, Any]:
    """The sheet page's context; ``live``: its live parts alone, each swapped in by id, and
    (``answer``) with the messages of the tap they answer."""
    context = sheet_context(character)
    context.update(
        {
            "campaign": character.campaign,
            # The sheet's commands sit under its URL (characters/urls.py): a form's action is
            # this and the command's name, not one of the fifty reverses a sheet would make.
            "sheet_url": reverse("characters:sheet", args=[character.campaign_id, character.pk]),
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
