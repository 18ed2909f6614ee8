from django.contrib.auth.models import User
from django.http import HttpRequest


class AuthenticatedHttpRequest(HttpRequest):
    """The request a @login_required view sees: its user is a real account."""

    user: User
