"""Building and keeping a character sheet through the sheet's small commands."""

import pytest
from django.urls import reverse

from characters.commands import COMMANDS
from characters.models import Character, Trait
from characters.services import character_create
from tests.factories import CampaignFactory, MembershipFactory
from tests.rolls.conftest import set_rules

pytestmark = pytest.mark.django_db


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def level_of(character: Character, name: str) -> int:
    return character.traits.get(name=name).level


# --- creating and reading --------------------------------------------------------------


def test_member_creates_a_character_with_the_campaigns_traits_at_poor(client_for, member, campaign):
    response = client_for(member).post(
        reverse("characters:create", args=[campaign.pk]), {"name": "Mira"}
    )
    mira = Character.objects.get(name="Mira")
    assert response["Location"] == reverse("characters:sheet", args=[campaign.pk, mira.pk])
    assert mira.owner == member
    assert mira.fudge_points == 3
    assert set(mira.traits.values_list("level", flat=True)) == {-1}
    assert "Stealth" in mira.traits.values_list("name", flat=True)
    assert mira.tracks == {"injury": {"boxes": [None, None, None, None]}}


def test_owner_creates_a_character_too(client_for, owner, campaign):
    client_for(owner).post(reverse("characters:create", args=[campaign.pk]), {"name": "GM's own"})
    assert Character.objects.filter(name="GM's own", owner=owner).exists()


def test_an_observer_cannot_create_a_character(client_for, campaign):
    observer = MembershipFactory(campaign=campaign, role="observer").user
    url = reverse("characters:create", args=[campaign.pk])
    assert client_for(observer).post(url, {"name": "Nope"}).status_code == 403
    assert not Character.objects.filter(name="Nope").exists()


def test_outsider_cannot_create_or_list_characters(client_for, outsider, campaign):
    client = client_for(outsider)
    assert (
        client.post(reverse("characters:create", args=[campaign.pk]), {"name": "X"}).status_code
        == 404
    )
    assert client.get(reverse("characters:list", args=[campaign.pk])).status_code == 404


@pytest.mark.parametrize(
    ("ruleset", "kinds"),
    [
        ("fudge-lite", {"trait"}),
        ("fudge-1995", {"trait"}),
        ("fate", {"skill"}),
        ("ezfudge", {"attribute"}),
        ("peupfudge", {"ability"}),
    ],
)
def test_a_new_sheet_follows_the_rulesets_trait_scheme(owner, ruleset, kinds):
    campaign = CampaignFactory(owner=owner, ruleset=ruleset)
    character = character_create(campaign=campaign, owner=owner, name="New")
    assert set(character.traits.values_list("kind", flat=True)) == kinds


def test_ezfudge_sheet_shows_derived_values_computed_by_the_rules(client_for, owner, command):
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    jason = character_create(campaign=campaign, owner=owner, name="Jason Free")
    body = jason.traits.get(name="Body")
    command(owner, jason, "trait-level", {"trait": body.pk, "level": 3})
    command(owner, jason, "gear-add", {"kind": "armor", "name": "Leather", "armor_bonus": 1})
    command(
        owner, jason, "gear-add", {"kind": "weapon", "name": "Quarterstaff", "damage_factor": 2}
    )
    command(
        owner,
        jason,
        "feature-add",
        {"kind": "gift", "name": "Toughness", "amount": 1, "target": "CPD"},
    )
    for name in ("Agility", "Mind", "Will"):
        command(owner, jason, "trait-level", {"trait": jason.traits.get(name=name).pk, "level": 2})
    page = client_for(owner).get(reverse("characters:sheet", args=[campaign.pk, jason.pk]))
    derived = dict(page.context["derived"])
    assert derived == {
        "Resilience": "+2",
        "Reflexes": "+2",
        "CPD": "4",
        "INJ · Quarterstaff": "5",
    }


def test_every_member_reads_a_pc_but_only_its_player_and_gms_may_change_it(
    client_for, hero, owner, member, other_player
):
    url = reverse("characters:sheet", args=[hero.campaign_id, hero.pk])
    assert client_for(member).get(url).context["editable"] is True
    assert client_for(owner).get(url).context["editable"] is True
    page = client_for(other_player).get(url)
    assert page.status_code == 200
    assert page.context["editable"] is False
    assert "Spend 1" not in page.content.decode()


def test_outsider_gets_404_for_a_sheet(client_for, outsider, hero):
    url = reverse("characters:sheet", args=[hero.campaign_id, hero.pk])
    assert client_for(outsider).get(url).status_code == 404


def test_a_sheet_from_another_campaign_is_a_404(client_for, member, hero, owner):
    elsewhere = CampaignFactory(owner=owner)
    MembershipFactory(campaign=elsewhere, user=member)
    url = reverse("characters:sheet", args=[elsewhere.pk, hero.pk])
    assert client_for(member).get(url).status_code == 404


# --- commands: who may send them ----------------------------------------------------------


def test_player_sets_a_trait_level_on_their_own_sheet(command, member, hero):
    """A level chosen from the list saves itself: the answer is the sheet's live parts and a
    notice saying what changed, with an Undo that puts the old level back."""
    stealth = hero.traits.get(name="Stealth")
    was = stealth.level
    response = command(member, hero, "trait-level", {"trait": stealth.pk, "level": 2})
    assert response.status_code == 200
    assert response["HX-Reswap"] == "none"
    page = response.content.decode()
    assert 'id="trait-list"' in page and 'id="build"' in page
    undo_url = reverse("characters:command", args=[hero.campaign_id, hero.pk, "trait-level"])
    notice = page[page.index('id="sheet-messages"') : page.index('id="vitals"')]
    assert "Stealth: Good (+2), was " in notice
    assert f'action="{undo_url}"' in notice and f'name="level" value="{was}"' in notice
    assert level_of(hero, "Stealth") == 2

    command(member, hero, "trait-level", {"trait": stealth.pk, "level": was})
    assert level_of(hero, "Stealth") == was


def test_a_level_set_without_javascript_says_what_changed(client_for, member, hero):
    stealth = hero.traits.get(name="Stealth")
    url = reverse("characters:command", args=[hero.campaign_id, hero.pk, "trait-level"])
    response = client_for(member).post(url, {"trait": stealth.pk, "level": 3}, follow=True)
    assert response.redirect_chain[-1][0].endswith(f"/characters/{hero.pk}/")
    assert "Stealth: Great (+3), was " in response.content.decode()
    assert level_of(hero, "Stealth") == 3


def test_gm_sets_a_trait_level_on_a_players_sheet(command, owner, hero):
    stealth = hero.traits.get(name="Stealth")
    command(owner, hero, "trait-level", {"trait": stealth.pk, "level": 3})
    assert level_of(hero, "Stealth") == 3


def test_another_player_may_not_change_the_sheet(command, other_player, hero):
    stealth = hero.traits.get(name="Stealth")
    response = command(other_player, hero, "trait-level", {"trait": stealth.pk, "level": 4})
    assert response.status_code == 403
    assert level_of(hero, "Stealth") == -1


def test_outsider_gets_404_for_sheet_commands(command, outsider, hero):
    stealth = hero.traits.get(name="Stealth")
    response = command(outsider, hero, "trait-level", {"trait": stealth.pk, "level": 4})
    assert response.status_code == 404
    assert level_of(hero, "Stealth") == -1


def test_an_unknown_command_is_a_404(command, member, hero):
    assert command(member, hero, "make-awesome").status_code == 404


def test_without_javascript_a_command_redirects_back_to_the_sheet(command, member, hero):
    stealth = hero.traits.get(name="Stealth")
    response = command(member, hero, "trait-level", {"trait": stealth.pk, "level": 1}, htmx=False)
    assert response.status_code == 302
    assert response["Location"] == reverse("characters:sheet", args=[hero.campaign_id, hero.pk])
    assert level_of(hero, "Stealth") == 1


# --- commands: bad input -----------------------------------------------------------------


def test_a_level_off_the_ladder_is_refused_with_a_message(command, member, hero):
    stealth = hero.traits.get(name="Stealth")
    response = command(member, hero, "trait-level", {"trait": stealth.pk, "level": 9})
    assert response.status_code == 200
    assert "between Terrible and Superb Superhuman" in messages_of(response)[0]
    assert level_of(hero, "Stealth") == -1


def test_a_trait_of_another_sheet_is_refused(command, member, hero, campaign):
    stranger = character_create(campaign=CampaignFactory(), owner=None, name="Elsewhere")
    foreign = stranger.traits.first()
    response = command(member, hero, "trait-level", {"trait": foreign.pk, "level": 2})
    assert messages_of(response) == ["no such trait on this sheet"]
    foreign.refresh_from_db()
    assert foreign.level == -1


def test_garbage_input_gets_a_message_not_a_500(command, member, hero):
    response = command(member, hero, "track-box", {"track": "injury", "box": "lots"})
    assert response.status_code == 200
    assert messages_of(response) == ["box: not a box of this track"]
    response = command(member, hero, "track-box", {"track": "injury", "box": "40:mark"})
    assert response.status_code == 200
    assert messages_of(response)


def test_overlong_names_are_refused(command, member, hero):
    response = command(member, hero, "trait-add", {"name": "x" * 81, "level": 0})
    assert "at most 80 characters" in messages_of(response)[0]
    assert not hero.traits.filter(name__startswith="xxx").exists()


def test_a_duplicate_trait_is_refused(command, member, hero):
    response = command(member, hero, "trait-add", {"name": "stealth", "level": 0})
    assert messages_of(response) == ["Stealth is already on this sheet"]


# --- building and advancement ------------------------------------------------------------


def test_finishing_is_refused_while_the_build_breaks_a_rule(command, member, owner, hero):
    for name in ("Stealth", "Athletics"):
        command(member, hero, "trait-level", {"trait": hero.traits.get(name=name).pk, "level": 4})
    response = command(member, hero, "finish")
    assert "2 Superb traits but only 1 slot" in messages_of(response)[0]
    hero.refresh_from_db()
    assert hero.stage == "draft"

    command(owner, hero, "exception", {"note": "Twins of legend"})
    command(member, hero, "finish")
    hero.refresh_from_db()
    assert hero.stage == "finished"


def test_the_sheet_shows_what_is_left_to_build(client_for, member, hero, command):
    command(member, hero, "trait-level", {"trait": hero.traits.get(name="Stealth").pk, "level": 4})
    page = client_for(member).get(reverse("characters:sheet", args=[hero.campaign_id, hero.pk]))
    assert "2 Great slots left" in page.context["build"].left


def test_a_player_may_not_reset_levels_once_finished_but_may_spend_xp(command, member, owner, hero):
    stealth = hero.traits.get(name="Stealth")
    command(member, hero, "trait-level", {"trait": stealth.pk, "level": 1})
    command(member, hero, "finish")
    response = command(member, hero, "trait-level", {"trait": stealth.pk, "level": 3})
    assert "spend XP" in messages_of(response)[0]
    assert level_of(hero, "Stealth") == 1

    command(owner, hero, "xp", {"amount": 3})
    command(member, hero, "trait-advance", {"trait": stealth.pk})
    hero.refresh_from_db()
    assert level_of(hero, "Stealth") == 2  # Fair -> Good costs 2 XP
    assert hero.xp == 1
    response = command(member, hero, "trait-advance", {"trait": stealth.pk})
    assert "needs 4 XP, has 1" in messages_of(response)[0]


def test_only_the_gm_awards_xp(command, member, owner, hero):
    assert command(member, hero, "xp", {"amount": 5}).status_code == 403
    command(owner, hero, "xp", {"amount": 5})
    hero.refresh_from_db()
    assert hero.xp == 5


def test_superhuman_needs_the_gms_permission(command, member, owner, hero):
    stealth = hero.traits.get(name="Stealth")
    command(member, hero, "trait-level", {"trait": stealth.pk, "level": 4})
    command(owner, hero, "xp", {"amount": 20})
    response = command(member, hero, "trait-advance", {"trait": stealth.pk})
    assert "GM" in messages_of(response)[0]
    assert level_of(hero, "Stealth") == 4
    command(owner, hero, "trait-advance", {"trait": stealth.pk})
    assert level_of(hero, "Stealth") == 5


def test_peupfudge_xp_goes_toward_an_ability_and_counts_as_spent(command, owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="peupfudge")
    MembershipFactory(campaign=campaign, user=member)
    sage = character_create(campaign=campaign, owner=member, name="Sage")
    assert sage.xp == 50
    climbing = sage.traits.get(name="Climbing")
    command(member, sage, "ability-allocate", {"trait": climbing.pk, "xp": 21})
    climbing.refresh_from_db()
    sage.refresh_from_db()
    assert (climbing.level, climbing.progress, sage.xp) == (4, 6, 29)


def test_ezfudge_gifts_bought_with_xp_need_the_gm(command, owner, member):
    campaign = CampaignFactory(owner=owner, ruleset="ezfudge")
    MembershipFactory(campaign=campaign, user=member)
    jo = character_create(campaign=campaign, owner=member, name="Jo")
    command(owner, jo, "xp", {"amount": 10})
    response = command(member, jo, "feature-add", {"kind": "gift", "name": "Lucky", "pay_xp": "on"})
    assert "needs the GM" in messages_of(response)[0]
    command(owner, jo, "feature-add", {"kind": "gift", "name": "Lucky", "pay_xp": "on"})
    jo.refresh_from_db()
    assert jo.xp == 2
    assert jo.features.filter(name="Lucky").exists()


# --- points, tracks, inventory ------------------------------------------------------------


def test_fudge_points_never_go_below_zero_and_only_the_gm_hands_them_out(
    command, member, owner, hero
):
    for _ in range(3):
        command(member, hero, "fudge-points", {"by": -1})
    response = command(member, hero, "fudge-points", {"by": -1})
    assert messages_of(response) == ["no Fudge points left to spend"]
    response = command(member, hero, "fudge-points", {"by": 1})
    assert messages_of(response) == ["only the GM hands out Fudge points"]
    command(owner, hero, "fudge-points", {"by": 1})
    hero.refresh_from_db()
    assert hero.fudge_points == 1


def test_taps_from_two_stale_pages_neither_double_nor_undo_each_other(command, member, owner, hero):
    # Both devices show an empty track, and both mark the first box for the same hit.
    command(member, hero, "track-box", {"track": "injury", "box": "0:mark"})
    command(owner, hero, "track-box", {"track": "injury", "box": "0:mark"})
    hero.refresh_from_db()
    assert hero.tracks["injury"]["boxes"] == ["", None, None, None]
    # A second hit on the next box, then both devices clear the first box.
    command(owner, hero, "track-box", {"track": "injury", "box": "1:mark"})
    command(member, hero, "track-box", {"track": "injury", "box": "0:clear"})
    command(owner, hero, "track-box", {"track": "injury", "box": "0:clear"})
    hero.refresh_from_db()
    assert hero.tracks["injury"]["boxes"] == [None, "", None, None]


def test_a_mark_on_an_in_order_track_fills_the_boxes_before_it(command, member, hero):
    command(member, hero, "track-box", {"track": "injury", "box": "2:mark"})
    hero.refresh_from_db()
    assert hero.tracks["injury"]["boxes"] == ["", "", "", None]


def test_healing_is_not_a_sheet_command_so_it_always_reaches_the_log(command, member, hero):
    """Tending and resting are written in the table's log (tests/rolls/fight/test_healing.py); the
    sheet's own command that healed silently is gone."""
    for box in range(3):
        command(member, hero, "track-box", {"track": "injury", "box": f"{box}:mark"})
    response = command(member, hero, "track-heal", {"track": "injury", "action": "tend"})
    assert response.status_code == 404
    hero.refresh_from_db()
    assert hero.tracks["injury"]["boxes"] == ["", "", "", None]


def test_items_nest_and_cannot_go_inside_themselves(command, member, hero):
    command(member, hero, "item-add", {"name": "Backpack", "quantity": 1})
    backpack = hero.items.get(name="Backpack")
    command(member, hero, "item-add", {"name": "Pouch", "quantity": 1, "inside": backpack.pk})
    pouch = hero.items.get(name="Pouch")
    response = command(member, hero, "item-move", {"item": backpack.pk, "inside": pouch.pk})
    assert messages_of(response) == ["Backpack cannot go inside itself"]
    command(member, hero, "item-remove", {"item": backpack.pk})
    pouch.refresh_from_db()
    assert pouch.parent is None


def test_a_stale_profile_save_is_refused_and_shows_the_current_sheet(client_for, member, hero):
    url = reverse("characters:profile", args=[hero.campaign_id, hero.pk])
    data = {"name": hero.name, "description": "", "notes": "", "mass_scale": 0, "version": 1}
    client = client_for(member)
    client.post(url, {**data, "notes": "From the phone"})
    response = client.post(url, {**data, "notes": "From the laptop"})
    assert response.status_code == 409
    hero.refresh_from_db()
    assert hero.notes == "From the phone"


def test_deleting_needs_the_characters_name(client_for, member, hero):
    url = reverse("characters:delete", args=[hero.campaign_id, hero.pk])
    client_for(member).post(url, {"confirm_name": "louie"})
    assert Character.objects.filter(pk=hero.pk).exists()
    client_for(member).post(url, {"confirm_name": "Lightfingers Louie"})
    assert not Character.objects.filter(pk=hero.pk).exists()
    assert not Trait.objects.filter(character_id=hero.pk).exists()


def test_gear_from_the_ezfudge_tables_fills_in_its_numbers(command, member, hero):
    command(member, hero, "gear-add", {"preset": "armor-4", "kind": "weapon"})
    command(member, hero, "gear-add", {"preset": "gun-2", "kind": "armor"})
    chain = hero.gear.get(kind="armor")
    gun = hero.gear.get(kind="weapon")
    assert (chain.name, chain.armor_bonus) == ("Chain mail", 3)
    assert (gun.name, gun.inj, gun.damage_factor) == ("Large Handgun", 4, None)


def test_custom_gear_needs_a_name(command, member, hero):
    response = command(member, hero, "gear-add", {"kind": "weapon", "damage_factor": 1})
    assert "Name the armour or weapon" in messages_of(response)[0]
    assert not hero.gear.exists()


def test_a_gift_gives_plus_one_to_a_named_target_or_nothing(command, member, hero):
    response = command(member, hero, "feature-add", {"kind": "gift", "name": "Keen", "amount": 1})
    assert messages_of(response) == ["name what the modifier applies to"]
    response = command(
        member,
        hero,
        "feature-add",
        {"kind": "fault", "name": "Slow", "amount": 1, "target": "Athletics"},
    )
    assert messages_of(response) == ["a fault only gives penalties"]
    assert not hero.features.exists()


def test_a_player_trades_a_great_slot_for_two_good_ones_and_may_undo_it(
    client_for, command, member, hero
):
    traits = [
        hero.traits.get(name=name)
        for name in ("Stealth", "Athletics", "Persuasion", "Streetwise", "Melee Combat")
    ]
    for trait in traits:
        command(member, hero, "trait-level", {"trait": trait.pk, "level": 2})
    response = command(member, hero, "finish")
    assert "5 Good traits but only 3 slots" in messages_of(response)[0]
    command(member, hero, "trade", {"level": 3})
    hero.refresh_from_db()
    assert hero.trades == [3]
    page = client_for(member).get(reverse("characters:sheet", args=[hero.campaign_id, hero.pk]))
    assert page.context["build"].broken == ()
    command(member, hero, "untrade")
    hero.refresh_from_db()
    assert hero.trades == []


def test_a_trade_with_no_slot_to_trade_is_refused(command, member, hero):
    response = command(member, hero, "trade", {"level": 6})
    assert messages_of(response) == ["no Good Superhuman slot to trade"]
    hero.refresh_from_db()
    assert hero.trades == []


def test_every_command_sits_under_the_sheets_url(hero):
    """The sheet draws each command's URL as its own URL and the command's name."""
    sheet = reverse("characters:sheet", args=[hero.campaign_id, hero.pk])
    for name in COMMANDS:
        command = reverse("characters:command", args=[hero.campaign_id, hero.pk, name])
        assert command == f"{sheet}{name}/"


def test_a_draft_ezfudge_sheet_shows_each_gift_and_faults_build_points(
    client_for, command, owner, member, outsider, campaign
):
    set_rules(campaign, "ezfudge")
    jason = character_create(campaign=campaign, owner=member, name="Jason Free")
    command(member, jason, "feature-add", {"kind": "gift", "name": "Toughness"})
    command(member, jason, "feature-add", {"kind": "fault", "name": "Mercenary Code"})
    url = reverse("characters:sheet", args=[campaign.pk, jason.pk])
    for person in (member, owner):
        page = client_for(person).get(url).content.decode()
        assert "costs 4 build points" in page and "gives back 4 build points" in page
    assert client_for(outsider).get(url).status_code == 404
    command(owner, jason, "finish")
    # Finished, a gift is bought with XP, not build points.
    assert "build points</span>" not in client_for(member).get(url).content.decode()
