from django.contrib.auth.models import User
from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class AuthenticatedHttpRequest(HttpRequest):
    """The request a @login_required view sees: its user is a real account."""

    user: User
    htmx: HtmxDetails
