"""The scene's rows in the admin (``rolls.admin`` imports this): a scene with its areas, figures
and cards inline, and the pictures, read-only (their bytes are what the upload's checks kept)."""

from django.contrib import admin
from django.http import HttpRequest

from rolls.scene.models import Area, Card, Figure, Picture, Scene


class AreaInline(admin.TabularInline):
    model = Area
    extra = 0


class FigureInline(admin.TabularInline):
    model = Figure
    extra = 0
    raw_id_fields = ["character"]


class CardInline(admin.StackedInline):
    model = Card
    extra = 0
    raw_id_fields = ["picture", "author"]


@admin.register(Scene)
class SceneAdmin(admin.ModelAdmin):
    list_display = ["title", "campaign", "current", "round", "created_at"]
    list_filter = ["current"]
    search_fields = ["title", "campaign__name"]
    raw_id_fields = ["backdrop", "handout"]
    inlines = [AreaInline, FigureInline, CardInline]


@admin.register(Picture)
class PictureAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "size", "uploaded_by", "created_at"]
    search_fields = ["campaign__name"]
    exclude = ["data"]
    readonly_fields = ["campaign", "content_type", "width", "height", "size", "digest"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
