"""The Django admin: every model is registered and every page of it loads for a superuser."""

import pytest
from django.apps import apps
from django.contrib import admin
from django.urls import reverse

from campaigns.services import invite_create
from characters import services
from characters.models import AbilityMarks, Character, PeoplePackage
from rolls.models import Picture, Roll, WebhookDelivery
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

OUR_APPS = ("campaigns", "characters", "rolls")
# Edited on their character's page; a whisper's people shown on its log entry's.
INLINED = {"trait", "feature", "gear", "item", "detail", "whispered"}
INLINED |= {"area", "figure", "card"}  # and on their scene's


@pytest.fixture
def superuser():
    return UserFactory(username="root", is_staff=True, is_superuser=True)


@pytest.fixture
def filled(campaign, owner, member):
    """One row of every model, so list pages render rows, not just empty tables."""
    hero = services.character_create(campaign=campaign, owner=member, name="Mira")
    pouch = services.item_add(character=hero, name="Pouch", inside=None)
    services.item_add(character=hero, name="Coin", inside=pouch)
    services.feature_add(character=hero, kind="gift", name="Lucky")
    services.gear_add(character=hero, kind="armor", name="Leather", armor_bonus=1)
    services.detail_add(character=hero, kind="status", name="Tired")
    PeoplePackage.objects.create(campaign=campaign, name="Dwarf", changes=[])
    AbilityMarks.objects.create(campaign=campaign, ability="Strength", poor=1, decent=3, great=5)
    invite_create(campaign=campaign, created_by=owner)
    return hero


def test_every_model_of_our_apps_has_an_admin_or_sits_inline():
    registered = {model._meta.model_name for model in admin.site._registry}
    for app in OUR_APPS:
        for model in apps.get_app_config(app).get_models():
            name = model._meta.model_name
            assert name in registered or name in INLINED, f"{app}.{name} has no admin"


@pytest.mark.parametrize("page", ["changelist", "add"])
def test_superuser_loads_the_list_and_add_page_of_every_registered_model(
    client_for, superuser, filled, page
):
    client = client_for(superuser)
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_{page}")
        # The roll log is append-only, the webhook's outbox its sender's, a picture is kept only
        # through the upload's checks, and django-axes' log-in records are its own to write: none
        # of their admins has an add page.
        read_only = model in (Roll, WebhookDelivery, Picture) or model._meta.app_label == "axes"
        can_add = not (page == "add" and read_only)
        assert client.get(url).status_code == (200 if can_add else 403), url


def test_superuser_opens_a_character_with_all_its_rows_inline(client_for, superuser, filled):
    url = reverse("admin:characters_character_change", args=[filled.pk])
    response = client_for(superuser).get(url)
    assert response.status_code == 200
    body = response.content.decode()
    for row in ("Pouch", "Lucky", "Leather", "Tired", "Athletics"):
        assert row in body


def test_superuser_searches_characters_by_player(client_for, superuser, filled):
    url = reverse("admin:characters_character_changelist")
    response = client_for(superuser).get(url, {"q": "player-member"})
    assert list(response.context["cl"].result_list) == [filled]
    assert Character.objects.count() == 1


def test_a_player_cannot_open_the_admin(client_for, member, outsider):
    url = reverse("admin:characters_character_changelist")
    for user in (member, outsider):
        response = client_for(user).get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("admin:login"))
