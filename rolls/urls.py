from django.urls import path

from rolls import views

app_name = "rolls"
urlpatterns = [
    path("", views.table, name="table"),
    path("roll/", views.roll, name="roll"),
    path("odds/", views.odds, name="odds"),
    path("rolls/<int:roll_id>/fudge-point/", views.fudge_point, name="fudge_point"),
    path("rolls/<int:roll_id>/note/", views.note, name="note"),
    path("session/start/", views.session_start, name="session_start"),
    path("session/end/", views.session_end, name="session_end"),
]
