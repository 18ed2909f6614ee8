"""Every write to campaigns, memberships, session zero and invites."""

import secrets
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

from django.contrib.auth.models import User
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext

from campaigns.models import Campaign, Invite, Membership, Profile, SessionZero
from fudgetable import live
from fudgetable.rules import rulesets


class StaleEdit(Exception):
    """Someone saved the same form since this one was loaded; nothing was written."""


def _checked_overrides(ruleset: str, overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The overrides in canonical form; a bad one raises RulesError naming the setting."""
    return rulesets.resolve(ruleset, overrides).overrides


@transaction.atomic
def campaign_create(
    *,
    owner: User,
    name: str,
    ruleset: str = rulesets.DEFAULT_KEY,
    pitch: str = "",
    overrides: Mapping[str, Any] | None = None,
) -> Campaign:
    """A new campaign; its owner is its first GM."""
    campaign = Campaign.objects.create(
        owner=owner,
        name=name,
        pitch=pitch,
        ruleset=ruleset,
        overrides=_checked_overrides(ruleset, overrides or {}),
        gm_moves=list(rulesets.GM_MOVES),
    )
    Membership.objects.create(campaign=campaign, user=owner, role=Membership.Role.GM)
    SessionZero.objects.create(campaign=campaign)
    return campaign


@transaction.atomic
def campaign_update(
    *,
    campaign: Campaign,
    version: int,
    name: str,
    pitch: str,
    ruleset: str,
    overrides: Mapping[str, Any],
    language: str | None = None,
    ladder_words: Mapping[str, str] | None = None,
) -> Campaign:
    """The settings form saved; ``language`` None keeps the table's language, and
    ``ladder_words`` None the GM's words for the rungs (checked by the form: ``ladder_words``)."""
    checked = _checked_overrides(ruleset, overrides)
    changes: dict[str, Any] = {"language": language} if language else {}
    if ladder_words is not None:
        changes["ladder_words"] = dict(ladder_words)
    updated = Campaign.objects.filter(pk=campaign.pk, version=version).update(
        name=name,
        pitch=pitch,
        ruleset=ruleset,
        overrides=checked,
        version=F("version") + 1,
        **changes,
    )
    if not updated:
        raise StaleEdit
    campaign.refresh_from_db()
    return campaign


def campaign_archive(*, campaign: Campaign, archived: bool = True) -> Campaign:
    campaign.archived_at = timezone.now() if archived else None
    campaign.save(update_fields=["archived_at"])
    return campaign


@transaction.atomic
def campaign_delete(*, campaign: Campaign, typed_name: str) -> None:
    if typed_name.strip() != campaign.name:
        raise ValidationError(
            {"typed_name": gettext("Type the campaign's name exactly to delete it.")}
        )
    live.table_closed(campaign.pk)  # once the delete has committed
    campaign.delete()


@transaction.atomic
def session_zero_update(
    *,
    session_zero: SessionZero,
    version: int,
    lines: str,
    veils: str,
    safety_tools: Iterable[str],
    agreed_options: str,
) -> SessionZero:
    updated = SessionZero.objects.filter(pk=session_zero.pk, version=version).update(
        lines=lines,
        veils=veils,
        safety_tools=sorted(set(safety_tools)),
        agreed_options=agreed_options,
        updated_at=timezone.now(),
        version=F("version") + 1,
    )
    if not updated:
        raise StaleEdit
    session_zero.refresh_from_db()
    return session_zero


def invite_create(
    *,
    campaign: Campaign,
    created_by: User,
    role: str = Membership.Role.PLAYER,
    expires_at: datetime | None = None,
    max_uses: int | None = None,
) -> Invite:
    return Invite.objects.create(
        campaign=campaign,
        created_by=created_by,
        role=role,
        expires_at=expires_at,
        max_uses=max_uses,
        token=secrets.token_urlsafe(32),
    )


def invite_revoke(*, invite: Invite) -> Invite:
    if invite.revoked_at is None:
        invite.revoked_at = timezone.now()
        invite.save(update_fields=["revoked_at"])
    return invite


@transaction.atomic
def invite_accept(*, token: str, user: User) -> Membership:
    """Joins the invite's campaign. A person who is already a member keeps their role."""
    invite = (
        Invite.objects.select_for_update().select_related("campaign").filter(token=token).first()
    )
    if invite is None:
        raise ValidationError(gettext("This invite link is not valid. Ask your GM for a new one."))
    existing = Membership.objects.filter(campaign=invite.campaign, user=user).first()
    if existing is not None:
        return existing
    problem = invite.problem()
    if problem:
        raise ValidationError(problem)
    Invite.objects.filter(pk=invite.pk).update(uses=F("uses") + 1)
    return Membership.objects.create(campaign=invite.campaign, user=user, role=invite.role)


def membership_add(*, campaign: Campaign, user: User, role: str) -> Membership:
    membership, _ = Membership.objects.get_or_create(
        campaign=campaign, user=user, defaults={"role": role}
    )
    return membership


def membership_set_role(*, actor: Membership, membership: Membership, role: str) -> Membership:
    """GMs change roles; only the owner makes or unmakes co-GMs; the owner stays GM."""
    if membership.is_owner:
        raise ValidationError(gettext("The campaign's owner is always its GM."))
    if Membership.Role.GM in (role, membership.role) and not actor.is_owner:
        raise PermissionDenied(gettext("Only the campaign's owner can add or remove co-GMs."))
    membership.role = role
    membership.save(update_fields=["role"])
    live.member_changed(membership.campaign_id, membership.user_id)
    return membership


def membership_remove(*, actor: Membership, membership: Membership) -> None:
    """A GM removes someone, or a member leaves (actor == membership). The owner can't go."""
    if membership.is_owner:
        raise ValidationError(
            gettext("The campaign's owner can't leave it; archive or delete it instead.")
        )
    leaving = actor.pk == membership.pk
    if not leaving and membership.is_gm and not actor.is_owner:
        raise PermissionDenied(gettext("Only the campaign's owner can remove a co-GM."))
    membership.delete()
    live.member_changed(membership.campaign_id, membership.user_id)


GM_MOVES_MAX, GM_MOVE_LENGTH = 40, 200


def gm_moves_set(*, campaign: Campaign, moves: Iterable[str]) -> Campaign:
    """The GM moves at hand at this table, one per line of the GM's list."""
    cleaned = [move.strip() for move in moves if move.strip()]
    if len(cleaned) > GM_MOVES_MAX:
        raise ValidationError(gettext("At most %(most)d GM moves.") % {"most": GM_MOVES_MAX})
    if any(len(move) > GM_MOVE_LENGTH for move in cleaned):
        raise ValidationError(
            gettext("Each GM move fits in %(most)d characters.") % {"most": GM_MOVE_LENGTH}
        )
    campaign.gm_moves = cleaned
    campaign.save(update_fields=["gm_moves"])
    return campaign


def person_language_set(*, user: User, language: str) -> Profile:
    """The language ``user``'s pages speak from now on, "" for their browser's."""
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"language": language})
    return profile
