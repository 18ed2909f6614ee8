from django.conf import settings
from django.db import models
from django.utils import timezone


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


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", "GM"
        PLAYER = "player", "Player"
        OBSERVER = "observer", "Observer"

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
        X_CARD = "x-card", "X-card"
        LINES_AND_VEILS = "lines-and-veils", "Lines and veils"
        OPEN_DOOR = "open-door", "Open door (anyone may step away)"
        CHECK_IN = "check-in", "Check-ins during play"

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
            return "This invite link was revoked. Ask your GM for a new one."
        if self.expires_at is not None and self.expires_at <= timezone.now():
            return "This invite link has expired. Ask your GM for a new one."
        if self.max_uses is not None and self.uses >= self.max_uses:
            return "This invite link has been used up. Ask your GM for a new one."
        if self.campaign.is_archived:
            return "This campaign is archived and takes no new members."
        return None


class PlaySession(models.Model):
    """One numbered evening of play; at most one per campaign is running."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)
    # What ending the session gave each PC ({character name: XP}), kept for the recap.
    xp_awarded = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-number"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "number"], name="one_session_number"),
            models.UniqueConstraint(
                fields=["campaign"],
                condition=models.Q(ended_at__isnull=True),
                name="one_running_session",
            ),
        ]

    def __str__(self) -> str:
        return f"Session {self.number} of {self.campaign}"

    @property
    def running(self) -> bool:
        return self.ended_at is None


class TableConnection(models.Model):
    """One open socket at a campaign's table: who is here right now, whatever process holds
    the socket. Rows of a process that died unannounced expire with ``seen_at``."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="connections")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    channel_name = models.CharField(max_length=200, unique=True)
    seen_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["campaign", "seen_at"])]

    def __str__(self) -> str:
        return f"{self.user} at {self.campaign}"


# --- the live table II: spotlight, countdowns, challenge ladders ---------------------------


class Spotlight(models.Model):
    """Who the GM is looking at now (Fudge Lite "Spotlight"), and who is waiting for it."""

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="spotlight")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    since = models.DateTimeField(null=True, blank=True)
    # User ids with a raised hand, in the order they raised it.
    hands = models.JSONField(default=list, blank=True)

    def __str__(self) -> str:
        return f"Spotlight at {self.campaign}"


class SpotlightSpan(models.Model):
    """One stretch of a session during which a character held the spotlight."""

    session = models.ForeignKey(
        PlaySession, on_delete=models.CASCADE, related_name="spotlight_spans"
    )
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="spotlight_spans"
    )
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at"]

    def __str__(self) -> str:
        return f"{self.character} in {self.session}"


class Countdown(models.Model):
    """A named series of boxes (Fudge Lite "Countdowns"): when the last is marked, it happens."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Everyone sees it"
        HIDDEN_PROGRESS = "hidden", "Players see it exists, not how full"
        GM = "gm", "GM only"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="countdowns")
    name = models.CharField(max_length=120)
    boxes = models.PositiveSmallIntegerField()
    marked = models.PositiveSmallIntegerField(default=0)
    outcome = models.CharField(max_length=300, blank=True)  # what happens at the last box
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # A skill challenge pairs a countdown with a failure countdown: whichever fills first wins.
    failure = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="success"
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name


class Challenge(models.Model):
    """A Fate challenge ladder: its shape (the rules' ChallengeLadder) and its marks."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", "Everyone sees it"
        GM = "gm", "GM only"

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="challenges")
    name = models.CharField(max_length=120)
    ladder = models.JSONField()  # fudgetable.rules.challenges.ChallengeLadder.to_dict()
    state = models.JSONField()  # fudgetable.rules.challenges.ChallengeState.to_dict()
    notes = models.TextField(blank=True, max_length=2000)  # span and recovery, in words
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name
