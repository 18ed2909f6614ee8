from django.contrib import admin
from django.http import HttpRequest

from rolls.models import (
    Challenge,
    Countdown,
    PlaySession,
    Roll,
    RollCall,
    Spotlight,
    SpotlightSpan,
    TableConnection,
)


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """Read-only: the roll log is append-only, in the admin too (only the GM note changes)."""

    list_display = ["label", "campaign", "kind", "visibility", "succeeded", "created_at"]
    list_filter = ["kind", "visibility"]
    search_fields = ["label", "campaign__name"]
    readonly_fields = [f.name for f in Roll._meta.fields if f.name != "gm_note"]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PlaySession)
class PlaySessionAdmin(admin.ModelAdmin):
    list_display = ["campaign", "number", "started_at", "ended_at"]
    list_filter = ["ended_at"]
    search_fields = ["campaign__name"]


@admin.register(TableConnection)
class TableConnectionAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "seen_at"]
    search_fields = ["campaign__name", "user__username"]


@admin.register(Spotlight)
class SpotlightAdmin(admin.ModelAdmin):
    list_display = ["campaign", "character", "since"]


@admin.register(SpotlightSpan)
class SpotlightSpanAdmin(admin.ModelAdmin):
    list_display = ["session", "character", "started_at", "ended_at"]


@admin.register(Countdown)
class CountdownAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "marked", "boxes", "visibility", "completed_at"]
    list_filter = ["visibility"]
    search_fields = ["name", "campaign__name"]


@admin.register(Challenge)
class ChallengeAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "visibility", "created_at"]
    search_fields = ["name", "campaign__name"]


@admin.register(RollCall)
class RollCallAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "trait", "difficulty", "created_at", "closed_at"]
    search_fields = ["label", "trait", "campaign__name"]


from rolls import scene_admin  # noqa: E402, F401  the scene's rows, registered there
