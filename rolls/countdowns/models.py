"""The countdowns (``rolls.models`` imports this, so Django finds it there)."""

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class Countdown(models.Model):
    """A named series of boxes (Fudge Lite "Countdowns"): when the last is marked, it happens."""

    class Visibility(models.TextChoices):
        PUBLIC = "public", _("Everyone sees it")
        HIDDEN_PROGRESS = "hidden", _("Players see it exists, not how full")
        GM = "gm", _("GM only")

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
