from django.conf import settings
from django.db import models

from campaigns.models import Campaign, PlaySession


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

    class Visibility(models.TextChoices):
        TABLE = "table", "Everyone"
        GM = "gm", "GM only (secret)"

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
        max_length=5, choices=Visibility.choices, default=Visibility.TABLE
    )
    hidden_difficulty = models.BooleanField(default=False)
    label = models.CharField(max_length=200)  # "Louie: Stealth" as the log shows it
    snapshot = models.JSONField()
    succeeded = models.BooleanField(null=True)
    idempotency_key = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    gm_note = models.CharField(max_length=500, blank=True)

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
