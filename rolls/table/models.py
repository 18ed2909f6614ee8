"""Who is at the table right now: one row per open socket (``rolls.models`` imports this, so
Django finds it there)."""

from django.conf import settings
from django.db import models

from campaigns.models import Campaign


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
