from django.contrib import admin
from django.http import HttpRequest

from rolls.models import (
    Challenge,
    Countdown,
    DeclaredAttack,
    PlaySession,
    Roll,
    RollCall,
    Spotlight,
    SpotlightSpan,
    TableConnection,
    TableTalk,
    WebhookDelivery,
    Whispered,
)


class WhisperedInline(admin.TabularInline):
    """Whom a whispered entry reached: read-only, as the entry is."""

    model = Whispered
    extra = 0
    readonly_fields = ["user", "seq"]
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Roll)
class RollAdmin(admin.ModelAdmin):
    """Read-only: the roll log is append-only, in the admin too (only the GM note changes)."""

    list_display = ["label", "campaign", "kind", "visibility", "succeeded", "created_at"]
    list_filter = ["kind", "visibility"]
    search_fields = ["label", "campaign__name"]
    readonly_fields = [f.name for f in Roll._meta.fields if f.name != "gm_note"]
    inlines = [WhisperedInline]

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


@admin.register(DeclaredAttack)
class DeclaredAttackAdmin(admin.ModelAdmin):
    list_display = ["__str__", "campaign", "kind", "created_at", "ended_at", "end"]
    search_fields = ["campaign__name"]


@admin.register(TableTalk)
class TableTalkAdmin(admin.ModelAdmin):
    list_display = ["campaign", "dice_in_hand", "webhook_format"]
    search_fields = ["campaign__name"]


@admin.register(WebhookDelivery)
class WebhookDeliveryAdmin(admin.ModelAdmin):
    """The webhook's outbox, to see what waits and why; its sender alone changes it."""

    list_display = ["campaign", "created_at", "attempts", "sent_at", "failed_at", "last_error"]
    list_filter = ["sent_at", "failed_at"]
    readonly_fields = [f.name for f in WebhookDelivery._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


from rolls.scene import admin as scene_admin  # noqa: E402, F401  the scene's rows, registered there
