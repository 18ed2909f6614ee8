"""A sheet says the rules' words in its reader's language: a track's name, a box's consequence
and a rules error, translated by the app (fudgetable/rules_words.py) from the rules' own
gettext_noop marks, by the reader's browser or their own choice on their profile."""

import pytest
from django.test import Client
from django.urls import reverse

from campaigns.models import Profile
from characters.models import Character
from characters.services import character_create
from tests.factories import CampaignFactory, MembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def brass(owner, member):
    """An EZFudge campaign (its wound track is "Wounds") with the member's character."""
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    MembershipFactory(campaign=campaign, user=member)
    return character_create(campaign=campaign, owner=member, name="Brannoc")


def sheet(client: Client, character) -> tuple[int, str]:
    response = client.get(reverse("characters:sheet", args=[character.campaign_id, character.pk]))
    return response.status_code, response.content.decode()


def reading(user, language: str = "") -> Client:
    client = Client(headers={"accept-language": language} if language else {})
    client.force_login(user)
    return client


def heading(track: str, words: str) -> str:
    return f'<h2 id="track-{track}-heading" class="track-heading">{words}'


def test_a_player_whose_browser_reads_portuguese_sees_the_wound_track_in_portuguese(member, brass):
    status, page = sheet(reading(member, "pt-BR,pt;q=0.9"), brass)
    assert status == 200
    assert heading("wounds", "Ferimentos") in page
    assert heading("wounds", "Wounds") not in page


def test_the_same_sheet_reads_in_english_for_an_english_browser(member, brass):
    status, page = sheet(reading(member, "en"), brass)
    assert status == 200
    assert heading("wounds", "Wounds") in page


def test_a_gm_who_chose_portuguese_on_their_profile_sees_it_whatever_their_browser(owner, brass):
    Profile.objects.create(user=owner, language="pt-br")
    status, page = sheet(reading(owner, "de"), brass)  # logged in now: the choice is copied
    assert status == 200
    assert heading("wounds", "Ferimentos") in page


def test_an_outsider_sees_no_sheet_in_any_language(outsider, brass):
    status, _ = sheet(reading(outsider, "pt-br"), brass)
    assert status == 404


def test_an_npc_out_of_the_fight_reads_incapacitated_in_portuguese(owner, campaign, command):
    npc = character_create(
        campaign=campaign, owner=None, name="Thug", kind=Character.Kind.NPC, npc_boxes=1
    )
    response = command(owner, npc, "track-box", {"track": "condition", "box": "0:mark"})
    assert response.status_code == 200
    status, page = sheet(reading(owner, "pt-br"), npc)
    assert status == 200
    assert heading("condition", "Condição") in page
    assert '<span class="badge danger">Incapacitado</span>' in page
