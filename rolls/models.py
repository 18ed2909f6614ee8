from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class PlaySession(models.Model):
    """One numbered evening of play; at most one per campaign is running."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="sessions")
    number = models.PositiveIntegerField()
    # A default, not auto_now_add, so a restored backup keeps its own times (rolls.backup.restore).
    started_at = models.DateTimeField(default=timezone.now, editable=False)
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
    # Events at boxes before the last (Fudge Lite's ticking clock: "2: Stairwell collapses"),
    # as [{"at": 2, "event": "..."}], in box order; and how many of them the log has told.
    stages = models.JSONField(default=list, blank=True)
    announced = models.PositiveSmallIntegerField(default=0)
    visibility = models.CharField(
        max_length=6, choices=Visibility.choices, default=Visibility.PUBLIC
    )
    # A skill challenge pairs a countdown with a failure countdown: whichever fills first wins.
    failure = models.OneToOneField(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="success"
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

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
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.name


class Roll(models.Model):
    """One entry of a campaign's roll log. Append-only: the app never edits or deletes a roll;
    a Fudge point spent on one makes a new roll that follows it. Only the GM's note changes.

    ``snapshot`` keeps everything as it was at the moment of rolling (the trait and its level,
    modifiers, dice method, faces, total, difficulty, margin, outcome, odds), so the log reads
    the same whatever happens to the sheet later.
    """

    class Kind(models.TextChoices):
        CHECK = "check", "Trait check"
        CONTEST = "contest", "Opposed roll"
        SITUATIONAL = "situational", "Situational roll"
        REACTION = "reaction", "Reaction roll"
        FUDGE_POINT = "fudge-point", "Fudge point"
        # Not a roll: a line the table itself writes in the log (a countdown completes).
        ANNOUNCEMENT = "announcement", "Announcement"
        # Not a roll either: something a person said at the table (rolls.talk.services).
        MESSAGE = "message", _("Message")

    class Visibility(models.TextChoices):
        TABLE = "table", "Everyone"
        GM = "gm", "GM only (secret)"
        # Only the people a ``Whispered`` row names: not the table, not the GMs as such.
        WHISPER = "whisper", _("Whispered")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="rolls")
    session = models.ForeignKey(
        PlaySession, on_delete=models.SET_NULL, null=True, blank=True, related_name="rolls"
    )
    roller = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    character = models.ForeignKey(
        "characters.Character",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="rolls",
    )
    follows = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="followed_by"
    )
    kind = models.CharField(max_length=12, choices=Kind.choices)
    visibility = models.CharField(
        max_length=7, choices=Visibility.choices, default=Visibility.TABLE
    )
    hidden_difficulty = models.BooleanField(default=False)
    label = models.CharField(max_length=200)  # "Louie: Stealth" as the log shows it
    snapshot = models.JSONField()
    succeeded = models.BooleanField(null=True)
    idempotency_key = models.CharField(max_length=64)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    gm_note = models.CharField(max_length=500, blank=True)
    # The table's number (``live.publish``) of the last event that brought this entry to each
    # audience: its arrival, or a change to it (a GM's note, a fight's wounds marked). A page
    # back from a drop says the number it saw last and gets only the entries past it. None:
    # the audience never had it pushed (a secret line, a restored log).
    everyone_seq = models.PositiveBigIntegerField(null=True, blank=True, editable=False)
    gm_seq = models.PositiveBigIntegerField(null=True, blank=True, editable=False)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["campaign", "-created_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "roller", "idempotency_key"], name="one_roll_per_key"
            )
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def secret(self) -> bool:
        return self.visibility == self.Visibility.GM

    @property
    def whispered(self) -> bool:
        return self.visibility == self.Visibility.WHISPER

    @property
    def public(self) -> bool:
        """What every member of the table reads as it is: no secret, no whisper, nothing the
        GMs keep hidden (a webhook sends only these)."""
        return self.visibility == self.Visibility.TABLE and not self.hidden_difficulty


class RollCall(models.Model):
    """The GM's call for a roll: these PCs roll this trait (or each picks one) against this
    difficulty. Each answer is an ordinary roll in the log; the call keeps which roll answered
    for which character, and closes when all have rolled or the GM cancels it."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="roll_calls")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    trait = models.CharField(max_length=80, blank=True)  # "" lets each player pick
    difficulty = models.SmallIntegerField()
    hidden_difficulty = models.BooleanField(default=False)
    advantage = models.PositiveSmallIntegerField(default=0)
    label = models.CharField(max_length=120, blank=True)
    secret = models.BooleanField(default=False)
    characters = models.JSONField(default=list)  # the ids of the PCs called, in order
    answers = models.JSONField(default=dict, blank=True)  # {character id: roll id}
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    closed_at = models.DateTimeField(null=True, blank=True)
    # A closed call stays on the GMs' card, every result side by side, until a GM dismisses it.
    dismissed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["campaign", "closed_at"])]

    def __str__(self) -> str:
        return self.label or f"Roll {self.trait or 'a trait'}"

    @property
    def open(self) -> bool:
        return self.closed_at is None


class Whispered(models.Model):
    """One person a whispered log entry reaches, and the number it reached them by: a number
    of their own at this table (``live.next_person_seqs``), so that a page back from a drop
    gets the whispers it missed and nobody else's count moves, or tells that one was sent.
    None: never pushed (a restored log)."""

    entry = models.ForeignKey(Roll, on_delete=models.CASCADE, related_name="whispered_to")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    seq = models.PositiveBigIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "user"], name="one_whisper_copy_per_person")
        ]
        indexes = [models.Index(fields=["user", "entry"])]

    def __str__(self) -> str:
        return f"{self.entry_id} to {self.user_id}"


class TableTalk(models.Model):
    """A campaign's settings for its table talk: dice in hand, and the webhook its public log
    entries are sent on to (rolls.talk.webhooks). Kept apart from the campaign's rules: none of it
    is a rule, and the webhook's address is a key, left out of backups as invite links are."""

    class Format(models.TextChoices):
        DISCORD = "discord", _("Discord")
        JSON = "json", _("Plain JSON")

    campaign = models.OneToOneField(Campaign, on_delete=models.CASCADE, related_name="table_talk")
    dice_in_hand = models.BooleanField(default=False)
    webhook_url = models.URLField(max_length=500, blank=True)
    webhook_format = models.CharField(max_length=8, choices=Format.choices, default=Format.DISCORD)

    def __str__(self) -> str:
        return f"Table talk of {self.campaign}"


class WebhookDelivery(models.Model):
    """The outbox: one public log entry to send to a campaign's webhook, written in the
    entry's own transaction, so it exists exactly when the entry does, whichever process
    sends it (a lease keeps two processes off one row)."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="+")
    url = models.URLField(max_length=500)
    payload = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)
    next_try_at = models.DateTimeField(default=timezone.now)
    lease_until = models.DateTimeField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    sent_at = models.DateTimeField(null=True, blank=True)
    failed_at = models.DateTimeField(null=True, blank=True)  # given up on after the last try
    last_error = models.CharField(max_length=300, blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [
            models.Index(
                fields=["next_try_at"],
                name="webhook_due",
                condition=models.Q(sent_at__isnull=True, failed_at__isnull=True),
            ),
            models.Index(fields=["campaign", "-created_at"]),
        ]

    def __str__(self) -> str:
        return f"Webhook delivery {self.pk} of {self.campaign_id}"


# The scene's models live in a module of their own; Django finds an app's models here.
from rolls.scene.models import Area, Card, Figure, Picture, Scene  # noqa: E402

__all__ = [
    "Area",
    "Card",
    "Challenge",
    "Countdown",
    "Figure",
    "Picture",
    "PlaySession",
    "Roll",
    "RollCall",
    "Scene",
    "Spotlight",
    "SpotlightSpan",
    "TableConnection",
    "TableTalk",
    "WebhookDelivery",
    "Whispered",
]
