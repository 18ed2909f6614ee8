"""A campaign's table-talk settings and its webhook's outbox (``rolls.models`` imports these, so
Django finds them there)."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


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
