"""Characters as JSON files: export, import (checked against the campaign's rules, all or
nothing), and each sheet in the GM's campaign backup (its restore: tests/rolls)."""

import copy
import json

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from campaigns.services import invite_create
from characters import services
from characters.exchange import CHARACTER_SCHEMA, character_problems, character_to_json
from characters.exchange_views import MAX_BYTES
from characters.models import Character, Detail, Feature, Gear, Item, Trait
from characters.selectors import sheet_queryset
from fudgetable.rules import sheet_tracks
from fudgetable.rules.advancement import peup_step_cost
from fudgetable.rules.rulesets import PRESETS
from fudgetable.rules.sheet import ABILITY, ROLE, SCHEME_KINDS, level_bounds
from tests.factories import CampaignFactory, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db

ROWS = (Character, Trait, Feature, Gear, Item, Detail)


def row_counts() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in ROWS}


def fresh(character: Character) -> Character:
    return sheet_queryset(character.campaign).get(pk=character.pk)


def exported(character: Character) -> dict:
    """The export as a browser receives it: through JSON text and back."""
    return json.loads(json.dumps(character_to_json(fresh(character))))


def full_sheet(campaign, player, *, kind: str = "pc") -> Character:
    """A character with something in every part of the sheet this campaign's rules allow."""
    ruleset = PRESETS[campaign.ruleset]
    character = services.character_create(
        campaign=campaign,
        owner=player,
        name="Ada “Quickhands” Ó Briain",
        kind=kind,
        npc_boxes=3 if kind == "npc" else None,
    )
    trait_kind = SCHEME_KINDS[ruleset.trait_scheme][0]
    low, high = level_bounds(ruleset)
    services.trait_add(
        character=character,
        kind=trait_kind,
        name="Sailing",
        level=min(high, low + 3),
        specialty="Storms" if trait_kind == ROLE else "",
        specialty_required=trait_kind == ROLE,
    )
    first = character.traits.order_by("position").first()
    services.trait_set_level(character=character, trait=first, level=high)
    if trait_kind == ABILITY:
        services.xp_award(character=character, amount=20)
        services.ability_allocate(character=character, trait=first, xp=3)
    services.feature_add(character=character, kind="gift", name="Lucky", target="CPD", amount=1)
    services.feature_add(
        character=character,
        kind="fault",
        name="Greedy",
        target="Persuasion",
        amount=-1,
        situation="near gold",
    )
    services.gear_add(character=character, kind="armor", name="Leather", armor_bonus=1)
    services.gear_add(character=character, kind="weapon", name="Cutlass", damage_factor=2)
    services.gear_add(character=character, kind="weapon", name="Pistol", inj=6, quality=True)
    pack = services.item_add(character=character, name="Backpack", inside=None)
    pouch = services.item_add(character=character, name="Pouch", note="leather", inside=pack)
    services.item_add(character=character, name="Coins", quantity=30, inside=pouch)
    services.item_add(character=character, name="Rope", quantity=2, inside=None)
    services.detail_add(character=character, kind="status", name="Tired", modifier=-1)
    services.detail_add(character=character, kind="property", name="Home", value="Harbour")
    templates = sheet_tracks.sheet_tracks(ruleset, npc_boxes=character.npc_boxes)
    for key in templates:
        services.track_set_box(character=character, track=key, box=0, marked=True)
    Character.objects.filter(pk=character.pk).update(
        description="A smuggler with a conscience.",
        notes="Owes the harbourmaster 40 crowns.",
        mass_scale=1,
        fudge_points=2,
        behaviours=["Bargains hard", "Flees at the first wound"] if kind == "npc" else [],
        revealed=kind == "npc",
    )
    return fresh(character)


def problems_for(data, campaign, *, owner) -> list[str]:
    with pytest.raises(ValidationError) as caught:
        services.character_import(campaign=campaign, owner=owner, data=data)
    return caught.value.messages


# --- round trips ----------------------------------------------------------------------------


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_character_of_every_ruleset_comes_back_from_its_file_unchanged(preset, owner, member):
    campaign = CampaignFactory(owner=owner, ruleset=preset)
    MembershipFactory(campaign=campaign, user=member)
    original = full_sheet(campaign, member)
    data = exported(original)
    assert data["schema"] == CHARACTER_SCHEMA
    assert [item["name"] for item in data["items"][0]["contents"][0]["contents"]] == ["Coins"]

    imported = services.character_import(campaign=campaign, owner=member, data=data)

    assert imported.pk != original.pk
    assert imported.owner == member
    assert exported(imported) == data


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_an_npc_of_every_ruleset_comes_back_for_its_gm(preset, owner):
    campaign = CampaignFactory(owner=owner, ruleset=preset)
    npc = full_sheet(campaign, None, kind="npc")
    data = exported(npc)

    imported = services.character_import(campaign=campaign, owner=owner, data=data)

    assert imported.is_npc and imported.owner is None and imported.npc_boxes == 3
    assert exported(imported) == data


def test_an_export_fits_its_tracks_to_the_campaigns_so_it_imports_back(campaign, member):
    hero = full_sheet(campaign, member)
    Character.objects.filter(pk=hero.pk).update(tracks={"injury": {"boxes": [""]}, "old": {}})
    data = exported(hero)
    assert data["tracks"] == {"injury": {"boxes": ["", None, None, None]}}
    assert character_problems(data, campaign) == []


def test_an_imported_character_is_a_draft_of_the_importing_player(campaign, owner, member):
    data = exported(full_sheet(campaign, owner))
    data["stage"] = "finished"
    imported = services.character_import(campaign=campaign, owner=member, data=data)
    assert imported.stage == Character.Stage.DRAFT
    assert imported.owner == member
    assert imported.exception_note == ""


def test_import_never_trusts_ids_from_another_campaign(owner, member, campaign):
    elsewhere = CampaignFactory(owner=owner, name="Elsewhere")
    theirs = full_sheet(elsewhere, owner)
    data = exported(theirs)
    data["id"] = theirs.pk
    for trait, row in zip(data["traits"], theirs.traits.all(), strict=True):
        trait["id"] = row.pk
    data["items"][0]["id"] = theirs.items.first().pk
    data["items"][0]["contents"][0]["pk"] = theirs.items.last().pk
    before = row_counts()

    imported = services.character_import(campaign=campaign, owner=member, data=data)

    assert imported.campaign == campaign and imported.pk != theirs.pk
    assert row_counts()["Character"] == before["Character"] + 1
    assert fresh(theirs).traits.count() == len(data["traits"])
    assert not Item.objects.filter(character=theirs).exclude(pk__in=theirs.items.all()).exists()
    assert {i.character_id for i in Item.objects.filter(character=imported)} == {imported.pk}


# --- problems ---------------------------------------------------------------------------------


def test_a_file_with_several_problems_reports_them_all_and_creates_nothing(campaign, member):
    data = exported(full_sheet(campaign, member))
    data["name"] = "x" * 121
    data["fudge_points"] = -1
    data["colour"] = "blue"
    data["traits"][3]["level"] = 9
    data["traits"].append({"kind": "skill", "name": "Hacking", "level": 0})
    data["features"][1]["amount"] = -1  # the gift: faults sort first
    data["gear"][1]["inj"] = 5
    data["tracks"] = {"injury": {"boxes": [None]}, "wounds": {"levels": []}}
    deep: dict = {"name": "Box"}
    for _ in range(7):
        deep = {"name": "Box", "contents": [deep]}
    data["items"] = [deep]
    before = row_counts()

    problems = problems_for(data, campaign, owner=member)

    assert problems == [
        "colour: is not part of a character file",
        "name: must be at most 120 characters (it has 121)",
        "fudge_points: must be between 0 and 99",
        "traits[3].level: must be between Terrible and Superb Superhuman on this ladder",
        "traits[9].kind: a Fudge Lite sheet holds only: trait",
        "features[1].amount: a gift only gives bonuses (0 or more)",
        "gear[1]: a weapon has a damage factor or, for a gun, its own INJ: one of them",
        "items[0].contents[0].contents[0].contents[0].contents[0].contents[0].contents: "
        "items nest at most 6 deep",
        "tracks.wounds: sheets at this table have no wounds track; they have injury",
        "tracks.injury.boxes: must be 4 boxes long to fit Injury here",
    ]
    assert row_counts() == before


@pytest.mark.parametrize(
    ("change", "problem"),
    [
        ({"schema": "fudgetable.character/2"}, "schema: this FudgeTable reads"),
        ({"schema": None}, 'schema: a character file says "schema"'),
        ({"kind": "dragon"}, "kind: must be one of pc, npc"),
        ({"xp": 1.5}, "xp: must be a whole number"),
        ({"revealed": "yes"}, "revealed: must be true or false"),
        ({"npc_boxes": 2}, "npc_boxes: only an NPC has a track size of its own"),
        ({"behaviours": ["Sneers"]}, "behaviours: only NPCs have behaviours"),
        ({"traits": "Athletics"}, "traits: must be a list"),
        ({"traits": [{"name": "Athletics", "level": 0}] * 2}, "traits[1].name: Athletics is"),
        ({"features": [{"kind": "fault", "name": "Slow", "amount": 1}]}, "features[0].amount"),
        ({"gear": [{"kind": "armor", "name": "Mail"}]}, "gear[0].armor_bonus: armour needs"),
        ({"items": [{"name": "", "quantity": 0}]}, "items[0].name: must not be empty"),
        ({"details": [{"kind": "mood", "name": "Calm"}]}, "details[0].kind: must be one of"),
        ({"tracks": {"injury": {"boxes": [1, 2, 3, 4]}}}, "tracks.injury.boxes: must be a list"),
    ],
)
def test_each_kind_of_problem_is_named_where_it_is(campaign, member, change, problem):
    data = exported(full_sheet(campaign, member))
    data.update(change)
    problems = character_problems(data, campaign)
    assert any(line.startswith(problem) for line in problems), problems


def test_a_peupfudge_ability_cannot_carry_more_progress_than_its_next_level(owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="peupfudge")
    data = exported(full_sheet(campaign, owner))
    sailing = data["traits"][-1]
    assert (sailing["name"], sailing["level"]) == ("Sailing", 3)
    sailing["progress"] = 10_000
    assert character_problems(data, campaign) == [
        f"traits[{len(data['traits']) - 1}].progress: must be from 0 to {peup_step_cost(3) - 1}"
    ]


def test_an_ezfudge_sheet_keeps_exactly_its_four_attributes(owner):
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    data = exported(full_sheet(campaign, owner))
    data["traits"] = [t for t in data["traits"] if t["name"] != "Will"]
    data["traits"].append({"kind": "attribute", "name": "Luck", "level": 0})
    problems = character_problems(data, campaign)
    assert problems[0].startswith("traits[4].name: the attributes are exactly Body")
    assert problems[1].endswith("missing Will")


def test_a_character_file_for_another_ruleset_is_checked_against_this_one(owner, campaign):
    fate = CampaignFactory(owner=owner, ruleset="fate")
    data = exported(full_sheet(fate, owner))
    problems = character_problems(data, campaign)
    assert "traits[0].kind: a Fudge Lite sheet holds only: trait" in problems


def test_a_player_may_not_import_an_npc(campaign, owner, member):
    data = exported(full_sheet(campaign, None, kind="npc"))
    before = row_counts()
    assert problems_for(data, campaign, owner=member) == ["kind: only a GM can import an NPC"]
    assert row_counts() == before


# --- the import page ------------------------------------------------------------------------


def import_url(campaign) -> str:
    return reverse("characters:import", args=[campaign.pk])


def upload(data: bytes, name: str = "hero.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="application/json")


def test_owner_and_member_see_the_import_page_and_outsider_gets_404(
    client_for, owner, member, outsider, campaign
):
    assert client_for(owner).get(import_url(campaign)).status_code == 200
    assert client_for(member).get(import_url(campaign)).status_code == 200
    assert client_for(outsider).get(import_url(campaign)).status_code == 404
    assert client_for(outsider).post(import_url(campaign), {"text": "{}"}).status_code == 404


def test_an_observer_may_not_import(client_for, campaign):
    observer = MembershipFactory(campaign=campaign, role="observer").user
    data = json.dumps(exported(full_sheet(campaign, observer)))
    before = row_counts()
    assert client_for(observer).get(import_url(campaign)).status_code == 403
    assert client_for(observer).post(import_url(campaign), {"text": data}).status_code == 403
    assert row_counts() == before


def test_member_uploads_a_file_and_lands_on_the_new_sheet(client_for, member, owner, campaign):
    data = json.dumps(exported(full_sheet(campaign, owner))).encode()
    response = client_for(member).post(import_url(campaign), {"file": upload(data)})
    imported = Character.objects.filter(owner=member).get()
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:sheet", args=[campaign.pk, imported.pk])


def test_owner_pastes_an_npc_and_it_joins_the_campaigns_npcs(client_for, owner, campaign):
    data = json.dumps(exported(full_sheet(campaign, None, kind="npc")))
    response = client_for(owner).post(import_url(campaign), {"text": data})
    assert response.status_code == 302
    assert Character.objects.filter(kind="npc", owner=None).count() == 2


def test_the_page_lists_every_problem_and_saves_nothing(client_for, member, campaign):
    data = exported(full_sheet(campaign, member))
    data["xp"] = -5
    data["items"][0]["quantity"] = 0
    before = row_counts()
    response = client_for(member).post(
        import_url(campaign), {"file": upload(json.dumps(data).encode())}
    )
    assert response.status_code == 200
    assert response.context["problems"] == [
        "xp: must be between 0 and 100000",
        "items[0].quantity: must be between 1 and 9999",
    ]
    assert "items[0].quantity: must be between 1 and 9999" in response.content.decode()
    assert row_counts() == before


def test_a_player_is_told_only_gms_import_npcs(client_for, member, campaign):
    data = json.dumps(exported(full_sheet(campaign, None, kind="npc")))
    before = row_counts()
    response = client_for(member).post(import_url(campaign), {"text": data})
    assert response.status_code == 200
    assert response.context["problems"] == ["kind: only a GM can import an NPC"]
    assert row_counts() == before


@pytest.mark.parametrize(
    ("post", "message"),
    [
        ({"file": upload(b"{" + b" " * MAX_BYTES + b"}")}, "over 1 MB"),
        ({"text": '{"a": "' + "x" * MAX_BYTES + '"}'}, "over 1 MB"),
        ({"file": upload(b"name: Ada\nkind: pc\n")}, "That is not JSON: Expecting value at line 1"),
        ({"file": upload("é".encode("latin-1"))}, "not UTF-8 text"),
        ({"text": "[" * 100_000 + "]" * 100_000}, "not JSON a character file could hold"),
        ({"text": "   "}, "Choose a character file or paste its JSON."),
        ({"text": "{}", "file": upload(b"{}")}, "not both"),
        ({"text": "[]"}, "the file must hold one JSON object"),
        ({"text": '{"schema": "fudgetable.character/9"}'}, "not fudgetable.character/9"),
    ],
)
def test_a_bad_upload_gets_a_clear_message_and_nothing_is_saved(
    client_for, member, campaign, post, message
):
    before = row_counts()
    response = client_for(member).post(import_url(campaign), post)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert row_counts() == before


# --- export ---------------------------------------------------------------------------------


def export_url(character: Character) -> str:
    return reverse("characters:export", args=[character.campaign_id, character.pk])


def test_a_pc_exports_for_its_player_and_the_gm_with_the_notes(client_for, owner, member, campaign):
    hero = full_sheet(campaign, member)
    for user in (owner, member):
        response = client_for(user).get(export_url(hero))
        assert response.status_code == 200
        assert response["Content-Type"].startswith("application/json")
        assert response["Content-Disposition"].startswith("attachment;")
        assert "ada-quickhands-o-briain.json" in response["Content-Disposition"]
        assert response.json()["notes"] == "Owes the harbourmaster 40 crowns."


def test_another_player_exports_a_pc_without_its_private_notes(client_for, member, campaign):
    hero = full_sheet(campaign, member)
    other = MembershipFactory(campaign=campaign, user=UserFactory(username="other")).user
    response = client_for(other).get(export_url(hero))
    assert response.status_code == 200
    assert response.json()["notes"] == ""
    assert response.json()["traits"] == exported(hero)["traits"]


def test_outsider_gets_404_for_a_characters_export(client_for, outsider, member, campaign):
    assert client_for(outsider).get(export_url(full_sheet(campaign, member))).status_code == 404


def test_only_the_gm_exports_an_npc(client_for, owner, member, campaign):
    npc = full_sheet(campaign, None, kind="npc")  # revealed, so players see its name
    assert client_for(owner).get(export_url(npc)).status_code == 200
    assert client_for(member).get(export_url(npc)).status_code == 403
    Character.objects.filter(pk=npc.pk).update(revealed=False)
    assert client_for(member).get(export_url(npc)).status_code == 404


def test_sheet_list_and_campaign_pages_link_to_export_and_import(
    client_for, owner, member, campaign
):
    hero = full_sheet(campaign, member)
    sheet = client_for(member).get(reverse("characters:sheet", args=[campaign.pk, hero.pk]))
    assert export_url(hero) in sheet.content.decode()
    listing = client_for(member).get(reverse("characters:list", args=[campaign.pk]))
    assert import_url(campaign) in listing.content.decode()
    backup = reverse("campaign_export", args=[campaign.pk])
    detail = reverse("campaigns:detail", args=[campaign.pk])
    assert backup in client_for(owner).get(detail).content.decode()
    assert backup not in client_for(member).get(detail).content.decode()


# --- campaign backup ------------------------------------------------------------------------


def test_the_gm_backs_up_the_campaign_with_every_character(client_for, owner, member, campaign):
    hero = full_sheet(campaign, member)
    npc = full_sheet(campaign, None, kind="npc")
    response = client_for(owner).get(reverse("campaign_export", args=[campaign.pk]))
    assert response.status_code == 200
    assert "the-drowned-lighthouse.json" in response["Content-Disposition"]
    backup = response.json()
    assert backup["schema"] == "fudgetable.campaign/2"
    assert backup["name"] == "The Drowned Lighthouse"
    assert backup["ruleset"] == "fudge-lite"
    assert backup["session_zero"]["safety_tools"] == []
    assert {(m["username"], m["role"]) for m in backup["members"]} == {
        ("gm-owner", "gm"),
        ("player-member", "player"),
    }
    sheets = {entry["sheet"]["kind"]: entry for entry in backup["characters"]}
    assert sheets["pc"]["player"] == "player-member"
    assert sheets["pc"]["sheet"] == exported(hero)
    assert sheets["npc"]["sheet"] == exported(npc)


def test_a_backup_never_holds_invite_links_or_passwords(client_for, owner, member, campaign):
    invite = invite_create(campaign=campaign, created_by=owner)
    full_sheet(campaign, member)
    body = client_for(owner).get(reverse("campaign_export", args=[campaign.pk])).content.decode()
    assert invite.token not in body
    assert "invite" not in body.lower()
    owner.refresh_from_db()
    member.refresh_from_db()
    for secret in (owner.password, member.password, "password", "md5$"):
        assert secret not in body


def test_a_backup_sheet_imports_as_a_character(client_for, owner, member, campaign):
    full_sheet(campaign, member)
    backup = client_for(owner).get(reverse("campaign_export", args=[campaign.pk])).json()
    sheet = copy.deepcopy(backup["characters"][0]["sheet"])
    assert character_problems(sheet, campaign) == []


def test_control_characters_are_refused_in_every_text_and_nothing_is_saved(
    client_for, owner, campaign
):
    """A NUL byte was a 500 on PostgreSQL and stored as it was on SQLite."""
    data = exported(full_sheet(campaign, None, kind="npc"))
    data["name"] = "Zan\x00zibar"
    data["notes"] = "Owes\x07 the harbourmaster"
    data["traits"][0]["name"] = "Stealth\x1b"
    data["items"][0]["name"] = "Rope\x7f"
    data["behaviours"] = ["Bargains hard", "Flees\x00"]
    before = row_counts()
    response = client_for(owner).post(import_url(campaign), {"text": json.dumps(data)})
    assert response.status_code == 200
    control = "holds a control character (such as a NUL byte)"
    assert sorted(response.context["problems"]) == [
        f"behaviours[1]: {control}",
        f"items[0].name: {control}",
        f"name: {control}",
        f"notes: {control}",
        f"traits[0].name: {control}",
    ]
    assert row_counts() == before


def test_tabs_and_line_breaks_are_kept(owner, member, campaign):
    data = exported(full_sheet(campaign, member))
    data["notes"] = "Owes the harbourmaster:\n\t40 crowns\r\n"
    imported = services.character_import(campaign=campaign, owner=member, data=data)
    assert imported.notes == "Owes the harbourmaster:\n\t40 crowns\r\n"
