from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign


class Character(models.Model):
    """A PC (owned by a player) or an NPC (kept by the campaign's GMs)."""

    class Kind(models.TextChoices):
        PC = "pc", _("Player character")
        NPC = "npc", _("NPC")

    class Stage(models.TextChoices):
        DRAFT = "draft", _("Being built")
        FINISHED = "finished", _("Finished")

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="characters")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="characters",
    )
    kind = models.CharField(max_length=3, choices=Kind.choices, default=Kind.PC)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=2000)
    notes = models.TextField(blank=True, max_length=10000)
    stage = models.CharField(max_length=10, choices=Stage.choices, default=Stage.DRAFT)
    exception_note = models.CharField(max_length=200, blank=True)
    # Fudge Lite trading: levels whose slot became two slots one level lower, in order.
    trades = models.JSONField(default=list, blank=True)
    fudge_points = models.PositiveIntegerField(default=0)
    xp = models.PositiveIntegerField(default=0)
    mass_scale = models.SmallIntegerField(default=0)
    # Track states keyed by track ("injury", "wounds"), as the rules module's to_dict() gives.
    tracks = models.JSONField(default=dict, blank=True)
    # NPCs only: their condition track's size, behaviours (GM moves), and whether players
    # may see the name and public description.
    npc_boxes = models.PositiveSmallIntegerField(null=True, blank=True)
    behaviours = models.JSONField(default=list, blank=True)
    revealed = models.BooleanField(default=False)
    # Bumped by each save of the profile form, so a stale form is refused, not applied.
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name", "pk"]
        indexes = [models.Index(fields=["campaign", "kind", "name"])]

    def __str__(self) -> str:
        return self.name

    @property
    def is_npc(self) -> bool:
        return self.kind == self.Kind.NPC


class Trait(models.Model):
    """A ladder trait, Fate skill, EZFudge role or attribute, or Peupfudge ability."""

    class Kind(models.TextChoices):
        TRAIT = "trait", _("Trait")
        SKILL = "skill", _("Skill")
        ROLE = "role", _("Role")
        ATTRIBUTE = "attribute", _("Attribute")
        ABILITY = "ability", _("Ability")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="traits")
    kind = models.CharField(max_length=10, choices=Kind.choices)
    name = models.CharField(max_length=80)
    level = models.SmallIntegerField(default=0)
    specialty = models.CharField(max_length=80, blank=True)
    specialty_required = models.BooleanField(default=False)
    progress = models.PositiveIntegerField(default=0)  # Peupfudge XP toward the next level
    modifier = models.SmallIntegerField(default=0)  # Peupfudge level modifier
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["character", "kind", "name"], name="one_trait_of_a_name"
            )
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.level:+d})"


class Feature(models.Model):
    """A gift or a fault, perhaps with a +1 / -1 that applies always or in a situation."""

    class Kind(models.TextChoices):
        GIFT = "gift", _("Gift")
        FAULT = "fault", _("Fault")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="features")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    name = models.CharField(max_length=80)
    target = models.CharField(max_length=80, blank=True)  # "CPD", "INJ" or a trait's name
    amount = models.SmallIntegerField(default=0)
    situation = models.CharField(max_length=200, blank=True)
    supernormal = models.BooleanField(default=False)

    class Meta:
        ordering = ["kind", "pk"]

    def __str__(self) -> str:
        return self.name


class Gear(models.Model):
    """Armour (a bonus to CPD) or a weapon (a damage factor, or its own INJ if self-powered),
    used in melee or at range (``ranged``: a bow, a sling, a gun; see ``rules.Weapon``)."""

    class Kind(models.TextChoices):
        ARMOR = "armor", _("Armour")
        WEAPON = "weapon", _("Weapon")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="gear")
    kind = models.CharField(max_length=6, choices=Kind.choices)
    name = models.CharField(max_length=80)
    armor_bonus = models.SmallIntegerField(null=True, blank=True)
    damage_factor = models.SmallIntegerField(null=True, blank=True)
    inj = models.SmallIntegerField(null=True, blank=True)
    quality = models.BooleanField(default=False)
    # Shot or thrown: the fight's ranged phase offers it, melee does not. Always set for a
    # self-powered weapon (``gear_add``); a bow has a damage factor and this.
    ranged = models.BooleanField(default=False)

    class Meta:
        ordering = ["kind", "pk"]

    def __str__(self) -> str:
        return self.name


class Item(models.Model):
    """Inventory; an item may sit inside another (a pouch in a backpack)."""

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="items")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="contents"
    )
    name = models.CharField(max_length=80)
    quantity = models.PositiveIntegerField(default=1)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["pk"]

    def __str__(self) -> str:
        return self.name


class Detail(models.Model):
    """Peupfudge statuses (a named state with a modifier), properties and characteristics."""

    class Kind(models.TextChoices):
        STATUS = "status", _("Status")
        PROPERTY = "property", _("Property")
        CHARACTERISTIC = "characteristic", _("Characteristic")

    character = models.ForeignKey(Character, on_delete=models.CASCADE, related_name="details")
    kind = models.CharField(max_length=14, choices=Kind.choices)
    name = models.CharField(max_length=80)
    value = models.CharField(max_length=200, blank=True)
    modifier = models.SmallIntegerField(default=0)

    class Meta:
        ordering = ["kind", "pk"]

    def __str__(self) -> str:
        return f"{self.name}: {self.value}"


class PeoplePackage(models.Model):
    """An EZFudge people package the GM defines: traits it adds or changes at creation."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="people_packages")
    name = models.CharField(max_length=80)
    description = models.CharField(max_length=400, blank=True)
    # [{"kind": "role" | "attribute" | "gift" | "fault", "name": ..., "level": int}, ...]
    changes = models.JSONField(default=list, blank=True)
    points = models.SmallIntegerField(default=0)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "name"], name="one_package_of_a_name")
        ]

    def __str__(self) -> str:
        return self.name


class AbilityMarks(models.Model):
    """Peupfudge: what level of an ability the GM counts as poor, decent and great."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="ability_marks")
    ability = models.CharField(max_length=80)
    poor = models.SmallIntegerField()
    decent = models.SmallIntegerField()
    great = models.SmallIntegerField()

    class Meta:
        ordering = ["ability"]
        constraints = [
            models.UniqueConstraint(fields=["campaign", "ability"], name="one_mark_per_ability")
        ]

    def __str__(self) -> str:
        return self.ability
