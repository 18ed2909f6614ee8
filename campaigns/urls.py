from django.urls import path

from campaigns import views

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
]
