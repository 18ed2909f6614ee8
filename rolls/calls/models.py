"""The GM's roll calls (``rolls.models`` imports this, so Django finds it there)."""

from django.conf import settings
from django.db import models
from django.utils import timezone

from campaigns.models import Campaign


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
