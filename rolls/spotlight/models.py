"""Who holds the spotlight and who waits for it, and each stretch a character held it in a
session (``rolls.models`` imports these, so Django finds them there)."""

from django.db import models

from campaigns.models import Campaign


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
        "rolls.PlaySession", on_delete=models.CASCADE, related_name="spotlight_spans"
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
