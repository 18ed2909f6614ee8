"""Creating a campaign and editing its settings, checked by the rules module."""

import json
from dataclasses import replace

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.services import character_create
from fudgetable.rules import rulesets
from fudgetable.rules.dice import base as dice_base
from fudgetable.rules.tracks import LITE_INJURY_TRACK, LITE_PENALTY_TRACK
from fudgetable.rules.wounds import EZ_WOUND_TRACK
from rolls.models import Roll
from tests.factories import CampaignFactory, MembershipFactory
from tests.rolls.conftest import roll_form, trait
from tests.rolls.fight_setup import LoadedDice

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


def refused(response, campaign: Campaign, saved: dict[str, object]) -> dict[str, list[str]]:
    """The form's errors, after checking that the page said so and nothing was saved."""
    assert response.status_code == 200
    assert "Nothing was saved" in response.content.decode()
    campaign.refresh_from_db()
    assert (campaign.version, campaign.overrides) == (saved["version"], saved["overrides"])
    return response.context["form"].errors


def as_saved(campaign: Campaign) -> dict[str, object]:
    return {"version": campaign.version, "overrides": dict(campaign.overrides)}


@pytest.fixture
def ez(owner, member):
    campaign = CampaignFactory(owner=owner, name="East March", ruleset="ezfudge")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


def test_the_new_campaign_page_asks_three_questions_and_names_the_defaults(client_for, owner):
    response = client_for(owner).get(reverse("campaigns:create"))
    assert list(response.context["form"].fields) == ["name", "ruleset", "pitch"]
    body = response.content.decode()
    assert "the ruleset's own defaults" in body
    assert "later in Settings" in body
    assert "Create campaign" in body


@pytest.mark.parametrize("who", ["owner", "member", "outsider"])
def test_anyone_logged_in_creates_a_campaign_from_a_name_and_a_ruleset(client_for, who, request):
    user = request.getfixturevalue(who)
    client = client_for(user)
    response = client.post(
        reverse("campaigns:create"), {"name": "Gears of Brass", "ruleset": "ezfudge"}
    )
    campaign = Campaign.objects.get(name="Gears of Brass")
    assert response.status_code == 302
    assert response["Location"] == reverse("campaigns:detail", args=[campaign.pk])
    assert campaign.owner == user
    assert campaign.memberships.get(user=user).role == "gm"
    assert campaign.overrides == {}
    assert rulesets.resolve(campaign.ruleset, campaign.overrides) == rulesets.PRESETS["ezfudge"]
    assert campaign.session_zero.lines == ""
    page = client.get(response["Location"]).content.decode()
    assert "with EZFudge&#x27;s own rules (change any of them in Settings)" in page


def test_a_new_campaign_takes_no_settings_but_its_ruleset_s(client_for, outsider):
    client_for(outsider).post(
        reverse("campaigns:create"),
        {"name": "Gears", "pitch": "Steam.", "ruleset": "fudge-lite", "dice": "3d6"},
    )
    campaign = Campaign.objects.get(name="Gears")
    assert (campaign.pitch, campaign.overrides) == ("Steam.", {})


def test_a_new_campaign_without_a_name_or_ruleset_is_refused(client_for, outsider):
    response = client_for(outsider).post(reverse("campaigns:create"), {"ruleset": "d&d"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert errors["name"] == ["This field is required."]
    assert "not one of the available choices" in errors["ruleset"][0]
    assert not Campaign.objects.exists()


def test_the_settings_page_groups_the_rules_in_plain_words(client_for, owner, campaign):
    body = client_for(owner).get(reverse("campaigns:settings", args=[campaign.pk])).content
    for legend in (
        "The game",
        "Dice and difficulty",
        "Traits",
        "Making characters",
        "Trait slots at each level",
        "Injury track",
        "Fudge points and XP",
        "Session zero options",
    ):
        assert f"<legend>{legend}</legend>" in body.decode()
    assert "Expert settings (JSON)" in body.decode()
    assert "As in Fudge Lite: 4 Fudge dice" in body.decode()


def test_a_bad_setting_is_a_form_error_naming_it_and_nothing_is_saved(client_for, owner, campaign):
    saved = as_saved(campaign)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, default_difficulty="Awesome", dice="3d6"),
    )
    errors = refused(response, campaign, saved)
    assert "not on the Fudge Lite ladder" in errors["default_difficulty"][0]
    assert '<a href="#id_default_difficulty">Default difficulty</a>' in response.content.decode()


def test_too_many_session_questions_are_refused_beside_the_field(client_for, owner, campaign):
    questions = "\n".join(f"Did you do thing {n}?" for n in range(11))
    saved = as_saved(campaign)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, session_questions=questions),
    )
    assert refused(response, campaign, saved)["session_questions"] == ["at most 10 questions"]


def test_a_bad_track_in_the_json_is_named_by_the_path_typed(client_for, owner, campaign):
    """The rules call a bad level "group.boxes"; the GM typed "groups": the message says
    which of the groups they typed."""
    track = LITE_INJURY_TRACK.to_dict()
    track["groups"][1]["boxes"] = -2
    saved = as_saved(campaign)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, advanced=json.dumps({"injury_track": track})),
    )
    (error,) = refused(response, campaign, saved)["advanced"]
    assert error == "injury_track.groups[1].boxes: a condition needs at least one box"
    assert '<a href="#id_advanced">Expert settings (JSON)</a>' in response.content.decode()


def test_a_bad_wound_level_in_the_json_is_named_by_the_path_typed(client_for, owner, ez):
    track = EZ_WOUND_TRACK.to_dict()
    track["levels"][2]["penalty"] = 2
    saved = as_saved(ez)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[ez.pk]),
        settings_data(ez, advanced=json.dumps({"wound_track": track})),
    )
    (error,) = refused(response, ez, saved)["advanced"]
    assert error == "wound_track.levels[2].penalty: a wound level penalty cannot be a bonus"


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("{not json", "This is not valid JSON: Expecting property name enclosed in double quotes"),
        ('["ladder"]', 'Write an object: { "setting": value, … }.'),
        ('{"ladders": "fate"}', "ladders: is not a setting FudgeTable knows"),
        ('{"ladder": "d&d"}', "ladder: unknown ladder 'd&d'; choose one of fudge-lite"),
        ('{"build": {"method": "distribution"}}', "build.distribution: a distribution build"),
    ],
)
def test_bad_expert_json_is_refused_beside_the_box(client_for, owner, campaign, typed, message):
    saved = as_saved(campaign)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_data(campaign, advanced=typed)
    )
    (error,) = refused(response, campaign, saved)["advanced"]
    assert error.startswith(message)


def test_a_free_xp_rate_is_refused_beside_the_field(client_for, owner, ez):
    saved = as_saved(ez)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[ez.pk]), settings_data(ez, fudge_points_per_xp="0")
    )
    assert refused(response, ez, saved)["fudge_points_per_xp"]


def test_wound_penalties_are_plain_fields_that_save_and_come_back(client_for, owner, ez):
    """A table's house rule: Hurt -1, Very Hurt -2, and one more Hurt box."""
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[ez.pk])
    form = client.get(url).context["form"]
    assert [name for name, _, _ in form.tracks[0]["rows"]] == [
        "Scratch",
        "Hurt",
        "Very Hurt",
        "Out of It",
        "Near Death",
    ]
    assert "last_box" not in form.fields  # EZFudge has no injury track
    response = client.post(
        url,
        settings_data(
            ez,
            wound_track_1_penalty="-1",
            wound_track_2_penalty="-2",
            wound_track_1_boxes="3",
            build_points="40",
        ),
    )
    assert response.status_code == 302
    ez.refresh_from_db()
    levels = list(EZ_WOUND_TRACK.levels)
    levels[1] = replace(levels[1], penalty=-1, boxes=3)
    levels[2] = replace(levels[2], penalty=-2)
    assert ez.overrides["wound_track"] == replace(EZ_WOUND_TRACK, levels=tuple(levels)).to_dict()
    assert ez.overrides["build"]["budget"] == 40
    again = client.get(url).context["form"]
    assert again.initial["wound_track_1_penalty"] == -1
    assert again.initial["wound_track_1_boxes"] == 3
    assert again.initial["wound_track_2_penalty"] == -2
    assert again.initial["build_points"] == 40
    assert "advanced" not in again.initial  # nothing left for the expert box


@pytest.mark.parametrize(
    ("field", "value", "label", "message"),
    [
        ("wound_track_1_penalty", "1", "Hurt: penalty", "A penalty is 0 or less"),
        ("wound_track_0_boxes", "0", "Scratch: boxes", "greater than or equal to 1"),
        ("build_points", "500", "Build points for a new character", "less than or equal to 200"),
        ("wound_track_2_penalty", "bad", "Very Hurt: penalty", "Enter a whole number."),
    ],
)
def test_a_bad_plain_value_is_named_by_its_label_and_nothing_is_saved(
    client_for, owner, ez, field, value, label, message
):
    saved = as_saved(ez)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[ez.pk]),
        settings_data(ez, dice="3d6", **{field: value}),
    )
    errors = refused(response, ez, saved)
    assert message in errors[field][0]
    assert f'<a href="#id_{field}">{label}</a>' in response.content.decode()


def test_trait_slots_and_the_way_to_build_are_plain_fields(client_for, owner, campaign):
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[campaign.pk])
    form = client.get(url).context["form"]
    assert [f.label for f in form.slot_fields] == [
        "Superb",
        "Great",
        "Good",
        "Fair",
        "Mediocre",
        "Poor",
    ]
    assert [f.value() for f in form.slot_fields] == [1, 2, 3, 4, 5, 0]
    client.post(url, settings_data(campaign, slots_0="0", slots_1="3"))
    campaign.refresh_from_db()
    assert campaign.overrides["build"]["distribution"] == {
        "slots": [[3, 3], [2, 3], [1, 4], [0, 5]]
    }
    client.post(url, settings_data(campaign, build_method="wushu"))
    campaign.refresh_from_db()
    assert campaign.overrides["build"] == {
        "method": "wushu",
        "distribution": None,
        "budget": 30,
        "starting_xp": 0,
    }
    assert client.get(url).context["form"].initial["build_method"] == "wushu"


def test_starting_xp_is_a_plain_field_for_peupfudge(client_for, owner):
    campaign = CampaignFactory(owner=owner, ruleset="peupfudge")
    url = reverse("campaigns:settings", args=[campaign.pk])
    client_for(owner).post(url, settings_data(campaign, starting_xp="80"))
    campaign.refresh_from_db()
    assert campaign.overrides == {
        "build": {**rulesets.PRESETS["peupfudge"].build.to_dict(), "starting_xp": 80}
    }
    form = client_for(owner).get(url).context["form"]
    assert form.tracks == []  # Peupfudge tracks harm through statuses
    assert form.initial["starting_xp"] == 80


def test_a_track_of_the_gm_s_own_stays_in_the_expert_json(client_for, owner, campaign):
    campaign.overrides = {"injury_track": LITE_PENALTY_TRACK.to_dict(), "last_box": "dies"}
    campaign.save()
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[campaign.pk])
    page = client.get(url)
    form = page.context["form"]
    assert form.tracks == [{"title": "Injury track", "rows": None}]
    assert json.loads(form.initial["advanced"]) == {"injury_track": LITE_PENALTY_TRACK.to_dict()}
    assert form.initial["last_box"] == "dies"
    assert "injury track has levels of its own" in page.content.decode()
    posted = {**form.initial, "version": campaign.version, "dice": "3d6"}
    assert client.post(url, posted).status_code == 302
    campaign.refresh_from_db()
    assert campaign.overrides == {
        "dice": "3d6",
        "injury_track": LITE_PENALTY_TRACK.to_dict(),
        "last_box": "dies",
    }


def test_a_setting_in_the_json_wins_over_its_field_and_then_shows_in_it(
    client_for, owner, campaign
):
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[campaign.pk])
    client.post(url, settings_data(campaign, dice="3d6", advanced='{"dice": "d%"}'))
    campaign.refresh_from_db()
    assert campaign.overrides == {"dice": "d%"}
    form = client.get(url).context["form"]
    assert form.initial["dice"] == "d%"
    assert "advanced" not in form.initial


def test_another_ruleset_brings_its_own_build_and_track(client_for, owner, campaign):
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[campaign.pk])
    client.post(url, settings_data(campaign, injury_track_0_penalty="-1", last_box="dies"))
    campaign.refresh_from_db()
    assert campaign.overrides["injury_track"]["groups"][0]["penalty"] == -1
    response = client.post(
        url,
        settings_data(
            campaign,
            ruleset="ezfudge",
            dice="3d6",
            injury_track_0_penalty="-1",
            last_box="dies",
            slots_0="0",
        ),
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert (campaign.ruleset, campaign.overrides) == ("ezfudge", {"dice": "3d6"})


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
    assert "advanced" not in form.initial
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


def test_a_suggested_trait_list_from_the_seeds_fills_a_blank_list(client_for, owner, campaign):
    client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, suggested_traits="Approaches"),
    )
    campaign.refresh_from_db()
    assert campaign.overrides["trait_list"] == [
        "Careful",
        "Clever",
        "Flashy",
        "Forceful",
        "Quick",
        "Sneaky",
    ]


@pytest.mark.parametrize(("who", "status"), [("member", 403), ("outsider", 404)])
def test_only_a_gm_changes_the_wound_track(client_for, ez, who, status, request):
    saved = as_saved(ez)
    response = client_for(request.getfixturevalue(who)).post(
        reverse("campaigns:settings", args=[ez.pk]),
        settings_data(ez, wound_track_1_penalty="-1"),
    )
    assert response.status_code == status
    ez.refresh_from_db()
    assert (ez.version, ez.overrides) == (saved["version"], saved["overrides"])


def test_the_contest_dice_and_tie_set_here_are_the_ones_an_opposed_roll_uses(
    client_for, owner, member, campaign, monkeypatch
):
    # Fudge 1995 3.5 and Peupfudge 2: each side of a contest rolls, and the ruleset reads a tie.
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]),
        settings_data(campaign, opposed_dice="3dF", opposed_tie="draw"),
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.overrides == {"opposed_dice": "3dF", "opposed_tie": "draw"}
    form = client_for(owner).get(reverse("campaigns:settings", args=[campaign.pk]))
    assert form.context["form"].initial["opposed_dice"] == "3dF"
    assert form.context["form"].initial["opposed_tie"] == "draw"

    hero = character_create(campaign=campaign, owner=member, name="Louie")
    rival = character_create(campaign=campaign, owner=owner, name="Marla")
    mine, theirs = (trait(pc, "Climbing", level=2) for pc in (hero, rival))
    monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice([1, 0, -1, 0, 1, -1]))
    rolled = client_for(member).post(
        reverse("rolls:roll", args=[campaign.pk]),
        roll_form(hero, mine, kind="contest", opponent=rival.pk, opponent_trait=theirs.pk),
    )
    assert rolled.status_code == 302
    contest = Roll.objects.get(kind=Roll.Kind.CONTEST)
    sides = contest.snapshot["sides"]
    assert [side["method_label"] for side in sides] == ["3 Fudge dice", "3 Fudge dice"]
    assert [len(side["shown"]) for side in sides] == [3, 3]
    assert contest.snapshot["relative_degree"] == 0
    assert contest.snapshot["outcome"] == "draw"  # Fudge Lite's own would be a success
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert "Draw by +0" in page


# --- The critical results table (Fudge 1995 3.6: "finish and customize to your tastes") ------


@pytest.fixture
def f95(owner, member):
    campaign = CampaignFactory(owner=owner, name="Verne's Library", ruleset="fudge-1995")
    MembershipFactory(campaign=campaign, user=member)
    return campaign


def settings_page(client, campaign):
    return client.get(reverse("campaigns:settings", args=[campaign.pk]))


def save_settings(client, campaign, **changes):
    return client.post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_data(campaign, **changes)
    )


def test_fudge_1995_shows_its_sample_table_and_saving_it_as_is_stores_nothing(
    client_for, owner, f95
):
    client = client_for(owner)
    page = settings_page(client, f95)
    shown = page.context["form"].initial["critical_table"]
    assert shown.splitlines()[0] == "2: Blinded for the next combat round - no defense or offense!"
    assert shown.splitlines()[-1] == "8: Weapon breaks, but still useful: -1 to damage."
    assert "Critical results table (2d6)" in page.text
    assert save_settings(client, f95, critical_table=shown).status_code == 302
    f95.refresh_from_db()
    assert f95.overrides == {}


def test_a_gm_finishes_the_table_and_its_new_row_is_rolled_at_the_table(
    client_for, owner, member, f95, monkeypatch
):
    client = client_for(owner)
    shown = settings_page(client, f95).context["form"].initial["critical_table"]
    finished = shown + "\n9: Knocked out for a round.\n"
    saved = save_settings(client, f95, criticals="natural", critical_table=finished)
    assert saved.status_code == 302
    f95.refresh_from_db()
    assert f95.overrides["critical_table"][-1] == [9, "Knocked out for a round."]
    again = settings_page(client, f95).context["form"].initial["critical_table"]
    assert again.endswith("9: Knocked out for a round.")
    hero = character_create(campaign=f95, owner=member, name="Verne")
    research = trait(hero, "Research", level=2)
    monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice([1, 1, 1, 1, 4, 5]))
    player = client_for(member)
    rolled = player.post(reverse("rolls:roll", args=[f95.pk]), roll_form(hero, research))
    assert rolled.status_code == 302  # no JavaScript: back to the table, the entry in its log
    assert "Knocked out for a round." in player.get(rolled.url).text
    assert Roll.objects.get().snapshot["critical_row"]["total"] == 9


def test_a_bad_table_line_is_named_beside_the_box_and_nothing_is_saved(client_for, owner, f95):
    saved = as_saved(f95)
    response = save_settings(
        client_for(owner), f95, critical_table="2: Blinded\n\nthirteen: Dead", name="Renamed"
    )
    errors = refused(response, f95, saved)
    assert errors["critical_table"] == [
        'line 3: start with the 2d6 total, then what happens ("2: Blinded")'
    ]
    assert '<a href="#id_critical_table">Critical results table (2d6)</a>' in response.text
    f95.refresh_from_db()
    assert f95.name == "Verne's Library"


def test_emptying_the_box_drops_fudge_1995_s_table(client_for, owner, f95):
    assert save_settings(client_for(owner), f95, critical_table="").status_code == 302
    f95.refresh_from_db()
    assert f95.overrides == {"critical_table": None}
    assert settings_page(client_for(owner), f95).context["form"].initial["critical_table"] == ""


def test_a_fudge_lite_campaign_has_no_table_until_its_gm_writes_one(client_for, owner, campaign):
    client = client_for(owner)
    assert settings_page(client, campaign).context["form"].initial["critical_table"] == ""
    save_settings(client, campaign, critical_table="")
    campaign.refresh_from_db()
    assert campaign.overrides == {}
    save_settings(client, campaign, critical_table="12 - Your foe surrenders.")
    campaign.refresh_from_db()
    assert campaign.overrides == {"critical_table": [[12, "Your foe surrenders."]]}


def test_another_ruleset_with_the_box_left_as_shown_brings_its_own_table(client_for, owner, f95):
    client = client_for(owner)
    shown = settings_page(client, f95).context["form"].initial["critical_table"]
    save_settings(client, f95, ruleset="fudge-lite", critical_table=shown)
    f95.refresh_from_db()
    assert f95.ruleset == "fudge-lite" and f95.overrides == {}


def test_only_the_gm_writes_the_table(client_for, member, outsider, f95):
    for user, status in ((member, 403), (outsider, 404)):
        response = save_settings(client_for(user), f95, critical_table="2: Mine")
        assert response.status_code == status
    f95.refresh_from_db()
    assert f95.overrides == {}


# --- EZFudge medical care: the era ----------------------------------------------------------


def test_the_medical_era_is_one_plain_field_that_saves_and_comes_back(client_for, owner, ez):
    """ezfudge-essentials.txt:389-392, the Era / Frequency table."""
    client = client_for(owner)
    url = reverse("campaigns:settings", args=[ez.pk])
    page = client.get(url)
    assert "As in EZFudge: Fantasy/Medieval: 1 roll a week" in page.content.decode()
    response = client.post(url, settings_data(ez, medical_era="Modern"))
    assert response.status_code == 302
    ez.refresh_from_db()
    assert ez.overrides["medical_era"] == "Modern"
    assert client.get(url).context["form"].initial["medical_era"] == "Modern"


def test_a_bad_medical_era_is_refused_beside_the_field(client_for, owner, ez):
    saved = as_saved(ez)
    response = client_for(owner).post(
        reverse("campaigns:settings", args=[ez.pk]), settings_data(ez, medical_era="Stone Age")
    )
    assert refused(response, ez, saved)["medical_era"]


def test_a_campaign_without_a_wound_track_is_not_asked_its_medical_era(client_for, owner, campaign):
    form = client_for(owner).get(reverse("campaigns:settings", args=[campaign.pk])).context["form"]
    assert "medical_era" not in form.fields
