import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from campaigns.models import Campaign, Membership

pytestmark = pytest.mark.django_db


def test_demo_creates_logins_and_a_table_and_a_second_run_changes_nothing(capsys):
    call_command("demo")
    first = capsys.readouterr().out
    snapshot = (
        list(get_user_model().objects.values_list("username", "password").order_by("username")),
        list(Campaign.objects.values_list("name", "owner__username")),
        list(Membership.objects.values_list("user__username", "role").order_by("user__username")),
    )

    call_command("demo")
    again = (
        list(get_user_model().objects.values_list("username", "password").order_by("username")),
        list(Campaign.objects.values_list("name", "owner__username")),
        list(Membership.objects.values_list("user__username", "role").order_by("user__username")),
    )

    assert again == snapshot
    assert snapshot[2] == [("alice", "player"), ("bob", "player"), ("gm", "gm")]
    assert "fudge-demo" in first
    assert get_user_model().objects.get(username="gm").check_password("fudge-demo")
