from django.urls import path

from rolls import fight_views, log_views, views

app_name = "rolls"
urlpatterns = [
    path("", views.table, name="table"),
    path("roll/", views.roll, name="roll"),
    path("odds/", views.odds, name="odds"),
    path("rolls/<int:roll_id>/fudge-point/", views.fudge_point, name="fudge_point"),
    path("rolls/<int:roll_id>/note/", views.note, name="note"),
    path("session/start/", views.session_start, name="session_start"),
    path("session/end/", views.session_end, name="session_end"),
    path("log/", log_views.log, name="log"),
    path("log.md", log_views.export, {"fmt": "md"}, name="log_markdown"),
    path("log.json", log_views.export, {"fmt": "json"}, name="log_json"),
    path("sessions/<int:number>/", log_views.recap, name="recap"),
    path("fight/", fight_views.fight, name="fight"),
    path("fight/<int:roll_id>/confirm/", fight_views.confirm, name="fight_confirm"),
]
