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


class Roll(models.Model):
    """One entry of a campaign's roll log. Append-only: the app never edits or deletes a roll;
    a Fudge point spent on one makes a new roll that follows it. Only the GM's note changes.

    ``snapshot`` keeps everything as it was at the moment of rolling (the trait and its level,
    modifiers, dice method, faces, total, difficulty, margin, outcome, odds), so the log reads
    the same whatever happens to the sheet later.
    """

    class Kind(models.TextChoices):
        CHECK = "check", _("Trait check")
        CONTEST = "contest", _("Opposed roll")
        SITUATIONAL = "situational", _("Situational roll")
        REACTION = "reaction", _("Reaction roll")
        FUDGE_POINT = "fudge-point", _("Fudge point")
        # Not a roll: a line the table itself writes in the log (a countdown completes).
        ANNOUNCEMENT = "announcement", _("Announcement")
        # Not a roll either: something a person said at the table (rolls.talk.services).
        MESSAGE = "message", _("Message")

    class Visibility(models.TextChoices):
        TABLE = "table", _("Everyone")
        GM = "gm", _("GM only (secret)")
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
    def is_roll(self) -> bool:
        """Dice rolled at the table: a check, an opposed roll (a fight's exchange among them), a
        situational or a reaction roll. Not a line the table writes (an announcement, a fight's
        wounds marked, a wound marked from a sheet), not a message, and not a Fudge point spent
        on a roll already made (it counts with that roll). What a recap and a fight's round
        count as rolls."""
        return self.kind in ROLL_KINDS and "confirms" not in self.snapshot

    @property
    def public(self) -> bool:
        """What every member of the table reads as it is: no secret, no whisper, nothing the
        GMs keep hidden (a webhook sends only these)."""
        return self.visibility == self.Visibility.TABLE and not self.hidden_difficulty


ROLL_KINDS = frozenset(
    {Roll.Kind.CHECK, Roll.Kind.CONTEST, Roll.Kind.SITUATIONAL, Roll.Kind.REACTION}
)


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


# The feature packages' models live in their packages (docs/architecture.md, "Feature packages");
# Django finds an app's models here, and their app_label stays "rolls", so nothing migrates.
from rolls.calls.models import RollCall  # noqa: E402
from rolls.challenges.models import Challenge  # noqa: E402
from rolls.countdowns.models import Countdown  # noqa: E402
from rolls.fight.models import DeclaredAttack  # noqa: E402
from rolls.scene.models import Area, Card, Figure, Picture, Scene  # noqa: E402
from rolls.spotlight.models import Spotlight, SpotlightSpan  # noqa: E402
from rolls.table.models import TableConnection  # noqa: E402
from rolls.talk.models import TableTalk, WebhookDelivery  # noqa: E402

__all__ = [
    "Area",
    "Card",
    "Challenge",
    "Countdown",
    "DeclaredAttack",
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
