"""Demo logins and a demo table, so a fresh install has something to play with.

Running it again changes nothing: users and campaigns are looked up by name first.
"""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_create, membership_add

DEMO_PASSWORD = "fudge-demo"
DEMO_GM = "gm"
DEMO_PLAYERS = ("alice", "bob")
DEMO_CAMPAIGN = "Demo: The Drowned Lighthouse"


class Command(BaseCommand):
    help = "Creates the demo GM, demo players and a demo campaign (idempotent)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        users = {}
        for username in (DEMO_GM, *DEMO_PLAYERS):
            user, created = user_model.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save(update_fields=["password"])
            users[username] = user

        campaign = Campaign.objects.filter(owner=users[DEMO_GM], name=DEMO_CAMPAIGN).first()
        if campaign is None:
            campaign = campaign_create(owner=users[DEMO_GM], name=DEMO_CAMPAIGN)
        for username in DEMO_PLAYERS:
            membership_add(campaign=campaign, user=users[username], role=Membership.Role.PLAYER)

        self.stdout.write(f"Demo logins (password for each: {DEMO_PASSWORD}):")
        self.stdout.write(f"  GM:      {DEMO_GM}")
        for username in DEMO_PLAYERS:
            self.stdout.write(f"  player:  {username}")
