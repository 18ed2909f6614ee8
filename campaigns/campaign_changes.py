"""A campaign's row changed (its rules, its name, its deck, its GM moves): its table's sockets,
which hold it for their commands, read it again. Every save meets here; the settings' versioned
``update()`` (``campaign_update``), which sends no signal, says so itself."""

from typing import Any

from django.db.models.signals import post_save

from campaigns.models import Campaign
from fudgetable import live


def _campaign_saved(sender: type, instance: Campaign, created: bool, **_: Any) -> None:
    if not created:  # a new campaign has no socket yet
        live.campaign_changed(instance.pk)


def connect() -> None:
    post_save.connect(_campaign_saved, sender=Campaign, dispatch_uid="campaign-changes")
