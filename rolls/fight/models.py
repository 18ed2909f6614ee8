"""The fight's own state (``rolls.models`` imports this, so Django finds it there)."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class DeclaredAttack(models.Model):
    """An attack from the board on a PC another player plays, declared and waiting for that
    player to defend (``rolls.fight.defend``): what the attacker tapped, kept until the
    defender's tap (or a GM's, for them) rolls the exchange, or the attacker or a GM withdraws
    it, or the round moves on and it lapses. Kept once ended, with the exchange it rolled, so
    that a second tap on Defend finds it.

    A shot keeps the range, light and cover the areas gave when it was declared, and the words
    saying where from: the exchange rolled later is the one the attacker aimed."""

    class Kind(models.TextChoices):
        MELEE = "melee", _("Melee")
        RANGED = "ranged", _("Ranged")

    class End(models.TextChoices):
        DEFENDED = "defended", _("Defended")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        LAPSED = "lapsed", _("Lapsed")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="attacks")
    scene = models.ForeignKey("rolls.Scene", on_delete=models.CASCADE, related_name="+")
    # Who tapped the attack: the exchange is theirs, as it would have been rolled at once.
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    attacker = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    defender = models.ForeignKey("characters.Character", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    # None: bare hands in melee; a shot whose weapon left the sheet since cannot be rolled.
    weapon = models.ForeignKey(
        "characters.Gear", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The attacker's trait (None: untrained), and whether one was picked at all: a trait
    # taken off the sheet meanwhile is not rolled untrained by mistake.
    trait = models.ForeignKey(
        "characters.Trait", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    trained = models.BooleanField(default=False)
    tactic = models.CharField(max_length=16, default="none")  # a rules.fight.Tactic
    stun = models.BooleanField(default=False)
    range = models.CharField(max_length=2, blank=True)  # a shot's: rules.ranged.RANGES
    light = models.CharField(max_length=5, blank=True)
    cover = models.CharField(max_length=8, blank=True)
    where = models.CharField(max_length=200, blank=True)
    # The round and phase it was declared in: once the round moves on, it lapses.
    round = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=8, blank=True)
    key = models.CharField(max_length=64)  # the attack form's: the same taps declare once
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    ended_at = models.DateTimeField(null=True, blank=True)
    end = models.CharField(max_length=9, choices=End.choices, blank=True)
    exchange = models.ForeignKey(
        "rolls.Roll", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["created_at", "pk"]
        indexes = [models.Index(fields=["campaign", "ended_at"])]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign", "declared_by", "key"], name="one_attack_per_key"
            ),
            # One attack waiting per attacker: it is their roll of the phase, in waiting.
            models.UniqueConstraint(
                fields=["attacker"],
                condition=models.Q(ended_at__isnull=True),
                name="one_waiting_attack_per_attacker",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.attacker_id} attacks {self.defender_id}"

    @property
    def waiting(self) -> bool:
        return self.ended_at is None
