"""The GM's NPC roster: who may use it, search and filter, templates, mooks, edits, and what
players may (and may never) see of an NPC."""

from dataclasses import astuple

import pytest
from django.urls import reverse

from characters import services
from characters.models import Character, Feature, Gear, Trait
from characters.npc_templates import TEMPLATES
from fudgetable.rules.errors import RulesError
from fudgetable.rules.rulesets import PRESETS
from fudgetable.rules.sheet import SCHEME_KINDS, level_bounds
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

SECRET = "Vesper Nightshade"


@pytest.fixture
def npc(campaign):
    return services.npc_create(
        campaign=campaign, name="Bandit", template_key="bandit", description="A road robber."
    )


@pytest.fixture
def hidden(campaign):
    npc = services.npc_create(campaign=campaign, name=SECRET, description="The hidden hand.")
    services.trait_add(character=npc, name="Poisoncraft", level=3)
    return update(npc, notes="Secretly the duke's sister.", behaviours=["Poison the wine."])


def update(npc, **changes):
    """Saves the NPC through the roster's service, changing only what is given."""
    values = {
        "version": npc.version,
        "name": npc.name,
        "description": npc.description,
        "notes": npc.notes,
        "behaviours": list(npc.behaviours),
        "npc_boxes": npc.npc_boxes,
    }
    return services.npc_update(npc=npc, **{**values, **changes})


def roster_url(campaign, name="roster", npc=None):
    args = [campaign.pk] if npc is None else [campaign.pk, npc.pk]
    return reverse(f"characters:{name}", args=args)


def edit_data(npc, **changes):
    data = {
        "version": npc.version,
        "name": npc.name,
        "description": npc.description,
        "notes": npc.notes,
        "behaviours": "\n".join(npc.behaviours),
        "npc_boxes": npc.npc_boxes,
    }
    return {**data, **changes}


# --- who may use the roster -------------------------------------------------------------

REQUESTS = {
    "roster": ("get", "roster", False, {}),
    "create": ("post", "npc_create", False, {"name": "Ogre", "npc_boxes": "2"}),
    "edit-form": ("get", "npc_edit", True, {}),
    "edit": ("post", "npc_edit", True, None),
    "duplicate": ("post", "npc_duplicate", True, {"count": "2"}),
    "reveal": ("post", "npc_reveal", True, {"revealed": "1"}),
}


def send(client, campaign, npc, what):
    method, name, on_npc, data = REQUESTS[what]
    url = roster_url(campaign, name, npc if on_npc else None)
    if data is None:
        data = edit_data(npc, name="Bandit chief")
    return getattr(client, method)(url, data)


@pytest.mark.parametrize("what", list(REQUESTS))
def test_the_gm_uses_every_roster_view(client_for, owner, campaign, npc, what):
    response = send(client_for(owner), campaign, npc, what)
    assert response.status_code == (200 if REQUESTS[what][0] == "get" else 302)


@pytest.mark.parametrize("what", list(REQUESTS))
def test_a_player_gets_403_from_every_roster_view(client_for, member, campaign, npc, what):
    before = list(Character.objects.values_list("name", "revealed", "version"))
    response = send(client_for(member), campaign, npc, what)
    assert response.status_code == 403
    assert list(Character.objects.values_list("name", "revealed", "version")) == before


@pytest.mark.parametrize("what", list(REQUESTS))
def test_an_outsider_gets_404_from_every_roster_view(client_for, outsider, campaign, npc, what):
    before = Character.objects.count()
    response = send(client_for(outsider), campaign, npc, what)
    assert response.status_code == 404
    assert Character.objects.count() == before


def test_roster_views_refuse_a_pc_or_another_campaigns_npc(client_for, owner, member, campaign):
    pc = services.character_create(campaign=campaign, owner=member, name="Hero")
    elsewhere = CampaignFactory(owner=owner)
    stranger = services.npc_create(campaign=elsewhere, name="Stranger")
    client = client_for(owner)
    assert client.get(roster_url(campaign, "npc_edit", pc)).status_code == 404
    assert client.post(roster_url(campaign, "npc_reveal", stranger)).status_code == 404


def test_the_campaign_page_links_the_roster_for_gms_only(client_for, owner, member, campaign):
    link = roster_url(campaign)
    assert link in client_for(owner).get(reverse("campaigns:detail", args=[campaign.pk])).text
    assert link not in client_for(member).get(reverse("campaigns:detail", args=[campaign.pk])).text


# --- search and filter ------------------------------------------------------------------


@pytest.fixture
def crowd(campaign):
    wolf = services.npc_create(campaign=campaign, name="Grey wolf", template_key="wolf")
    noble = services.npc_create(campaign=campaign, name="Lady Élodie", description="A schemer.")
    guard = services.npc_create(campaign=campaign, name="Gate guard", template_key="town-guard")
    services.npc_set_revealed(npc=guard, revealed=True)
    return wolf, noble, guard


def names_in(response):
    return [npc.name for npc in response.context["npcs"]]


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("WOLF", ["Grey wolf"]),  # name, any case
        ("SCHEMER", ["Lady Élodie"]),  # description
        ("élodie", ["Lady Élodie"]),  # letters beyond ASCII fold too
        ("whistle", ["Gate guard"]),  # a behaviour
        ("", ["Gate guard", "Grey wolf", "Lady Élodie"]),
        ("dragon", []),
    ],
)
def test_search_matches_name_description_and_behaviours(
    client_for, owner, campaign, crowd, query, expected
):
    response = client_for(owner).get(roster_url(campaign), {"q": query})
    assert response.status_code == 200
    assert names_in(response) == expected


@pytest.mark.parametrize(
    ("shown", "expected"),
    [
        ("revealed", ["Gate guard"]),
        ("hidden", ["Grey wolf", "Lady Élodie"]),
        ("nonsense", ["Gate guard", "Grey wolf", "Lady Élodie"]),
    ],
)
def test_filter_by_revealed_or_hidden(client_for, owner, campaign, crowd, shown, expected):
    response = client_for(owner).get(roster_url(campaign), {"shown": shown})
    assert names_in(response) == expected


def test_search_and_filter_combine(client_for, owner, campaign, crowd):
    response = client_for(owner).get(roster_url(campaign), {"q": "g", "shown": "hidden"})
    assert names_in(response) == ["Grey wolf"]


def test_an_htmx_search_answers_with_the_list_alone(client_for, owner, campaign, crowd):
    response = client_for(owner).get(roster_url(campaign), {"q": "wolf"}, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    assert response.text.lstrip().startswith('<div id="npc-list">')
    assert "Grey wolf" in response.text
    assert "Gate guard" not in response.text
    assert "<html" not in response.text


def test_the_search_box_works_without_javascript_as_a_get_form(client_for, owner, campaign, crowd):
    body = client_for(owner).get(roster_url(campaign), {"q": "wolf"}).text
    assert f'<form method="get" action="{roster_url(campaign)}"' in body
    assert 'value="wolf"' in body
    assert 'hx-target="#npc-list"' in body


# --- creating from templates ------------------------------------------------------------


@pytest.mark.parametrize("ruleset_key", list(TEMPLATES))
def test_every_template_of_every_preset_makes_a_valid_npc(client_for, owner, ruleset_key):
    campaign = CampaignFactory(owner=owner, ruleset=ruleset_key)
    ruleset = PRESETS[ruleset_key]
    low, high = level_bounds(ruleset)
    client = client_for(owner)
    for template in TEMPLATES[ruleset_key]:
        response = client.post(roster_url(campaign, "npc_create"), {"template": template.key})
        assert response.status_code == 302
        npc = Character.objects.get(campaign=campaign, name=template.name)
        assert npc.is_npc and npc.owner is None and not npc.revealed
        assert npc.description == template.description
        assert npc.behaviours == list(template.behaviours)
        assert npc.npc_boxes == template.npc_boxes
        assert npc.tracks["condition"]["boxes"] == [None] * template.npc_boxes
        levels = {t.name: (t.kind, t.level) for t in npc.traits.all()}
        for name, level in template.traits:
            kind, stored = levels[name]
            assert kind in SCHEME_KINDS[ruleset.trait_scheme]
            assert stored == level
        assert all(low <= level <= high for _, level in levels.values())
        assert npc.features.filter(kind=Feature.Kind.GIFT).count() == len(template.gifts)
        assert npc.features.filter(kind=Feature.Kind.FAULT).count() == len(template.faults)
        gear = npc.gear.values_list(
            "kind", "name", "armor_bonus", "damage_factor", "inj", "quality", "ranged"
        )
        assert sorted(gear) == sorted(astuple(g) for g in template.gear)  # as on a sheet
        sheet = client.get(reverse("characters:sheet", args=[campaign.pk, npc.pk]))
        assert sheet.status_code == 200
        for item in template.gear:
            assert item.name in sheet.content.decode()


def test_a_template_trait_missing_from_the_campaigns_list_is_added(campaign):
    npc = services.npc_create(campaign=campaign, name="Wolf", template_key="wolf")
    assert "Melee Combat" in PRESETS["fudge-lite"].trait_list
    athletics = npc.traits.get(name="Athletics")
    assert athletics.level == 3
    fate = CampaignFactory(ruleset="fate")
    informant = services.npc_create(campaign=fate, name="", template_key="informant")
    assert informant.name == "Informant"
    assert informant.traits.get(name="Deceit").kind == Trait.Kind.SKILL
    assert informant.traits.filter(name="Contacting").count() == 1


def test_a_blank_npc_gets_two_boxes_and_the_campaigns_traits(client_for, owner, campaign):
    response = client_for(owner).post(roster_url(campaign, "npc_create"), {"name": "Ogre"})
    assert response.status_code == 302
    npc = Character.objects.get(name="Ogre")
    assert npc.npc_boxes == 2 and npc.behaviours == [] and npc.kind == Character.Kind.NPC
    assert npc.traits.count() == len(PRESETS["fudge-lite"].trait_list)


def test_creating_needs_a_name_or_a_template(client_for, owner, campaign):
    response = client_for(owner).post(roster_url(campaign, "npc_create"), {"name": "  "})
    assert response.status_code == 200
    assert "An NPC needs a name" in response.text
    assert not Character.objects.exists()


def test_a_template_of_another_ruleset_is_refused(campaign):
    with pytest.raises(RulesError) as error:
        services.npc_create(campaign=campaign, name="Thug", template_key="thug")
    assert error.value.setting == "template_key"
    assert not Character.objects.exists()


@pytest.mark.parametrize("boxes", ["0", "5", "-1"])
def test_creating_with_bad_boxes_is_refused_naming_them(client_for, owner, campaign, boxes):
    response = client_for(owner).post(
        roster_url(campaign, "npc_create"), {"name": "Ogre", "npc_boxes": boxes}
    )
    assert response.status_code == 200
    assert response.context["create_form"].errors["npc_boxes"] == [
        "An NPC's track has 1 to 4 boxes"
    ]
    assert "An NPC&#x27;s track has 1 to 4 boxes" in response.text
    assert not Character.objects.exists()


# --- editing ------------------------------------------------------------------------------


def test_the_gm_edits_name_notes_behaviours_and_boxes(client_for, owner, campaign, npc):
    data = edit_data(
        npc,
        name="Bandit chief",
        notes="Owes the guild money.",
        behaviours="Shout orders.\n\n  Take hostages.  \n",
        npc_boxes="4",
    )
    response = client_for(owner).post(roster_url(campaign, "npc_edit", npc), data)
    assert response.status_code == 302
    npc.refresh_from_db()
    assert npc.name == "Bandit chief" and npc.notes == "Owes the guild money."
    assert npc.behaviours == ["Shout orders.", "Take hostages."]
    assert npc.npc_boxes == 4 and npc.tracks["condition"]["boxes"] == [None] * 4
    assert npc.version == 2


def test_changing_boxes_keeps_the_marks_that_still_fit(campaign, npc):
    npc = update(npc, npc_boxes=3)
    services.track_set_box(character=npc, track="condition", box=0, marked=True)
    services.track_set_box(character=npc, track="condition", box=1, marked=True)
    npc.refresh_from_db()
    npc = update(npc, npc_boxes=1)
    boxes = npc.tracks["condition"]["boxes"]
    assert len(boxes) == 1 and boxes[0] is not None


@pytest.mark.parametrize("boxes", [0, 5])
def test_bad_boxes_are_refused_naming_them_and_nothing_changes(
    client_for, owner, campaign, npc, boxes
):
    with pytest.raises(RulesError) as error:
        update(npc, name="Renamed", npc_boxes=boxes)
    assert error.value.setting == "npc_boxes"
    response = client_for(owner).post(
        roster_url(campaign, "npc_edit", npc), edit_data(npc, name="Renamed", npc_boxes=boxes)
    )
    assert response.status_code == 200
    assert response.context["form"].errors["npc_boxes"] == ["An NPC's track has 1 to 4 boxes"]
    npc.refresh_from_db()
    assert npc.name == "Bandit" and npc.npc_boxes == 1 and npc.version == 1


def test_a_stale_edit_is_refused_with_409_and_the_current_values(client_for, owner, campaign, npc):
    stale = edit_data(npc, name="Old form's name")
    update(npc, name="Saved elsewhere", behaviours=["Fresh move."])
    response = client_for(owner).post(roster_url(campaign, "npc_edit", npc), stale)
    assert response.status_code == 409
    assert "saved elsewhere while you were editing" in response.text
    assert 'value="Saved elsewhere"' in response.text
    assert "Fresh move." in response.text
    assert response.context["form"].initial["version"] == 2
    npc.refresh_from_db()
    assert npc.name == "Saved elsewhere"
    with pytest.raises(services.StaleEdit):
        update(npc, version=1, name="x")


def test_too_many_or_too_long_behaviours_are_refused(npc):
    for lines in (["Move."] * (services.MAX_BEHAVIOURS + 1), ["x" * 201]):
        with pytest.raises(RulesError) as error:
            update(npc, behaviours=lines)
        assert error.value.setting == "behaviours"


# --- mooks --------------------------------------------------------------------------------


def test_mooks_are_numbered_copies_with_fresh_tracks(client_for, owner, campaign, npc):
    Gear.objects.create(character=npc, kind=Gear.Kind.WEAPON, name="Club", damage_factor=1)
    services.track_set_box(character=npc, track="condition", box=0, marked=True)
    services.npc_set_revealed(npc=npc, revealed=True)
    client = client_for(owner)
    response = client.post(roster_url(campaign, "npc_duplicate", npc), {"count": "3"})
    assert response.status_code == 302
    copies = list(Character.objects.filter(name__startswith="Bandit ").order_by("name"))
    assert [c.name for c in copies] == ["Bandit 1", "Bandit 2", "Bandit 3"]
    original_traits = sorted(npc.traits.values_list("kind", "name", "level"))
    for copy in copies:
        assert copy.is_npc and not copy.revealed and copy.owner is None
        assert sorted(copy.traits.values_list("kind", "name", "level")) == original_traits
        assert list(copy.features.values_list("kind", "name", "amount", "target")) == list(
            npc.features.values_list("kind", "name", "amount", "target")
        )
        assert list(copy.gear.values_list("name", "damage_factor")) == [("Club", 1)]
        assert copy.behaviours == npc.behaviours
        assert copy.npc_boxes == 1 and copy.tracks == {"condition": {"boxes": [None]}}
    follow = client.get(roster_url(campaign))
    assert "Made 3 of Bandit: Bandit 1 to Bandit 3." in follow.text


def test_mook_numbers_continue_past_existing_copies(campaign, npc):
    services.npc_duplicate(npc=npc, count=2)
    Character.objects.filter(name="Bandit 1").delete()
    services.npc_create(campaign=campaign, name="Bandit chief")
    more = services.npc_duplicate(npc=npc, count=2)
    assert [c.name for c in more] == ["Bandit 3", "Bandit 4"]


@pytest.mark.parametrize("count", ["0", "21", "-3", "many"])
def test_a_bad_mook_count_is_refused_clearly_and_makes_nothing(
    client_for, owner, campaign, npc, count
):
    response = client_for(owner).post(
        roster_url(campaign, "npc_duplicate", npc), {"count": count}, follow=True
    )
    assert response.status_code == 200
    assert "No mooks made" in response.text and "1 to 20" in response.text
    assert Character.objects.count() == 1


def test_the_service_refuses_a_bad_mook_count(npc):
    for count in (0, services.MAX_MOOKS + 1):
        with pytest.raises(RulesError) as error:
            services.npc_duplicate(npc=npc, count=count)
        assert error.value.setting == "count"
    assert len(services.npc_duplicate(npc=npc, count=services.MAX_MOOKS)) == 20


# --- reveal and hide; what players see ----------------------------------------------------


def test_reveal_and_hide_toggle(client_for, owner, campaign, npc):
    client = client_for(owner)
    client.post(roster_url(campaign, "npc_reveal", npc), {"revealed": "1"})
    npc.refresh_from_db()
    assert npc.revealed
    response = client.post(
        roster_url(campaign, "npc_reveal", npc), {"revealed": "0"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert response.text.lstrip().startswith(f'<li class="card" id="npc-{npc.pk}">')
    assert "Reveal" in response.text
    npc.refresh_from_db()
    assert not npc.revealed


def player_pages(client, campaign):
    return [
        client.get(reverse("characters:list", args=[campaign.pk])),
        client.get(reverse("campaigns:detail", args=[campaign.pk])),
        client.get(reverse("characters:create", args=[campaign.pk])),
        client.get(roster_url(campaign)),
    ]


def test_a_hidden_npcs_name_never_reaches_a_player(client_for, member, campaign, hidden):
    client = client_for(member)
    for response in player_pages(client, campaign):
        assert SECRET not in response.text
    sheet = client.get(reverse("characters:sheet", args=[campaign.pk, hidden.pk]))
    assert sheet.status_code == 404
    assert SECRET not in sheet.text


def test_a_revealed_npc_shows_players_only_name_and_description(
    client_for, member, campaign, hidden
):
    services.npc_set_revealed(npc=hidden, revealed=True)
    client = client_for(member)
    listing = client.get(reverse("characters:list", args=[campaign.pk])).text
    assert SECRET in listing and "The hidden hand." in listing
    sheet = client.get(reverse("characters:sheet", args=[campaign.pk, hidden.pk]))
    assert sheet.status_code == 200
    assert SECRET in sheet.text and "The hidden hand." in sheet.text
    for secret in ("Poisoncraft", "duke's sister", "Poison the wine", "Condition"):
        assert secret not in sheet.text and secret not in listing


def test_the_gm_sees_revealed_npcs_on_the_list_too_but_not_hidden_ones(
    client_for, owner, campaign, hidden, npc
):
    services.npc_set_revealed(npc=npc, revealed=True)
    listing = client_for(owner).get(reverse("characters:list", args=[campaign.pk])).text
    assert "Bandit" in listing and SECRET not in listing
    assert roster_url(campaign) in listing


def test_an_outsider_sees_no_npc_at_all(client_for, outsider, campaign, hidden):
    services.npc_set_revealed(npc=hidden, revealed=True)
    client = client_for(outsider)
    assert client.get(reverse("characters:list", args=[campaign.pk])).status_code == 404
    sheet = client.get(reverse("characters:sheet", args=[campaign.pk, hidden.pk]))
    assert sheet.status_code == 404 and SECRET not in sheet.text


def test_another_player_is_just_as_blind(client_for, campaign, hidden):
    other = UserFactory(username="second-player")
    MembershipFactory(campaign=campaign, user=other)
    for response in player_pages(client_for(other), campaign):
        assert SECRET not in response.text
