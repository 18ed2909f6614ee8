from django.urls import path

from campaigns import clock_views, spotlight_views, views
from characters import exchange_views

app_name = "campaigns"
urlpatterns = [
    path("new/", views.campaign_create, name="create"),
    path("<int:campaign_id>/", views.campaign_detail, name="detail"),
    path("<int:campaign_id>/settings/", views.campaign_settings, name="settings"),
    path("<int:campaign_id>/archive/", views.campaign_archive, name="archive"),
    path("<int:campaign_id>/delete/", views.campaign_delete, name="delete"),
    path("<int:campaign_id>/session-zero/", views.session_zero, name="session_zero"),
    path("<int:campaign_id>/invites/", views.invites, name="invites"),
    path(
        "<int:campaign_id>/invites/<int:invite_id>/revoke/",
        views.invite_revoke,
        name="invite_revoke",
    ),
    path(
        "<int:campaign_id>/members/<int:membership_id>/role/",
        views.member_role,
        name="member_role",
    ),
    path(
        "<int:campaign_id>/members/<int:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("<int:campaign_id>/leave/", views.campaign_leave, name="leave"),
    path("<int:campaign_id>/gm-moves/", views.gm_moves, name="gm_moves"),
    path("<int:campaign_id>/export.json", exchange_views.campaign_export, name="export"),
    path(
        "<int:campaign_id>/table/spotlight/",
        spotlight_views.spotlight_section,
        name="spotlight",
    ),
    path(
        "<int:campaign_id>/table/spotlight/move/",
        spotlight_views.spotlight_move,
        name="spotlight_move",
    ),
    path("<int:campaign_id>/table/hand/raise/", spotlight_views.hand_raise, name="hand_raise"),
    path("<int:campaign_id>/table/hand/lower/", spotlight_views.hand_lower, name="hand_lower"),
    path("<int:campaign_id>/table/x-card/", spotlight_views.x_card_tap, name="x_card"),
    # Countdowns and challenge ladders at the table: GM commands (everyone reads the table).
    path(
        "<int:campaign_id>/table/countdowns/",
        clock_views.countdown_create,
        name="countdown_create",
    ),
    path(
        "<int:campaign_id>/table/challenges/",
        clock_views.challenge_create,
        name="challenge_create",
    ),
    *(
        path(
            f"<int:campaign_id>/table/countdowns/<int:countdown_id>/{command}/",
            clock_views.countdown_command,
            {"command": command},
            name=f"countdown_{command}",
        )
        for command in clock_views.COUNTDOWN_COMMANDS
    ),
    *(
        path(
            f"<int:campaign_id>/table/challenges/<int:challenge_id>/{command}/",
            clock_views.challenge_command,
            {"command": command},
            name=f"challenge_{command}",
        )
        for command in clock_views.CHALLENGE_COMMANDS
    ),
]
