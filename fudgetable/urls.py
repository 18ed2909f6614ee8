from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from fudgetable import views

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("signup/", views.signup, name="signup"),
    path("login/", auth_views.LoginView.as_view(redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("password/", auth_views.PasswordChangeView.as_view(), name="password_change"),
    path(
        "password/done/",
        auth_views.PasswordChangeDoneView.as_view(),
        name="password_change_done",
    ),
    path("healthz", views.healthz, name="healthz"),
    path("campaigns/", include("campaigns.urls")),
    path("admin/", admin.site.urls),
]
