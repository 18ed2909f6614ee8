"""Creating a campaign and editing its settings, checked by the rules module."""

import json

import pytest
from django.urls import reverse

from campaigns.models import Campaign

pytestmark = pytest.mark.django_db


def settings_data(campaign: Campaign, **changes: object) -> dict[str, object]:
    data: dict[str, object] = {
        "name": campaign.name,
        "pitch": campaign.pitch,
        "ruleset": campaign.ruleset,
        "version": campaign.version,
    }
    data.update(changes)
    return data


def test_anyone_logged_in_can_create_a_campaign_and_becomes_its_gm(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {
            "name": "Gears of Brass",
            "pitch": "Steam and intrigue.",
            "ruleset": "ezfudge",
            "default_difficulty": "Good",
            "dice": "3d6",
            "fudge_points_per_xp": "4",
        },
    )
    campaign = Campaign.objects.get(name="Gears of Brass")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.owner == outsider
    assert campaign.memberships.get(user=outsider).role == "gm"
    assert campaign.overrides == {"dice": "3d6", "default_difficulty": 2, "fudge_points_per_xp": 4}
    assert campaign.session_zero.lines == ""


def test_a_bad_setting_is_a_form_error_naming_it_and_nothing_is_saved(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Bad Ladder", "ruleset": "fudge-lite", "default_difficulty": "Awesome"},
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "not on the Fudge Lite ladder" in form.errors["default_difficulty"][0]
    assert not Campaign.objects.filter(name="Bad Ladder").exists()


def test_too_many_session_questions_are_refused_beside_the_field(client_for, outsider):
    questions = "\n".join(f"Did you do thing {n}?" for n in range(11))
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Curious", "ruleset": "fudge-lite", "session_questions": questions},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["session_questions"] == ["at most 10 questions"]
    assert not Campaign.objects.filter(name="Curious").exists()


def test_advanced_json_errors_name_the_nested_setting(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {
            "name": "Odd Track",
            "ruleset": "fudge-lite",
            "advanced": json.dumps(
                {"injury_track": {"name": "Injury", "groups": [{"name": "Minor", "boxes": -2}]}}
            ),
        },
    )
    assert response.status_code == 200
    error = response.context["form"].errors["advanced"][0]
    assert error.startswith("injury_track.group.boxes:")
    assert not Campaign.objects.filter(name="Odd Track").exists()


def test_advanced_settings_must_be_json(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Broken", "ruleset": "fudge-lite", "advanced": "{not json"},
    )
    assert "not valid JSON" in response.context["form"].errors["advanced"][0]


def test_a_free_xp_rate_is_refused_beside_the_field(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Generous", "ruleset": "ezfudge", "fudge_points_per_xp": "0"},
    )
    assert response.status_code == 200
    assert response.context["form"].errors["fudge_points_per_xp"]
    assert not Campaign.objects.filter(name="Generous").exists()


def test_overlong_name_is_refused_with_a_message(client_for, outsider):
    response = client_for(outsider).post(
        reverse("campaigns:create"), {"name": "x" * 121, "ruleset": "fudge-lite"}
    )
    assert response.status_code == 200
    assert "at most 120 characters" in response.context["form"].errors["name"][0]


def test_owner_edits_settings_and_the_version_moves_on(client_for, owner, campaign):
    client = client_for(owner)
    page = client.get(reverse("campaigns:settings", args=[campaign.pk]))
    assert page.status_code == 200
    response = client.post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(
            campaign,
            name="The Drowned Lighthouse II",
            last_box="incapacitated",
            xp_on_a_miss="yes",
            trait_list="Athletics\nSailing\n\nLore",
            fudge_point_uses=["reroll", "reduce-condition"],
            key_award="per key",
            session_questions="Did you learn something new?\n\n  Did you make an enemy? ",
        ),
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.name == "The Drowned Lighthouse II"
    assert campaign.version == 2
    assert campaign.overrides == {
        "last_box": "incapacitated",
        "xp_on_a_miss": True,
        "trait_list": ["Athletics", "Sailing", "Lore"],
        "fudge_point_uses": ["reroll", "reduce-condition"],
        "key_award": "per key",
        "session_questions": ["Did you learn something new?", "Did you make an enemy?"],
    }


def test_the_settings_form_shows_the_saved_overrides(client_for, owner, campaign):
    campaign.overrides = {
        "dice": "d%",
        "trait_list": ["Sailing", "Lore"],
        "xp_on_a_miss": False,
        "session_questions": ["Did you?", "Will you?"],
    }
    campaign.save()
    form = client_for(owner).get(reverse("campaigns:settings", args=[campaign.pk])).context["form"]
    assert form.initial["dice"] == "d%"
    assert form.initial["trait_list"] == "Sailing\nLore"
    assert form.initial["xp_on_a_miss"] == "no"
    assert form.initial["session_questions"] == "Did you?\nWill you?"


def test_a_stale_settings_save_is_refused_and_shows_the_current_values(client_for, owner, campaign):
    client = client_for(owner)
    stale = settings_data(campaign, name="From the phone")
    client.post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, name="From the laptop"),
    )
    response = client.post(reverse("campaigns:settings", args=[campaign.pk]), stale)
    assert response.status_code == 409
    assert response.context["form"].initial["name"] == "From the laptop"
    assert "Someone else saved these settings" in response.content.decode()
    campaign.refresh_from_db()
    assert campaign.name == "From the laptop"


def test_member_may_not_open_the_settings(client_for, member, campaign):
    client = client_for(member)
    assert client.get(reverse("campaigns:settings", args=[campaign.pk])).status_code == 403
    response = client.post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_data(campaign, name="Mine")
    )
    assert response.status_code == 403
    campaign.refresh_from_db()
    assert campaign.name == "The Drowned Lighthouse"


def test_outsider_gets_404_for_settings(client_for, outsider, campaign):
    client = client_for(outsider)
    assert client.get(reverse("campaigns:settings", args=[campaign.pk])).status_code == 404
    response = client.post(reverse("campaigns:settings", args=[campaign.pk]), {})
    assert response.status_code == 404


@pytest.mark.parametrize("ruleset", ["fudge-lite", "ezfudge", "fudge-1995", "fate", "peupfudge"])
def test_every_ruleset_can_be_chosen_and_is_summarised(client_for, outsider, ruleset):
    client = client_for(outsider)
    client.post(reverse("campaigns:create"), {"name": f"A {ruleset} game", "ruleset": ruleset})
    campaign = Campaign.objects.get(name=f"A {ruleset} game")
    body = client.get(reverse("campaigns:detail", args=[campaign.pk])).content.decode()
    assert "Default difficulty" in body
    assert campaign.ruleset == ruleset


def test_a_suggested_trait_list_from_the_seeds_fills_a_blank_list(client_for, outsider):
    client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Approaches", "ruleset": "fudge-lite", "suggested_traits": "Approaches"},
    )
    campaign = Campaign.objects.get(name="Approaches")
    assert campaign.overrides["trait_list"] == [
        "Careful",
        "Clever",
        "Flashy",
        "Forceful",
        "Quick",
        "Sneaky",
    ]
