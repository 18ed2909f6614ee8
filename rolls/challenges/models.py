"""The challenge ladders (``rolls.models`` imports this, so Django finds it there)."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class Challenge(models.Model):
    """A Fate challenge ladder: its shape (the rules' ChallengeLadder) and its marks."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Everyone sees it")
        GM = "gm", _("GM only")

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
