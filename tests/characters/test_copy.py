"""My characters across campaigns, and copies: a player's PC into another campaign they play
in, a GM's NPC or whole roster into another campaign they run. A copy is a new draft sheet."""

import itertools

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from campaigns.models import Campaign
from characters import services
from characters.exchange import character_to_json
from characters.models import Character
from characters.selectors import sheet_queryset
from characters.services import copying
from fudgetable.rules.rulesets import PRESETS
from tests.characters.test_exchange import full_sheet
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def other(owner, member):
    """A second campaign the owner runs, under EZFudge, where the member plays too."""
    campaign = CampaignFactory(owner=owner, name="Brass and Steam", ruleset="ezfudge")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


@pytest.fixture
def hero(campaign, member):
    hero = services.character_create(campaign=campaign, owner=member, name="Ada")
    services.trait_add(character=hero, kind="trait", name="Body", level=2)
    return hero


def copy_url(character) -> str:
    return reverse("characters:copy", args=[character.campaign_id, character.pk])


def test_my_characters_shows_each_players_pcs_across_campaigns(
    client_for, campaign, other, owner, member, outsider, hero
):
    services.character_create(campaign=other, owner=member, name="Jason Free")
    services.npc_create(campaign=campaign, name="The Keeper", npc_boxes=2)
    page = client_for(member).get(reverse("my_characters"))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Ada" in text and "Jason Free" in text and "Fudge Lite" in text and "EZFudge" in text
    assert copy_url(hero) in text
    assert "The Keeper" not in text and "NPC rosters you run" not in text

    gm = client_for(owner).get(reverse("my_characters")).content.decode()
    assert "Ada" not in gm  # the GM runs the table but does not play Ada
    assert "NPC rosters you run" in gm and "1 NPC" in gm
    assert reverse("characters:roster_copy", args=[campaign.pk]) in gm

    alone = client_for(outsider).get(reverse("my_characters"))
    assert alone.status_code == 200 and "You play no character yet" in alone.content.decode()


def test_a_pc_copied_into_other_rules_shows_what_changes_first(client_for, other, member, hero):
    preview = client_for(member).get(copy_url(hero), {"to": other.pk})
    text = preview.content.decode()
    assert preview.status_code == 200
    assert "Into Brass and Steam (EZFudge)" in text
    assert "From trait to attribute: Body" in text
    assert "Added at Fair: Agility, Mind, Will" in text
    assert Character.objects.filter(campaign=other).count() == 0  # a preview saves nothing

    answer = client_for(member).post(copy_url(hero), {"to": other.pk})
    copy = Character.objects.get(campaign=other)
    assert answer.status_code == 302
    assert answer["Location"] == reverse("characters:sheet", args=[other.pk, copy.pk])
    assert copy.owner == member and copy.stage == Character.Stage.DRAFT and copy.pk != hero.pk
    levels = {t.name: (t.kind, t.level) for t in copy.traits.all()}
    assert levels["Body"] == ("attribute", 2) and levels["Mind"] == ("attribute", 1)
    assert Character.objects.get(pk=hero.pk).campaign_id == hero.campaign_id


def test_only_a_pcs_player_copies_it(client_for, other, owner, outsider, hero):
    assert client_for(owner).get(copy_url(hero)).status_code == 403
    assert client_for(owner).post(copy_url(hero), {"to": other.pk}).status_code == 403
    assert client_for(outsider).get(copy_url(hero)).status_code == 404
    assert client_for(outsider).post(copy_url(hero), {"to": other.pk}).status_code == 404
    assert Character.objects.filter(campaign=other).count() == 0


def test_a_bad_choice_of_campaign_is_answered_in_words(
    client_for, campaign, other, owner, member, hero
):
    watched = CampaignFactory(owner=owner, name="Watched")
    MembershipFactory(campaign=watched, user=member, role="observer")
    for choice in ("99999", "nonsense", str(watched.pk), str(campaign.pk)):
        answer = client_for(member).post(copy_url(hero), {"to": choice})
        assert answer.status_code == 400, choice
        assert "Choose one of the campaigns in the list." in answer.content.decode()
    assert Character.objects.filter(name="Ada").count() == 1

    # With nowhere to copy to (an archived campaign and an observer's seat do not count),
    # the page says so.
    Campaign.objects.filter(pk=other.pk).update(archived_at=timezone.now())
    page = client_for(member).get(copy_url(hero))
    assert "You play or run no other campaign" in page.content.decode()


def test_a_gm_copies_an_npc_and_a_whole_roster(
    client_for, campaign, other, owner, member, outsider
):
    keeper = services.npc_create(campaign=campaign, name="The Keeper", npc_boxes=2)
    services.npc_set_revealed(npc=keeper, revealed=True)
    services.npc_create(campaign=campaign, name="Gull", npc_boxes=1)

    assert client_for(member).get(copy_url(keeper)).status_code == 403  # sees its public face
    roster_url = reverse("characters:roster_copy", args=[campaign.pk])
    assert client_for(member).get(roster_url).status_code == 403
    assert client_for(member).post(roster_url, {"to": other.pk}).status_code == 403
    assert client_for(outsider).get(roster_url).status_code == 404
    assert client_for(outsider).get(copy_url(keeper)).status_code == 404

    answer = client_for(owner).post(copy_url(keeper), {"to": other.pk})
    assert answer.status_code == 302
    copy = Character.objects.get(campaign=other, name="The Keeper")
    assert copy.is_npc and copy.owner is None and not copy.revealed and copy.npc_boxes == 2

    preview = client_for(owner).get(roster_url, {"to": other.pk}).content.decode()
    assert "Gull" in preview and "The Keeper" in preview
    assert client_for(owner).post(roster_url, {"to": other.pk}).status_code == 302
    names = sorted(Character.objects.filter(campaign=other).values_list("name", flat=True))
    assert names == ["Gull", "The Keeper", "The Keeper"]


def test_a_roster_the_new_rules_refuse_in_part_is_not_copied_at_all(
    monkeypatch, campaign, other, owner
):
    services.npc_create(campaign=campaign, name="Gull", npc_boxes=1)
    services.npc_create(campaign=campaign, name="The Keeper", npc_boxes=2)
    checked = copying.read_character

    def refuse_the_keeper(data, target):
        sheet, problems = checked(data, target)
        return (None, ["name: taken"]) if data["name"] == "The Keeper" else (sheet, problems)

    monkeypatch.setattr(copying, "read_character", refuse_the_keeper)
    with pytest.raises(ValidationError) as refused:
        services.roster_copy(source=campaign, campaign=other, by=owner)
    assert refused.value.messages == ["The Keeper: name: taken"]
    assert not Character.objects.filter(campaign=other).exists()


@pytest.mark.parametrize(
    ("source", "target"), [p for p in itertools.permutations(sorted(PRESETS), 2)]
)
def test_a_full_sheet_of_any_rules_copies_into_any_other(source, target, owner, member):
    here = CampaignFactory(owner=owner, ruleset=source)
    there = CampaignFactory(owner=owner, ruleset=target)
    for campaign in (here, there):
        MembershipFactory(campaign=campaign, user=member)
    original = full_sheet(here, member)

    copy = services.character_copy(character=original, campaign=there, by=member)

    copied = character_to_json(sheet_queryset(there).get(pk=copy.pk))
    carried = copying.carried_into(original, there).sheet
    assert copied["traits"] == carried["traits"]
    assert copied["items"] == carried["items"] and copied["notes"] == original.notes
