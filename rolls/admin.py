from django.contrib import admin
from django.http import HttpRequest

from rolls.models import Roll


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
