"""People packages (EZFudge) and ability marks (Peupfudge): the GM's campaign-wide settings."""

import pytest
from django.urls import reverse

from characters.models import AbilityMarks, Character, PeoplePackage
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def ez(owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


@pytest.fixture
def peup(owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="peupfudge")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


PACKAGE = {
    "name": "Dwarf",
    "description": "Stout folk of the deep halls",
    "points": 4,
    "changes": "attribute Body = Good\nrole Miner = Fair\ngift Night vision\nfault Stubborn",
}


def test_owner_defines_a_people_package_and_a_new_character_gets_it(client_for, owner, member, ez):
    response = client_for(owner).post(reverse("characters:packages", args=[ez.pk]), PACKAGE)
    assert response.status_code == 302
    package = PeoplePackage.objects.get(campaign=ez, name="Dwarf")
    assert package.changes[0] == {"kind": "attribute", "name": "Body", "level": 2}

    client_for(member).post(
        reverse("characters:create", args=[ez.pk]), {"name": "Gimra", "people_package": package.pk}
    )
    gimra = Character.objects.get(name="Gimra")
    assert gimra.traits.get(name="Body").level == 2
    assert gimra.traits.get(name="Miner").level == 1
    assert set(gimra.features.values_list("name", flat=True)) == {"Night vision", "Stubborn"}


def test_a_bad_package_line_is_named_and_nothing_is_saved(client_for, owner, ez):
    data = {**PACKAGE, "changes": "attribute Body = Good\nrole Miner = Awesome"}
    response = client_for(owner).post(reverse("characters:packages", args=[ez.pk]), data)
    assert response.status_code == 200
    assert "changes line 2" in response.context["form"].errors["changes"][0]
    assert not PeoplePackage.objects.exists()


def test_a_player_may_not_define_packages(client_for, member, ez):
    url = reverse("characters:packages", args=[ez.pk])
    assert client_for(member).get(url).status_code == 403
    assert client_for(member).post(url, PACKAGE).status_code == 403
    assert not PeoplePackage.objects.exists()


def test_outsider_gets_404_for_packages(client_for, outsider, ez):
    assert client_for(outsider).get(reverse("characters:packages", args=[ez.pk])).status_code == 404


def test_a_package_of_another_campaign_cannot_be_deleted_from_here(client_for, owner, ez):
    other = CampaignFactory(owner=owner, ruleset="ezfudge")
    package = PeoplePackage.objects.create(campaign=other, name="Elf", changes=[])
    url = reverse("characters:package_delete", args=[ez.pk, package.pk])
    assert client_for(owner).post(url).status_code == 404
    assert PeoplePackage.objects.filter(pk=package.pk).exists()


def test_owner_sets_ability_marks_and_they_must_rise(client_for, owner, peup):
    url = reverse("characters:ability_marks", args=[peup.pk])
    client = client_for(owner)
    response = client.post(url, {"ability": "Neurosurgery", "poor": 6, "decent": 4, "great": 9})
    assert "must rise" in response.content.decode()
    client.post(url, {"ability": "Neurosurgery", "poor": 4, "decent": 7, "great": 10})
    marks = AbilityMarks.objects.get(campaign=peup, ability="Neurosurgery")
    assert (marks.poor, marks.decent, marks.great) == (4, 7, 10)


def test_a_player_reads_marks_on_the_sheet_but_may_not_set_them(client_for, member, owner, peup):
    url = reverse("characters:ability_marks", args=[peup.pk])
    assert (
        client_for(member)
        .post(url, {"ability": "Climbing", "poor": 1, "decent": 2, "great": 3})
        .status_code
        == 403
    )
    AbilityMarks.objects.create(campaign=peup, ability="Climbing", poor=1, decent=3, great=6)
    client_for(member).post(reverse("characters:create", args=[peup.pk]), {"name": "Ana"})
    ana = Character.objects.get(name="Ana")
    climbing = ana.traits.get(name="Climbing")
    climbing.level = 4
    climbing.save()
    page = client_for(member).get(reverse("characters:sheet", args=[peup.pk, ana.pk]))
    assert "decent" in page.content.decode()


def test_outsider_gets_404_for_ability_marks(client_for, outsider, peup):
    url = reverse("characters:ability_marks", args=[peup.pk])
    assert client_for(outsider).get(url).status_code == 404
