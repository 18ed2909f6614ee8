from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from campaigns import views as campaign_views
from campaigns.accounts import views as account_views
from characters import account_data_views, copy_views
from fudgetable import auth_backend, offline, views
from rolls.backup import views as backup_views

urlpatterns = [
    path("", account_views.dashboard, name="dashboard"),
    path("signup/", account_views.signup, name="signup"),
    path("login/", account_views.login, name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", account_views.password_change, name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    # A forgotten password: Django's own views, the e-mailed link (or `manage.py reset_link`)
    # leading to a new password, and the person logged in with it.
    path("password/reset/", account_views.password_reset, name="password_reset"),
    path(
        "password/reset/sent/",
        auth_views.PasswordResetDoneView.as_view(
            extra_context={"days": settings.PASSWORD_RESET_TIMEOUT // 86400}
        ),
        name="password_reset_done",
    ),
    path(
        "password/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            post_reset_login=True,
            post_reset_login_backend=auth_backend.PATH,
        ),
        name="password_reset_confirm",
    ),
    path(
        "password/reset/done/",
        auth_views.PasswordResetCompleteView.as_view(),
        name="password_reset_complete",
    ),
    path("account/", account_data_views.account, name="account"),
    path("account/email/", account_data_views.account_email, name="account_email"),
    path("account/language/", account_data_views.account_language, name="account_language"),
    path(
        "account/email/confirm/<str:token>/",
        account_views.email_confirm,
        name="account_email_confirm",
    ),
    path("account/export.json", account_data_views.account_export, name="account_export"),
    path("account/delete/", account_data_views.account_delete_view, name="account_delete"),
    path("characters/", copy_views.my_characters, name="my_characters"),
    path("healthz", views.healthz, name="healthz"),
    # The service worker's scope is the folder it is served from: the root, for every page.
    path("sw.js", offline.service_worker, name="service_worker"),
    path("manifest.webmanifest", offline.manifest, name="manifest"),
    # The campaign's backup is written by rolls (it holds the log, every sheet and the
    # settings), which campaigns may not import: its URLs live here, where the apps meet.
    path("campaigns/restore/", backup_views.campaign_restore_view, name="campaign_restore"),
    path("campaigns/", include("campaigns.urls")),
    path(
        "campaigns/<id:campaign_id>/export.json",
        backup_views.campaign_export,
        name="campaign_export",
    ),
    path("campaigns/<id:campaign_id>/characters/", include("characters.urls")),
    path("campaigns/<id:campaign_id>/table/", include("rolls.urls")),
    path("join/<str:token>/", campaign_views.join, name="join"),
    path("admin/", admin.site.urls),
]

handler403 = "fudgetable.views.forbidden"
handler404 = "fudgetable.views.not_found"
