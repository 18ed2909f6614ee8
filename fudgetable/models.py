"""The platform's one table: each campaign's table sequences, the number of the last event its
table sent to each audience (``live.publish``). It lives here, not in campaigns, because the
live layer may name no app; a campaign is named by its id."""

from django.db import models


class TableSequence(models.Model):
    campaign_id = models.PositiveBigIntegerField(unique=True)
    # One count per audience: an event only GMs get advances only theirs, so a player's
    # numbers run on without a gap and tell nothing of what the GMs did (how many, when).
    # Advanced in the same transaction as the change an event tells of: a rolled-back change
    # takes its number back, so a screen sees a gap only where an event went missing.
    everyone = models.PositiveBigIntegerField(default=0)
    gm = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"campaign {self.campaign_id}: {self.everyone} / {self.gm}"


class PersonSequence(models.Model):
    """One person's own count at a campaign's table: the number of the last thing sent to them
    alone that a page must not miss (a whisper). Kept apart from the table's counts, so that a
    whisper moves no one else's number and tells nobody else that it was sent."""

    campaign_id = models.PositiveBigIntegerField()
    user_id = models.PositiveBigIntegerField()
    seq = models.PositiveBigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["campaign_id", "user_id"], name="one_count_per_person")
        ]

    def __str__(self) -> str:
        return f"campaign {self.campaign_id}, person {self.user_id}: {self.seq}"
