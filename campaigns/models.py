from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    pitch = models.TextField(blank=True, max_length=4000)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="owned_campaigns"
    )
    # A preset key of fudgetable.rules.rulesets, plus the campaign's validated overrides.
    ruleset = models.CharField(max_length=20, default="fudge-lite")
    overrides = models.JSONField(default=dict, blank=True)
    archived_at = models.DateTimeField(null=True, blank=True)
    # The GM moves at hand at the table (Fudge Lite), seeded from the rules, edited by GMs.
    gm_moves = models.JSONField(default=list, blank=True)
    # The poker-deck dice method keeps its shuffled pile between draws.
    deck = models.JSONField(null=True, blank=True)
    # The language of what the table pushes to everyone (log lines, announcements): each pushed
    # fragment is rendered once per audience in it (docs/architecture.md, "Languages").
    # A database default too: rows written by code that predates the field (an older
    # process during a rolling upgrade, a migration test's historical model) get English.
    language = models.CharField(
        _("language of the table"),
        max_length=10,
        choices=settings.LANGUAGES,
        default="en",
        db_default="en",
    )
    # The GM's own words for the ladder's rungs, by each rung's name in the rules
    # ({"Good": "Bom"}), so that they survive a change of ladder that keeps the rung; empty:
    # the rules' words in each reader's language (``campaigns.selectors.campaign_ladder``).
    ladder_words = models.JSONField(
        _("words for the ladder"), default=dict, db_default={}, blank=True
    )
    # Bumped by every edit of the settings form, so a stale form is refused, not applied.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name

    @property
    def is_archived(self) -> bool:
        return self.archived_at is not None


class Profile(models.Model):
    """What a person chose for themselves that is no part of Django's user: the language their
    pages speak, "" for their browser's (fudgetable/language.py)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="profile"
    )
    language = models.CharField(
        _("language"), max_length=10, choices=settings.LANGUAGES, blank=True, default=""
    )

    def __str__(self) -> str:
        return f"Profile of {self.user}"


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", _("GM")
        PLAYER = "player", _("Player")
        OBSERVER = "observer", _("Observer")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign", "user"], name="one_membership_per_user")
        ]

    def __str__(self) -> str:
        return f"{self.user} in {self.campaign} ({self.get_role_display()})"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM

    @property
    def is_owner(self) -> bool:
        return self.user_id == self.campaign.owner_id


class SessionZero(models.Model):
    """What the table agreed before play (Fudge Lite's session zero)."""

    class SafetyTool(models.TextChoices):
        X_CARD = "x-card", _("X-card")
        LINES_AND_VEILS = "lines-and-veils", _("Lines and veils")
        OPEN_DOOR = "open-door", _("Open door (anyone may step away)")
        CHECK_IN = "check-in", _("Check-ins during play")

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="session_zero")
    lines = models.TextField(blank=True, max_length=4000)
    veils = models.TextField(blank=True, max_length=4000)
    safety_tools = models.JSONField(default=list, blank=True)
    agreed_options = models.TextField(blank=True, max_length=4000)
    version = models.PositiveIntegerField(default=1)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"Session zero of {self.campaign}"


class Invite(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="invites")
    token = models.CharField(max_length=64, unique=True)
    role = models.CharField(
        max_length=10,
        choices=[
            (Membership.Role.PLAYER, Membership.Role.PLAYER.label),
            (Membership.Role.OBSERVER, Membership.Role.OBSERVER.label),
        ],
        default=Membership.Role.PLAYER,
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True)
    max_uses = models.PositiveIntegerField(null=True, blank=True)
    uses = models.PositiveIntegerField(default=0)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"Invite to {self.campaign} as {self.role}"

    def problem(self) -> str | None:
        """Why this invite can't be used now, in words for the person holding it."""
        if self.revoked_at is not None:
            return gettext("This invite link was revoked. Ask your GM for a new one.")
        if self.expires_at is not None and self.expires_at <= timezone.now():
            return gettext("This invite link has expired. Ask your GM for a new one.")
        if self.max_uses is not None and self.uses >= self.max_uses:
            return gettext("This invite link has been used up. Ask your GM for a new one.")
        if self.campaign.is_archived:
            return gettext("This campaign is archived and takes no new members.")
        return None
