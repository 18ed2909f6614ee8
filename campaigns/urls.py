from django.urls import path

from campaigns import table_aid, views

app_name = "campaigns"
urlpatterns = [
    path("new/", views.campaign_create, name="create"),
    path("<id:campaign_id>/", views.campaign_detail, name="detail"),
    path("<id:campaign_id>/settings/", views.campaign_settings, name="settings"),
    path("<id:campaign_id>/archive/", views.campaign_archive, name="archive"),
    path("<id:campaign_id>/delete/", views.campaign_delete, name="delete"),
    path("<id:campaign_id>/session-zero/", views.session_zero, name="session_zero"),
    path("<id:campaign_id>/aid/", table_aid.table_aid_page, name="table_aid"),
    path("<id:campaign_id>/invites/", views.invites, name="invites"),
    path(
        "<id:campaign_id>/invites/<id:invite_id>/revoke/",
        views.invite_revoke,
        name="invite_revoke",
    ),
    path(
        "<id:campaign_id>/members/<id:membership_id>/role/",
        views.member_role,
        name="member_role",
    ),
    path(
        "<id:campaign_id>/members/<id:membership_id>/remove/",
        views.member_remove,
        name="member_remove",
    ),
    path("<id:campaign_id>/leave/", views.campaign_leave, name="leave"),
    path("<id:campaign_id>/gm-moves/", views.gm_moves, name="gm_moves"),
]
