from django.urls import path

from characters import exchange_views, extras, roster, views

app_name = "characters"
urlpatterns = [
    path("", views.character_list, name="list"),
    path("new/", views.character_create, name="create"),
    path("import/", exchange_views.character_import, name="import"),
    path("npcs/", roster.roster, name="roster"),
    path("npcs/new/", roster.npc_create, name="npc_create"),
    path("npcs/<int:npc_id>/edit/", roster.npc_edit, name="npc_edit"),
    path("npcs/<int:npc_id>/duplicate/", roster.npc_duplicate, name="npc_duplicate"),
    path("npcs/<int:npc_id>/reveal/", roster.npc_reveal, name="npc_reveal"),
    path("packages/", extras.people_packages, name="packages"),
    path(
        "packages/<int:package_id>/delete/",
        extras.people_package_delete,
        name="package_delete",
    ),
    path("ability-marks/", extras.ability_marks, name="ability_marks"),
    path(
        "ability-marks/<int:marks_id>/delete/",
        extras.ability_marks_delete,
        name="ability_marks_delete",
    ),
    path("<int:character_id>/", views.sheet, name="sheet"),
    path("<int:character_id>/profile/", views.profile, name="profile"),
    path("<int:character_id>/delete/", views.character_delete, name="delete"),
    path("<int:character_id>/export.json", exchange_views.character_export, name="export"),
    path("<int:character_id>/<slug:command>/", views.sheet_command, name="command"),
]
