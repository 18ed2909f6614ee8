from django.contrib import admin

from campaigns.models import Campaign, Invite, Membership, Profile, SessionZero


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Campaign)
class CampaignAdmin(admin.ModelAdmin):
    list_display = ["name", "owner", "language", "created_at"]
    search_fields = ["name", "owner__username"]
    inlines = [MembershipInline]


@admin.register(Membership)
class MembershipAdmin(admin.ModelAdmin):
    list_display = ["campaign", "user", "role", "joined_at"]
    list_filter = ["role"]
    search_fields = ["campaign__name", "user__username"]


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "language"]
    list_filter = ["language"]
    search_fields = ["user__username"]
    raw_id_fields = ["user"]


@admin.register(SessionZero)
class SessionZeroAdmin(admin.ModelAdmin):
    list_display = ["campaign", "updated_at"]
    search_fields = ["campaign__name"]
    list_select_related = ["campaign"]
    raw_id_fields = ["campaign"]


@admin.register(Invite)
class InviteAdmin(admin.ModelAdmin):
    list_display = [
        "campaign",
        "role",
        "created_by",
        "created_at",
        "expires_at",
        "uses",
        "revoked_at",
    ]
    list_filter = ["role"]
    search_fields = ["campaign__name", "created_by__username"]
    list_select_related = ["campaign", "created_by"]
    raw_id_fields = ["campaign", "created_by"]
    readonly_fields = ["created_at"]
