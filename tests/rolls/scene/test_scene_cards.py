"""Cards and handouts at the table: a GM writes them (kept for GMs), shows them to everyone or
to chosen players, pins them and puts one full screen on every phone; players add cards where
the scene allows; each shown card is named in the log to those who may know of it."""

import pytest

from rolls.models import Roll
from rolls.scene.ids import shown_id
from rolls.scene.models import Card
from tests.rolls.scene_setup import *  # noqa: F403
from tests.rolls.scene_setup import area, post

pytestmark = pytest.mark.django_db


def page(client, campaign) -> str:
    return client.get(f"/campaigns/{campaign.pk}/table/").content.decode()


def new_card(client, campaign, title="The ledger", **extra):
    return post(client, campaign, "card_create", {"title": title, "shown": "gm", **extra})


def test_a_gm_writes_a_card_kept_for_gms_and_shows_it_to_everyone(
    scene, client_for, owner, member, observer
):
    campaign = scene.campaign
    assert new_card(client_for(owner), campaign, text="Debts").status_code == 204
    card = Card.objects.get()
    assert card.shown == "gm" and "The ledger" in page(client_for(owner), campaign)
    assert "The ledger" not in page(client_for(member), campaign)
    shown = {"shown": "everyone", "area": shown_id(area(scene, "Hall"))}
    assert post(client_for(owner), campaign, "card_reveal", shown, card.pk).status_code == 204
    for who in (member, observer):
        seen = page(client_for(who), campaign)
        assert "The ledger" in seen and "Pinned to Hall" in seen
    told = Roll.objects.filter(kind="announcement").latest("pk")
    assert told.label == "Card shown to everyone: The ledger" and told.visibility == "table"


def test_a_card_shown_to_one_player_is_hers_and_the_log_tells_the_gms(
    scene, client_for, owner, member, other
):
    campaign = scene.campaign
    new_card(client_for(owner), campaign)
    card = Card.objects.get()
    to_her = {"shown": "some", "people": [member.pk]}
    assert post(client_for(owner), campaign, "card_reveal", to_her, card.pk).status_code == 204
    assert "The ledger" in page(client_for(member), campaign)
    assert "The ledger" not in page(client_for(other), campaign)
    told = Roll.objects.filter(kind="announcement").latest("pk")
    assert told.visibility == "gm" and "player-member" in told.label
    nobody = post(client_for(owner), campaign, "card_reveal", {"shown": "some"}, card.pk)
    assert nobody.status_code == 422 and "Tick the players" in nobody.content.decode()


def test_only_a_gm_shows_removes_or_hands_out_a_card(scene, client_for, owner, member, outsider):
    campaign = scene.campaign
    new_card(client_for(owner), campaign)
    card = Card.objects.get()
    for name in ("card_reveal", "card_delete", "handout_show"):
        assert (
            post(client_for(member), campaign, name, {"shown": "everyone"}, card.pk).status_code
            == 403
        )
        assert post(client_for(outsider), campaign, name, {}, card.pk).status_code == 404
    assert post(client_for(member), campaign, "handout_hide").status_code == 403


def test_a_handout_goes_full_screen_for_everyone_who_sees_it_and_away_again(
    scene, client_for, owner, member
):
    campaign = scene.campaign
    new_card(client_for(owner), campaign)
    card = Card.objects.get()
    assert post(client_for(owner), campaign, "handout_show", {}, card.pk).status_code == 204
    card.refresh_from_db()
    assert card.shown == "everyone"  # a card kept for GMs is shown to all first
    assert '<dialog class="handout"' in page(client_for(member), campaign)
    assert post(client_for(owner), campaign, "handout_hide").status_code == 204
    assert '<dialog class="handout"' not in page(client_for(member), campaign)


def test_players_add_cards_where_the_scene_allows_and_observers_never(
    scene, client_for, owner, member, observer
):
    campaign = scene.campaign
    refused = new_card(client_for(member), campaign, "My plan", shown="everyone")
    assert refused.status_code == 422 and "Only the GMs" in refused.content.decode()
    post(client_for(owner), campaign, "scene_player_cards", {"allow": "1"})
    assert 'id="new-card-player"' in page(client_for(member), campaign)
    assert new_card(client_for(member), campaign, "My plan", shown="everyone").status_code == 204
    assert new_card(client_for(member), campaign, "My secret", shown="gm").status_code == 204
    watched = new_card(client_for(observer), campaign, "Watching", shown="everyone")
    assert watched.status_code == 422
    assert "My plan" in page(client_for(observer), campaign)
    assert "My secret" not in page(client_for(observer), campaign)
    assert "My secret" in page(client_for(member), campaign)  # hers and the GMs'
    assert "My secret" in page(client_for(owner), campaign)


def test_a_removed_card_leaves_every_screen(scene, client_for, owner, member):
    campaign = scene.campaign
    new_card(client_for(owner), campaign, shown="everyone")
    card = Card.objects.get()
    assert post(client_for(owner), campaign, "card_delete", {}, card.pk).status_code == 204
    assert not Card.objects.exists()
    assert f'id="card-{shown_id(card)}"' not in page(client_for(member), campaign)
