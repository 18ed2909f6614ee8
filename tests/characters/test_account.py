"""A person's account page: download every character they keep, or delete the account (their
characters go to each campaign's GM or are deleted, as they choose; their rolls stay in the
log, by "a former player")."""

import json

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from characters.models import Character
from characters.services import character_create
from rolls.models import Roll
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-fudge-phrase"


@pytest.fixture
def leaving(campaign):
    """A player with a PC at the campaign and a roll in its log."""
    user = UserFactory(username="leaving-player")
    user.set_password(PASSWORD)
    user.save()
    MembershipFactory(campaign=campaign, user=user)
    pc = character_create(campaign=campaign, owner=user, name="Marisol")
    Roll.objects.create(
        campaign=campaign,
        roller=user,
        character=pc,
        kind="check",
        label="Marisol: Stealth",
        snapshot={},
        idempotency_key="k" * 16,
    )
    return user


def delete(client_for, user, characters="to-gm", password=PASSWORD):
    data = {"characters": characters, "password": password}
    return client_for(user).post(reverse("account_delete"), data)


def test_the_page_shows_each_person_their_own_characters(
    client_for, leaving, owner, member, outsider, campaign
):
    character_create(campaign=campaign, owner=member, name="Louie")
    assert "Marisol" in client_for(leaving).get(reverse("account")).content.decode()
    page = client_for(member).get(reverse("account")).content.decode()
    assert "Louie" in page and "Marisol" not in page
    assert (
        "You keep no characters." in client_for(outsider).get(reverse("account")).content.decode()
    )


def test_the_download_holds_every_own_character_and_no_one_elses(
    client_for, leaving, member, campaign
):
    character_create(campaign=campaign, owner=member, name="Louie")
    response = client_for(leaving).get(reverse("account_export"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="fudgetable-account.json"'
    document = json.loads(response.content)
    assert document["schema"] == "fudgetable.account/1"
    assert document["username"] == "leaving-player"
    assert [(c["campaign"], c["character"]["name"]) for c in document["characters"]] == [
        (campaign.name, "Marisol")
    ]


def test_anonymous_visitors_are_sent_to_log_in(client):
    for name in ("account", "account_export"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and reverse("login") in response.url
    assert client.post(reverse("account_delete")).status_code == 302


def test_deleting_gives_the_characters_to_the_gm_and_keeps_the_rolls(
    client_for, leaving, owner, campaign
):
    response = delete(client_for, leaving)
    assert response.status_code == 302 and response.url == reverse("login")
    assert not User.objects.filter(username="leaving-player").exists()
    assert Character.objects.get(name="Marisol").owner == owner
    roll = Roll.objects.get()
    assert roll.roller is None and roll.character.name == "Marisol"
    log = client_for(owner).get(reverse("rolls:log_json", args=[campaign.pk])).json()
    assert [entry["roller"] for entry in log["rolls"]] == ["a former player"]


def test_deleting_can_take_the_characters_too(client_for, leaving):
    delete(client_for, leaving, characters="delete")
    assert not Character.objects.filter(name="Marisol").exists()
    assert Roll.objects.get().character is None  # the roll stays, with its label
    assert Roll.objects.get().label == "Marisol: Stealth"


def test_a_wrong_password_deletes_nothing(client_for, leaving):
    response = delete(client_for, leaving, password="not-it")
    assert response.status_code == 422
    assert "That is not your password; nothing was deleted." in response.content.decode()
    assert User.objects.filter(username="leaving-player").exists()
    assert Character.objects.get(name="Marisol").owner == leaving


def test_a_campaign_owner_is_told_to_delete_the_campaign_first(client_for, owner, campaign):
    owner.set_password(PASSWORD)
    owner.save()
    response = delete(client_for, owner)
    assert response.status_code == 409
    assert f"you own {campaign.name}: delete each campaign first" in response.content.decode()
    assert User.objects.filter(pk=owner.pk).exists()


def test_another_campaigns_gm_gets_that_campaigns_characters(client_for, leaving, campaign):
    elsewhere = CampaignFactory(name="The East March")
    MembershipFactory(campaign=elsewhere, user=leaving)
    character_create(campaign=elsewhere, owner=leaving, name="Tomas")
    delete(client_for, leaving)
    assert Character.objects.get(name="Tomas").owner == elsewhere.owner
    assert Character.objects.get(name="Marisol").owner == campaign.owner
