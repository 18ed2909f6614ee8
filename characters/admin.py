from django.contrib import admin

from characters.models import (
    AbilityMarks,
    Character,
    Detail,
    Feature,
    Gear,
    Item,
    PeoplePackage,
    Trait,
)


class TraitInline(admin.TabularInline):
    model = Trait
    extra = 0


class FeatureInline(admin.TabularInline):
    model = Feature
    extra = 0


class GearInline(admin.TabularInline):
    model = Gear
    extra = 0


class ItemInline(admin.TabularInline):
    model = Item
    extra = 0
    # A select would list every item of every character as a possible container.
    raw_id_fields = ["parent"]


class DetailInline(admin.TabularInline):
    model = Detail
    extra = 0


@admin.register(Character)
class CharacterAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "kind", "owner", "stage", "updated_at"]
    list_filter = ["kind", "stage", "revealed"]
    search_fields = ["name", "campaign__name", "owner__username"]
    list_select_related = ["campaign", "owner"]
    raw_id_fields = ["campaign", "owner"]
    readonly_fields = ["created_at", "updated_at"]
    inlines = [TraitInline, FeatureInline, GearInline, ItemInline, DetailInline]


@admin.register(PeoplePackage)
class PeoplePackageAdmin(admin.ModelAdmin):
    list_display = ["name", "campaign", "points"]
    search_fields = ["name", "campaign__name"]
    list_select_related = ["campaign"]
    raw_id_fields = ["campaign"]


@admin.register(AbilityMarks)
class AbilityMarksAdmin(admin.ModelAdmin):
    list_display = ["ability", "campaign", "poor", "decent", "great"]
    search_fields = ["ability", "campaign__name"]
    list_select_related = ["campaign"]
    raw_id_fields = ["campaign"]
