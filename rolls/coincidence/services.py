"""A Fudge point spent to "ensure a favorable coincidence in the world around them" (Fudge Lite,
"Fudge Points"). The player says what happens; the log shows it waiting for the GM; a GM allows
it, and only then is the point paid, once, however often the button is tapped."""

from django.db import transaction
from django.utils.translation import gettext

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import sheet_changed
from characters.models import Character
from characters.services import fudge_points_change
from fudgetable.input_rule import text_problem
from fudgetable.rules.errors import RulesError
from rolls import fragments
from rolls.entry_words import SAID, said
from rolls.models import Roll
from rolls.services import record_entry

USE = "coincidence"
TEXT_LENGTH = 160


@transaction.atomic
def coincidence_ask(*, membership: Membership, character: Character, text: str, key: str) -> Roll:
    """Asks the GM for a coincidence: an entry in the log, and nothing paid yet."""
    if membership.role == Membership.Role.OBSERVER:
        raise RulesError("membership", gettext("observers watch; they do not spend Fudge points"))
    if USE not in campaign_ruleset(membership.campaign).fudge_point_uses:
        raise RulesError(
            "use", gettext("this campaign does not spend Fudge points on coincidences")
        )
    mine = character.owner_id == membership.user_id or membership.is_gm
    if character.campaign_id != membership.campaign_id or character.is_npc or not mine:
        raise RulesError("character", gettext("spend the Fudge points of a PC you play"))
    text = " ".join(text.split())
    if not text or len(text) > TEXT_LENGTH or text_problem(text):
        raise RulesError(
            "text",
            gettext("say what happens, in at most %(length)s characters") % {"length": TEXT_LENGTH},
        )
    if character.fudge_points < 1:
        raise RulesError(
            "fudge_points",
            gettext("%(name)s has no Fudge points left") % {"name": character.name},
        )
    roll, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.ANNOUNCEMENT,
        label=f"{character.name}: {text}",
        snapshot={
            "coincidence": text,
            "lines": [text],
            SAID: said("coincidence", name=character.name, text=text),
        },
        succeeded=None,
        key=key,
        character=character,
    )
    return roll


@transaction.atomic
def coincidence_allow(*, membership: Membership, roll: Roll) -> Roll:
    """A GM allows the coincidence: the character pays its point, and the log says so."""
    if not membership.is_gm:
        raise RulesError("membership", gettext("only a GM allows a coincidence"))
    asked = Roll.objects.select_for_update().filter(pk=roll.pk).first()
    if asked is None or asked.campaign_id != membership.campaign_id:
        raise RulesError("roll", gettext("no such coincidence at this table"))
    if "coincidence" not in asked.snapshot or asked.character is None:
        raise RulesError("roll", gettext("that entry is not a coincidence asked for"))
    allowed = Roll.objects.filter(follows=asked).first()
    if allowed is not None:
        return allowed
    fudge_points_change(character=asked.character, by=-1)
    name = {"name": asked.character.name}
    told = gettext("The GM allowed %(name)s's coincidence: 1 Fudge point spent.") % name
    sheet_changed(asked.character, told=told, by=membership.user_id)
    allowed, _ = record_entry(
        membership=membership,
        kind=Roll.Kind.ANNOUNCEMENT,
        label=asked.snapshot["coincidence"][:200],
        snapshot={
            "allowed": True,
            SAID: said("coincidence-allowed", text=asked.snapshot["coincidence"]),
        },
        succeeded=None,
        key=f"coincidence-{asked.pk}",
        character=asked.character,
        follows=asked,
    )
    # The request's entry loses its Allow button on every GM's screen.
    fragments.publish_changed_entry(asked, "coincidence.allowed")
    return allowed
