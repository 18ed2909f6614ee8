from django.urls import path

from characters import copy_views, exchange_views, extras, roster, views

app_name = "characters"
urlpatterns = [
    path("", views.character_list, name="list"),
    path("new/", views.character_create, name="create"),
    path("import/", exchange_views.character_import, name="import"),
    path("npcs/", roster.roster, name="roster"),
    path("npcs/new/", roster.npc_create, name="npc_create"),
    path("npcs/copy/", copy_views.roster_copy, name="roster_copy"),
    path("npcs/<id:npc_id>/edit/", roster.npc_edit, name="npc_edit"),
    path("npcs/<id:npc_id>/duplicate/", roster.npc_duplicate, name="npc_duplicate"),
    path("npcs/<id:npc_id>/reveal/", roster.npc_reveal, name="npc_reveal"),
    path("packages/", extras.people_packages, name="packages"),
    path(
        "packages/<id:package_id>/delete/",
        extras.people_package_delete,
        name="package_delete",
    ),
    path("ability-marks/", extras.ability_marks, name="ability_marks"),
    path(
        "ability-marks/<id:marks_id>/delete/",
        extras.ability_marks_delete,
        name="ability_marks_delete",
    ),
    path("<id:character_id>/", views.sheet, name="sheet"),
    path("<id:character_id>/profile/", views.profile, name="profile"),
    path("<id:character_id>/delete/", views.character_delete, name="delete"),
    path("<id:character_id>/take/", views.character_take, name="take"),
    path("<id:character_id>/export.json", exchange_views.character_export, name="export"),
    path("<id:character_id>/copy/", copy_views.character_copy, name="copy"),
    # Last, and right under the sheet: the sheet page builds its forms' URLs as its own URL
    # and the command's name (characters.sheet_page).
    path("<id:character_id>/<slug:command>/", views.sheet_command, name="command"),
]
