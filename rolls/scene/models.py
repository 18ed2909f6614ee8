"""The scene at the table: scenes a GM prepares and switches between, their areas and who stands
where, index cards and handouts, and the pictures uploaded for them (``rolls.models`` imports
these, so Django finds them there)."""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from campaigns.models import Campaign

# Board places: each area is a box on a grid this many columns wide (rows as many as needed).
BOARD_COLUMNS = 12
BOARD_ROWS = 12


def picture_token() -> str:
    """What a picture's address names it by: random, so that one address tells nothing of
    another, nor how many pictures the server keeps (its id counts up across every table)."""
    return secrets.token_urlsafe(16)


class PictureManager(models.Manager["Picture"]):
    """Reads a picture without its bytes unless asked (``only("data", ...)``, ``defer(None)``):
    a scene's backdrop or a card's picture is read for its address on every board drawn."""

    def get_queryset(self) -> models.QuerySet["Picture"]:
        return super().get_queryset().defer("data")


class Picture(models.Model):
    """A picture a member uploaded (a backdrop, a card's), as ``pictures`` re-encoded it.

    Kept in the database: every process of scaled mode reaches it there, a campaign's backup
    carries it, and a campaign's pictures are a few megabytes at most (``pictures.MAX_STORED``).
    Served by ``token``, never by its id.
    """

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="pictures")
    token = models.CharField(max_length=32, unique=True, default=picture_token, editable=False)
    data = models.BinaryField()
    content_type = models.CharField(max_length=20)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    size = models.PositiveIntegerField()  # bytes of data
    digest = models.CharField(max_length=64)  # sha256 of data: the picture's ETag
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    objects = PictureManager()

    class Meta:
        ordering = ["created_at", "pk"]
        base_manager_name = "objects"  # a scene's backdrop, read for its token, comes bare too

    def __str__(self) -> str:
        return f"Picture {self.pk} ({self.width}x{self.height})"


class Scene(models.Model):
    """A scene the GM prepares; the current one is on every screen at the table. A fight in
    it counts rounds (``round`` 0: none running) through EZFudge's phases."""

    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="scenes")
    title = models.CharField(max_length=120)
    description = models.TextField(blank=True, max_length=2000)
    backdrop = models.ForeignKey(
        Picture, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    current = models.BooleanField(default=False)
    # When the players first saw it: from then on its backdrop is theirs to load.
    shown_at = models.DateTimeField(null=True, blank=True)
    # {"<area pk>-<area pk>": range key}, the lower pk first (``rules.areas.pair_key``).
    ranges = models.JSONField(default=dict, blank=True)
    player_cards = models.BooleanField(default=False)  # players may add cards here
    round = models.PositiveSmallIntegerField(default=0)
    phase = models.CharField(max_length=8, blank=True)
    # {character pk: rolls made this phase}: "only one die roll per phase" (EZFudge).
    rolled = models.JSONField(default=dict, blank=True)
    # The card on every screen at once, and since when (a new showing opens it again).
    handout = models.ForeignKey(
        "Card", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    handout_at = models.DateTimeField(null=True, blank=True)
    # Where the PCs stand when the scene is shown (None: brought in, not placed yet).
    start_area = models.ForeignKey(
        "Area", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["campaign"], condition=models.Q(current=True), name="one_current_scene"
            )
        ]

    def __str__(self) -> str:
        return self.title


class Area(models.Model):
    """A room, a closet, an arena (EZFudge): its notes, its light and cover for a shot into
    it, and its box on the board. A hidden area is the GMs' until they reveal it."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="areas")
    name = models.CharField(max_length=60)
    notes = models.TextField(blank=True, max_length=500)
    light = models.CharField(max_length=5, default="good")  # a key of rules.ranged.LIGHT
    cover = models.CharField(max_length=8, default="none")  # a key of rules.ranged.COVER
    hidden = models.BooleanField(default=False)
    column = models.PositiveSmallIntegerField(default=1)
    row = models.PositiveSmallIntegerField(default=1)
    width = models.PositiveSmallIntegerField(default=4)
    height = models.PositiveSmallIntegerField(default=2)
    position = models.PositiveSmallIntegerField(default=0)  # its place in the list

    class Meta:
        ordering = ["position", "pk"]

    def __str__(self) -> str:
        return self.name


class Figure(models.Model):
    """A character in a scene, standing in one of its areas (None: not placed yet)."""

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="figures")
    character = models.ForeignKey(
        "characters.Character", on_delete=models.CASCADE, related_name="+"
    )
    area = models.ForeignKey(
        Area, on_delete=models.SET_NULL, null=True, blank=True, related_name="figures"
    )
    moved = models.PositiveSmallIntegerField(default=0)  # areas moved this round

    class Meta:
        ordering = ["pk"]
        constraints = [
            models.UniqueConstraint(fields=["scene", "character"], name="one_figure_a_character")
        ]

    def __str__(self) -> str:
        return f"{self.character} in {self.scene}"


class Card(models.Model):
    """An index card: written ahead by a GM (or by a player where the scene allows), shown to
    GMs alone, to everyone, or to the players chosen; perhaps pinned to an area."""

    class Shown(models.TextChoices):
        GM = "gm", _("GMs only")
        EVERYONE = "everyone", _("Everyone")
        SOME = "some", _("Chosen players")

    scene = models.ForeignKey(Scene, on_delete=models.CASCADE, related_name="cards")
    title = models.CharField(max_length=120)
    text = models.TextField(blank=True, max_length=2000)
    picture = models.ForeignKey(
        Picture, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    area = models.ForeignKey(
        Area, on_delete=models.SET_NULL, null=True, blank=True, related_name="cards"
    )
    shown = models.CharField(max_length=8, choices=Shown.choices, default=Shown.GM)
    people = models.JSONField(default=list, blank=True)  # user pks, when shown to some
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    revealed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["created_at", "pk"]

    def __str__(self) -> str:
        return self.title

    def seen_by(self, user_id: int, *, gm: bool) -> bool:
        """Whether this person sees the card: GMs all; a player one shown to everyone, to
        them, or one they wrote."""
        if gm or self.shown == self.Shown.EVERYONE or self.author_id == user_id:
            return True
        return self.shown == self.Shown.SOME and user_id in self.people
