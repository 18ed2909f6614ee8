"""The GM calls for a roll: the called players see it and roll in one tap, the GM's card fills
in, and nobody else hears of it."""

import pytest
from django.urls import reverse

from rolls.calls import services as calls
from rolls.models import Roll, RollCall
from tests.rolls.conftest import trait

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}


def call_on(client, campaign, *characters, **extra):
    data = {"characters": [c.pk for c in characters], "difficulty": 2, "trait": "Stealth"}
    return client.post(
        reverse("rolls:call_create", args=[campaign.pk]), {**data, **extra}, headers=HX
    )


def answer(client, call, character, key=None, **extra):
    url = reverse("rolls:call_answer", args=[call.campaign_id, call.pk])
    data = {"character": character.pk, "key": key or f"call-{call.pk}-{character.pk}", **extra}
    return client.post(url, data, headers=HX)


def table(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def banner(page: str) -> str:
    """The player's own calls on the table page."""
    return page.split('id="my-calls"', 1)[1].split('class="part part-spotlight"', 1)[0]


def test_the_called_player_rolls_in_one_tap_against_a_hidden_difficulty(
    client_for, owner, member, campaign, hero, rival
):
    _, marla = rival
    trait(hero, "Stealth", level=1)
    response = call_on(
        client_for(owner),
        campaign,
        hero,
        marla,
        hidden_difficulty="on",
        advantage=1,
        label="Guards",
    )
    assert "Louie" in response.content.decode() and "waiting" in response.content.decode()
    call = RollCall.objects.get()
    mine = banner(table(client_for(member), campaign))
    assert "The GM calls for a roll: Guards" in mine and "Roll Stealth for Louie" in mine
    assert "against a difficulty the GM keeps hidden" in mine and "Marla" not in mine
    answer(client_for(member), call, hero)
    answer(client_for(member), call, hero)  # a double tap rolls once
    roll = Roll.objects.get()
    assert (roll.character, roll.roller, roll.hidden_difficulty) == (hero, member, True)
    assert roll.snapshot["difficulty"] == 2 and roll.snapshot["method"] == "4dF/1adv"
    call.refresh_from_db()
    assert call.answers == {str(hero.pk): roll.pk} and call.open
    assert "waiting" in table(client_for(owner), campaign)  # Marla has not rolled


def test_the_gm_rolls_for_an_absent_player_and_the_call_closes(client_for, owner, campaign, hero):
    call_on(client_for(owner), campaign, hero)
    call = RollCall.objects.get()
    answer(client_for(owner), call, hero)
    call.refresh_from_db()
    assert not call.open and Roll.objects.get().roller == owner
    # Closed, the call keeps its results on the GM's card until a GM dismisses it.
    page = table(client_for(owner), campaign)
    assert "Everyone called has rolled." in page and "No call open." not in page


def test_a_closed_call_keeps_its_results_until_a_gm_dismisses_it(
    client_for, owner, member, outsider, campaign, hero
):
    call_on(client_for(owner), campaign, hero)
    call = RollCall.objects.get()
    answer(client_for(member), call, hero)
    result = Roll.objects.get().snapshot["result_name"]
    card = table(client_for(owner), campaign).split('id="roll-call-list"', 1)[1]
    assert result in card.split("</section>", 1)[0]
    url = reverse("rolls:call_dismiss", args=[campaign.pk, call.pk])
    assert client_for(member).post(url, headers=HX).status_code == 403
    assert client_for(outsider).post(url, headers=HX).status_code == 404
    answered = client_for(owner).post(url, headers=HX)
    assert "No call open." in answered.content.decode()
    call.refresh_from_db()
    assert call.dismissed_at is not None
    assert "No call open." in table(client_for(owner), campaign)


def test_closing_an_open_call_takes_it_from_the_players_and_keeps_it_for_the_gms(
    client_for, owner, member, campaign, hero
):
    call_on(client_for(owner), campaign, hero)
    call = RollCall.objects.get()
    client_for(owner).post(reverse("rolls:call_cancel", args=[campaign.pk, call.pk]), headers=HX)
    assert "Roll Stealth" not in banner(table(client_for(member), campaign))
    page = table(client_for(owner), campaign)
    assert "Closed." in page and "Dismiss" in page


def test_a_player_answers_only_for_their_own_called_pc(
    client_for,
    owner,
    member,
    outsider,
    observer,
    campaign,
    hero,
    rival,
):
    rival_user, marla = rival
    call_on(client_for(owner), campaign, hero, marla)
    call = RollCall.objects.get()
    refused = answer(client_for(rival_user), call, hero)
    assert "only its player or a GM rolls for that character" in refused.content.decode()
    assert answer(client_for(observer), call, hero).status_code == 403
    assert answer(client_for(outsider), call, hero).status_code == 404
    assert call_on(client_for(member), campaign, hero).status_code == 403
    assert not Roll.objects.exists()


def test_each_picks_a_trait_of_their_own_sheet(client_for, owner, member, campaign, hero, villain):
    stealth = trait(hero, "Stealth")
    call_on(client_for(owner), campaign, hero, trait="")
    call = RollCall.objects.get()
    assert 'name="trait"' in table(client_for(member), campaign)
    foreign = trait(villain, "Poisoncraft")
    refused = answer(client_for(member), call, hero, trait=foreign.pk)
    assert "pick one of Louie" in refused.content.decode() and not Roll.objects.exists()
    answer(client_for(member), call, hero, trait=stealth.pk)
    assert Roll.objects.get().snapshot["trait"] == "Stealth"


def test_a_closed_call_takes_no_roll(client_for, owner, member, campaign, hero):
    call_on(client_for(owner), campaign, hero)
    call = RollCall.objects.get()
    client_for(owner).post(reverse("rolls:call_cancel", args=[campaign.pk, call.pk]), headers=HX)
    refused = answer(client_for(member), call, hero)
    assert "the GM has closed that call" in refused.content.decode()
    assert not Roll.objects.exists()


def test_secret_results_are_the_gms(client_for, owner, member, campaign, hero):
    call_on(client_for(owner), campaign, hero, secret="on")
    call = RollCall.objects.get()
    answer(client_for(member), call, hero)
    roll = Roll.objects.get()
    assert roll.secret
    assert roll.snapshot["result_name"] in table(client_for(owner), campaign)
    page = table(client_for(member), campaign)
    assert "The GM rolled (secret)" in page


def test_a_call_needs_pcs_of_this_table(client_for, owner, campaign, villain):
    response = call_on(client_for(owner), campaign, villain)
    assert "Select a valid choice" in response.content.decode()
    assert not RollCall.objects.exists()


def test_the_service_refuses_a_player_and_an_npc(campaign, member, owner, hero, villain):
    gm = owner.memberships.get(campaign=campaign)
    with pytest.raises(Exception, match="Pick one or more of this table's PCs"):
        calls.call_create(membership=gm, characters=[villain], trait="", difficulty=1)
    player = member.memberships.get(campaign=campaign)
    with pytest.raises(Exception, match="only a GM calls for a roll"):
        calls.call_create(membership=player, characters=[hero], trait="", difficulty=1)


def test_only_a_gm_makes_or_closes_a_call(client_for, owner, member, outsider, campaign, hero):
    assert call_on(client_for(outsider), campaign, hero).status_code == 404
    call_on(client_for(owner), campaign, hero)
    call = RollCall.objects.get()
    close = reverse("rolls:call_cancel", args=[campaign.pk, call.pk])
    assert client_for(outsider).post(close, headers=HX).status_code == 404
    assert client_for(member).post(close, headers=HX).status_code == 403
    call.refresh_from_db()
    assert call.open
