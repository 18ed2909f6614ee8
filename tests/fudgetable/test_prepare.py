"""``manage.py prepare``, scripts/run's first step at every start."""

from datetime import timedelta
from io import StringIO

import pytest
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.utils import timezone

pytestmark = pytest.mark.django_db


def test_a_start_clears_the_sessions_that_expired(settings):
    # Development mode and a server the world reaches: neither the static files nor the demo.
    settings.DEBUG, settings.LOOPBACK_ONLY = True, False
    now = timezone.now()
    Session.objects.create(session_key="x" * 32, session_data="", expire_date=now - timedelta(1))
    Session.objects.create(session_key="y" * 32, session_data="", expire_date=now + timedelta(1))
    call_command("prepare", stdout=StringIO())
    assert list(Session.objects.values_list("session_key", flat=True)) == ["y" * 32]
