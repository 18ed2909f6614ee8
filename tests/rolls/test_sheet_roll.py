"""Rolling by tapping a trait on a sheet: the check goes into the table's log like any roll,
once per tap, and only for those who may roll for the character."""

import pytest
from django.urls import reverse

from campaigns.models import Membership
from campaigns.selectors import campaign_ruleset
from rolls.models import Roll
from tests.characters.test_sheet import messages_of

pytestmark = pytest.mark.django_db

KEY = "sheet-tap-0001"


@pytest.fixture
def command(client_for):
    """Taps a Roll button on `character`'s sheet as `user`, the way htmx posts it."""

    def send(user, character, data):
        url = reverse("rolls:sheet_roll", args=[character.campaign_id, character.pk])
        return client_for(user).post(url, data, headers={"HX-Request": "true"})

    return send


def tap(command, user, character, trait_name="Stealth", key=KEY):
    stealth = character.traits.get(name=trait_name)
    return command(user, character, {"trait": stealth.pk, "key": key})


def test_the_player_taps_a_trait_and_the_check_is_logged(command, member, hero):
    response = tap(command, member, hero)
    assert response.status_code == 200
    roll = Roll.objects.get()
    assert (roll.kind, roll.character, roll.roller) == ("check", hero, member)
    assert roll.label == "Louie: Stealth"
    assert roll.snapshot["level_name"] == "Poor (-1)"
    assert roll.snapshot["difficulty"] == campaign_ruleset(hero.campaign).default_difficulty
    # The sheet says what came up: the result in the ladder's words first, the dice, the margin.
    (message,) = messages_of(response)
    shown = " ".join(roll.snapshot["shown"])
    assert message.startswith(f"Louie: Stealth: {roll.snapshot['result_name']} ({shown})")
    assert " vs Fair (+1): " in message
    assert f"margin {roll.snapshot['margin']:+d}" in message


def test_a_double_tap_makes_one_roll(command, member, hero):
    tap(command, member, hero)
    response = tap(command, member, hero)
    assert response.status_code == 200
    assert Roll.objects.count() == 1


def test_the_gm_rolls_from_a_players_sheet(command, owner, hero):
    assert tap(command, owner, hero).status_code == 200
    roll = Roll.objects.get()
    assert (roll.character, roll.roller) == (hero, owner)


def test_another_player_may_not_roll_from_the_sheet(command, rival, hero):
    other_player, _ = rival
    assert tap(command, other_player, hero).status_code == 403
    assert not Roll.objects.exists()


def test_an_outsider_gets_404(command, outsider, hero):
    assert tap(command, outsider, hero).status_code == 404
    assert not Roll.objects.exists()


def test_a_player_made_an_observer_no_longer_rolls_for_their_pc(command, member, campaign, hero):
    Membership.objects.filter(campaign=campaign, user=member).update(role=Membership.Role.OBSERVER)
    response = tap(command, member, hero)
    assert response.status_code == 200
    assert messages_of(response) == ["observers watch; they do not roll"]
    assert not Roll.objects.exists()


def test_a_trait_of_another_sheet_is_refused(command, member, hero, rival):
    _, other = rival
    foreign = other.traits.get(name="Stealth")
    response = command(member, hero, {"trait": foreign.pk, "key": KEY})
    assert messages_of(response) == ["no such trait on this sheet"]
    assert not Roll.objects.exists()


def test_a_tap_without_a_key_is_refused_with_a_message(command, member, hero):
    stealth = hero.traits.get(name="Stealth")
    response = command(member, hero, {"trait": stealth.pk})
    assert response.status_code == 200
    assert messages_of(response) == ["key: This field is required."]
    assert not Roll.objects.exists()


def test_a_plain_post_rolls_and_goes_back_to_the_sheet(client_for, member, hero):
    url = reverse("rolls:sheet_roll", args=[hero.campaign_id, hero.pk])
    stealth = hero.traits.get(name="Stealth")
    response = client_for(member).post(url, {"trait": stealth.pk, "key": KEY})
    assert response.status_code == 302
    assert response.url == reverse("characters:sheet", args=[hero.campaign_id, hero.pk])
    assert Roll.objects.get().character == hero


def test_a_trait_that_is_not_a_number_is_refused_with_a_message(command, member, hero):
    response = command(member, hero, {"trait": "stealth", "key": KEY})
    assert response.status_code == 200
    assert messages_of(response) == ["trait: Enter a whole number."]
    assert not Roll.objects.exists()
