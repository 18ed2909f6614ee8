"""fudgetable.rows reads what the ORM reads: the same values through the same converters (a
time with its zone, JSON, a nullable boolean, a foreign key's id), related rows joined in the
same statement, and nothing where a key finds nothing. Runs on SQLite and on PostgreSQL."""

import pytest
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext

from campaigns.models import Campaign, Membership
from characters.models import Character, Feature, Trait
from characters.services import character_create
from fudgetable.rows import insert, row, rows
from rolls.models import Roll
from tests.factories import CampaignFactory, UserFactory

pytestmark = pytest.mark.django_db


def _fields(instance):
    fields = instance._meta.concrete_fields
    return {field.attname: getattr(instance, field.attname) for field in fields}


def test_a_row_reads_as_the_orm_reads_it():
    campaign = CampaignFactory()
    roll = Roll.objects.create(
        campaign=campaign,
        roller=campaign.owner,
        kind=Roll.Kind.CHECK,
        label="Louie: Stealth",
        snapshot={"shown": ["+", "0"], "margin": -1, "lines": [{"name": "é"}]},
        succeeded=None,
        idempotency_key="k",
    )
    read = row(Roll, "main.id = %s", [roll.pk])
    orm = Roll.objects.get(pk=roll.pk)
    assert _fields(read) == _fields(orm)
    assert read.created_at.tzinfo is not None and read.snapshot["lines"][0]["name"] == "é"
    assert read._state.adding is False and read._state.db == "default"
    read.label = "saved again"
    read.save(update_fields=["label"])  # an instance the ORM can save, as its own would be
    assert Roll.objects.get(pk=roll.pk).label == "saved again"


def test_a_joined_row_comes_in_the_same_statement():
    campaign = CampaignFactory()
    player = UserFactory()
    Membership.objects.create(user=player, campaign=campaign, role=Membership.Role.PLAYER)
    with CaptureQueriesContext(connection) as queries:
        membership = row(
            Membership,
            "main.user_id = %s AND main.campaign_id = %s",
            [player.pk, campaign.pk],
            joined=["campaign"],
        )
        assert membership.campaign.name == campaign.name  # no second read for it
    assert len(queries) == 1
    assert _fields(membership) == _fields(Membership.objects.get(user=player, campaign=campaign))
    assert _fields(membership.campaign) == _fields(Campaign.objects.get(pk=campaign.pk))


def test_nothing_found_is_none_and_an_empty_list():
    campaign = CampaignFactory()
    assert row(Membership, "main.user_id = %s AND main.campaign_id = %s", [0, campaign.pk]) is None
    assert rows(Feature, "main.character_id = %s", [0]) == []


def test_rows_keep_their_own_related_rows_apart():
    campaign = CampaignFactory()
    louie = character_create(campaign=campaign, owner=campaign.owner, name="Louie")
    vera = character_create(campaign=campaign, owner=campaign.owner, name="Vera")
    louie_trait = louie.traits.order_by("position").first()
    vera_trait = vera.traits.order_by("position").first()
    found = rows(
        Trait,
        "main.id IN (%s, %s) ORDER BY main.id",
        sorted([louie_trait.pk, vera_trait.pk]),
        joined=["character"],
    )
    names = {trait.pk: trait.character.name for trait in found}
    assert names == {louie_trait.pk: "Louie", vera_trait.pk: "Vera"}
    assert all(isinstance(trait.character, Character) for trait in found)


def test_an_insert_writes_what_save_writes():
    campaign = CampaignFactory()
    fields = {
        "campaign": campaign,
        "roller": campaign.owner,
        "kind": Roll.Kind.CHECK,
        "label": "Louie: Stealth",
        "snapshot": {"shown": ["+", "-"], "name": "Zoë"},
        "succeeded": True,
        "idempotency_key": "inserted",
        "gm_seq": 7,
    }
    inserted = Roll(**fields)
    insert(inserted)
    saved = Roll.objects.create(**{**fields, "idempotency_key": "saved"})
    assert inserted.pk and inserted.pk != saved.pk and inserted._state.adding is False
    read, orm = Roll.objects.get(pk=inserted.pk), Roll.objects.get(pk=saved.pk)
    assert {**_fields(read), "id": 0, "idempotency_key": ""} == {
        **_fields(orm),
        "id": 0,
        "idempotency_key": "",
        "created_at": read.created_at,
    }
    assert read.created_at == inserted.created_at and read.everyone_seq is None


def test_an_insert_that_breaks_a_constraint_raises_as_save_does():
    campaign = CampaignFactory()
    fields = {"campaign": campaign, "roller": campaign.owner, "kind": Roll.Kind.CHECK}
    insert(Roll(**fields, label="once", snapshot={}, idempotency_key="same"))
    with pytest.raises(IntegrityError), transaction.atomic():
        insert(Roll(**fields, label="twice", snapshot={}, idempotency_key="same"))
    assert Roll.objects.filter(idempotency_key="same").count() == 1


def test_an_insert_or_nothing_writes_nothing_where_a_key_is_taken():
    campaign = CampaignFactory()
    fields = {"campaign": campaign, "roller": campaign.owner, "kind": Roll.Kind.CHECK}
    first = Roll(**fields, label="once", snapshot={}, idempotency_key="same")
    assert insert(first, or_nothing=True) and first.pk
    again = Roll(**fields, label="twice", snapshot={}, idempotency_key="same")
    assert insert(again, or_nothing=True) is False
    assert again.pk is None and again._state.adding is True
    assert list(Roll.objects.filter(idempotency_key="same").values_list("label", flat=True)) == [
        "once"
    ]
    Roll.objects.create(**fields, label="after", snapshot={}, idempotency_key="other")  # usable
