"""Play sessions: the GM starts the next numbered one and ends it, which hands out the
session's XP."""

from collections.abc import Mapping

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Campaign
from campaigns.selectors import campaign_ruleset
from characters.live_sheets import party_changed, sheet_changed
from characters.models import Character
from characters.services import xp_award
from fudgetable import live
from fudgetable.rules.advancement import SessionCounts, end_of_session_xp
from fudgetable.rules.errors import RulesError
from rolls import fragments
from rolls.models import PlaySession
from rolls.selectors import running_session_id
from rolls.spotlight.services import spotlight_session_end


@transaction.atomic
def session_start(*, campaign: Campaign) -> PlaySession:
    """Starts the next numbered session; refused while one is running."""
    campaign = Campaign.objects.select_for_update().get(pk=campaign.pk)
    if running_session_id(campaign.pk) is not None:
        raise RulesError("session", gettext("a session is already running"))
    last = campaign.sessions.order_by("-number").first()
    session = PlaySession.objects.create(campaign=campaign, number=(last.number + 1) if last else 1)
    _announce_session(campaign, "session.started")
    return session


@transaction.atomic
def session_end(
    *, session: PlaySession, counts: Mapping[int, SessionCounts] | None = None
) -> PlaySession:
    """Ends the session and hands out its XP: the ruleset's XP per session to each PC who took
    part (rolled during it), its keys and end-of-session questions where the campaign uses
    them, and any extra XP the GM gives (``counts``: character id -> what the GM counted)."""
    session = PlaySession.objects.select_for_update().get(pk=session.pk)
    if session.ended_at is not None:
        raise RulesError("session", gettext("that session has already ended"))
    session.ended_at = timezone.now()
    session.save(update_fields=["ended_at"])
    spotlight_session_end(session=session)
    ruleset = campaign_ruleset(session.campaign)
    took_part = set(
        session.rolls.filter(character__kind=Character.Kind.PC).values_list(
            "character_id", flat=True
        )
    )
    counts = counts or {}
    pcs = Character.objects.filter(campaign=session.campaign, kind=Character.Kind.PC)
    awarded: dict[str, int] = {}
    for character in pcs.order_by("name", "pk"):
        counted = counts.get(character.pk, SessionCounts())
        amount = counted.extra_xp + end_of_session_xp(
            per_session=ruleset.xp_per_session if character.pk in took_part else 0,
            key_award=ruleset.key_award,
            keys=counted.keys,
            questions=ruleset.session_questions,
            yes_answers=counted.yes_answers,
        )
        if amount:
            xp_award(character=character, amount=amount)
            said = {"number": session.number, "name": character.name, "xp": amount}
            told = gettext("Session %(number)s gave %(name)s %(xp)s XP.") % said
            sheet_changed(character, party=False, told=told)
        # Keyed by name for the recap; two PCs of one name keep apart by id.
        name = character.name
        if name in awarded:
            name = f"{name} #{character.pk}"
        awarded[name] = amount
    session.xp_awarded = awarded
    session.save(update_fields=["xp_awarded"])
    if any(awarded.values()):
        party_changed(session.campaign)
    _announce_session(session.campaign, "session.ended")
    return session


def _announce_session(campaign: Campaign, event: str) -> None:
    live.publish(campaign.pk, event, **fragments.session_statuses(campaign))
