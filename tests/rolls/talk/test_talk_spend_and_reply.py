"""What the composer offers once a line landed (rolls/talk/views.py): a Fudge point spent on a
roll typed in it, as on one made from the roller (the same rules: the campaign's uses, the
roller's own PC, a GM for anyone); the whisper picker naming people as the table knows them
and back to everyone once a whisper is sent; and Reply on a whisper, for its people alone.
Owner (GM), member (player), a second player and an outsider, over HTTP."""

import re

import pytest
from django.urls import reverse

from characters.models import Character
from rolls.models import Roll, Whispered
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key, trait

pytestmark = pytest.mark.django_db

HX = {"HX-Request": "true"}
SPEND = re.compile(r'hx-post="([^"]+/say/[\w-]{22}/fudge-point/)" hx-target="#talk-rolled"')
USES = re.compile(r'name="use" value="([\w-]+)"')
REPLY = re.compile(r'class="button small talk-reply" data-reply="([\d ]+)"')


def say(client, campaign, line, **extra):
    data = {"line": line, "key": fresh_key(), **extra}
    return client.post(reverse("rolls:say", args=[campaign.pk]), data, headers=HX)


def page_of(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def spend_from(client, answer: str, use: str = "", **extra):
    """Taps a spend button of the composer's "You rolled", as the page would."""
    url = SPEND.search(answer).group(1)
    use = use or USES.findall(answer)[0]
    return client.post(url, {"use": use, "key": fresh_key(), **extra}, headers=HX)


def points(character: Character) -> int:
    character.refresh_from_db()
    return character.fudge_points


@pytest.fixture
def athletes(hero, rival):
    """Louie (the member's) and Marla (the second player's), Athletics each."""
    trait(hero, "Athletics", level=1)
    trait(rival[1], "Athletics", level=1)
    return hero, rival[1]


# A Fudge point on a typed roll


def test_a_player_spends_a_fudge_point_on_their_own_typed_roll(
    client_for, member, campaign, athletes
):
    hero, _ = athletes
    before = points(hero)
    client = client_for(member)
    answer = say(client, campaign, "/r Athletics vs Great").content.decode()
    typed = Roll.objects.get()
    assert (typed.kind, typed.character) == ("check", hero)
    # The composer's answer shows it with the spend buttons the roller's "You rolled" would.
    assert 'id="talk-rolled" class="composer-rolled" hx-swap-oob="true"' in answer
    assert "You rolled:" in answer and "Spend a Fudge point of Louie" in answer
    assert set(USES.findall(answer)) >= {"reroll", "alter-by-one"}
    spent = spend_from(client, answer, "alter-by-one")
    assert spent.status_code == 200
    after = Roll.objects.get(follows=typed)
    assert (after.kind, after.character, after.snapshot["roll"]) == (
        "fudge-point",
        hero,
        typed.snapshot["roll"] + 1,
    )
    assert points(hero) == before - 1
    # The answer is the new entry, under the composer, with its own spend buttons.
    shown = spent.content.decode()
    assert shown.startswith('\n<div id="talk-rolled"') or '<div id="talk-rolled"' in shown
    assert "Louie: Athletics (Fudge point)" in shown and SPEND.search(shown)
    # The same roll twice: refused in words, nothing paid.
    again = spend_from(client, answer, "reroll").content.decode()
    assert "already spent on this roll" in again
    assert points(hero) == before - 1


def test_the_spend_follows_the_campaigns_rules(client_for, member, campaign, athletes):
    """A use the campaign does not allow is neither offered nor taken."""
    client = client_for(member)
    answer = say(client, campaign, "/r Athletics vs Great").content.decode()
    offered = set(USES.findall(answer))
    assert "plus-four" not in offered  # not a Fudge Lite use
    refused = spend_from(client, answer, "plus-four").content.decode()
    assert "message-error" in refused
    assert not Roll.objects.filter(follows__isnull=False).exists()


def test_no_spend_is_offered_on_dice_alone_or_a_message(client_for, member, campaign, hero):
    client = client_for(member)
    assert "You rolled" not in say(client, campaign, "/r 4dF vs Good").content.decode()
    cleared = say(client, campaign, "hello").content.decode()
    # A line sent clears the "You rolled" of the line before.
    assert '<div id="talk-rolled" class="composer-rolled" hx-swap-oob="true"></div>' in cleared


def test_a_player_cannot_spend_on_anothers_typed_roll_and_an_outsider_finds_none(
    client_for, member, outsider, campaign, athletes, rival
):
    hero, marla = athletes
    second = client_for(rival[0])
    answer = say(second, campaign, "/r Athletics vs Great").content.decode()
    typed = Roll.objects.get()
    assert typed.character == marla and "Spend a Fudge point of Marla" in answer
    url = reverse("rolls:talk_fudge_point", args=[campaign.pk, typed.pk])
    data = {"use": "reroll", "key": fresh_key()}
    assert client_for(member).post(url, data, headers=HX).status_code == 403
    assert client_for(outsider).post(url, data, headers=HX).status_code == 404
    # The member's page offers no spend on it either.
    assert url not in page_of(client_for(member), campaign)
    assert not Roll.objects.filter(follows=typed).exists()
    assert points(marla) == points(hero) == 3


def test_a_gm_spends_on_a_players_typed_roll_and_on_their_own_for_a_pc(
    client_for, owner, member, campaign, athletes
):
    hero, _ = athletes
    answer = say(client_for(member), campaign, "/r Athletics vs Great").content.decode()
    typed = Roll.objects.get()
    gm = client_for(owner)
    url = reverse("rolls:talk_fudge_point", args=[campaign.pk, typed.pk])
    spent = gm.post(url, {"use": "reroll", "key": fresh_key()}, headers=HX)
    assert spent.status_code == 200 and "Louie: Athletics (Fudge point)" in spent.text
    assert points(hero) == 2
    # A GM rolling for the PC in the composer gets the spend buttons too.
    said = say(gm, campaign, "/r Athletics", speaking_as=hero.pk).content.decode()
    assert "Spend a Fudge point of Louie" in said and SPEND.search(said)
    assert answer  # the member's own answer offered it first


def test_without_javascript_the_spend_goes_back_to_the_table(
    client_for, member, campaign, athletes
):
    client = client_for(member)
    say(client, campaign, "/r Athletics vs Great")
    typed = Roll.objects.get()
    url = reverse("rolls:talk_fudge_point", args=[campaign.pk, typed.pk])
    response = client.post(url, {"use": "reroll", "key": fresh_key()})
    assert response.status_code == 302
    assert Roll.objects.filter(follows=typed).exists()


# The whisper picker


def test_the_picker_names_people_with_their_pcs(client_for, owner, member, campaign, hero, rival):
    MembershipFactory(campaign=campaign, user=UserFactory(username="watching"), role="observer")
    player_page = page_of(client_for(member), campaign)
    picker = player_page[player_page.index('id="talk-to"') :]
    picker = picker[: picker.index("</details>")]
    assert 'data-name="second-player (Marla)"' in picker
    assert 'data-name="gm-owner"' in picker and "(GM)" in picker
    assert "watching" in picker and "(observer)" in picker
    assert "player-member" not in picker  # nobody whispers to themself
    gm_page = page_of(client_for(owner), campaign)
    assert 'data-name="player-member (Louie)"' in gm_page


def test_a_whisper_sent_puts_the_picker_back_to_everyone(
    client_for, owner, member, campaign, hero, rival
):
    client = client_for(member)
    answer = say(client, campaign, "psst", to=[str(owner.pk)]).content.decode()
    assert "Whispered to gm-owner. Your next line goes to everyone." in answer
    picker = answer[answer.index('<details class="fold-menu composer-to" id="talk-to"') :]
    assert picker.startswith(
        '<details class="fold-menu composer-to" id="talk-to" hx-swap-oob="true">'
    )
    assert "checked" not in picker and ">To everyone<" in picker
    # A typed whisper does too; a line to everyone and a refused whisper leave the picker be.
    assert 'id="talk-to"' in say(client, campaign, "/w gm-owner and this").content.decode()
    assert 'id="talk-to"' not in say(client, campaign, "hello all").content.decode()
    refused = say(client, campaign, "hi", to=[str(member.pk)]).content.decode()
    assert 'id="talk-to"' not in refused and "someone other than yourself" in refused
    said = Roll.objects.order_by("pk").last()
    assert (said.snapshot["text"], said.visibility) == ("hello all", "table")


# Reply on a whisper


def test_reply_is_offered_to_the_whispers_people_alone(
    client_for, owner, member, outsider, campaign, rival
):
    second = rival[0]
    co_gm = UserFactory(username="co-gm")
    MembershipFactory(campaign=campaign, user=co_gm, role="gm")
    say(client_for(owner), campaign, "the ring is fake", to=[str(member.pk)])
    people = f"{min(owner.pk, member.pk)} {max(owner.pk, member.pk)}"
    for reader in (owner, member):
        assert REPLY.findall(page_of(client_for(reader), campaign)) == [people], reader
    for reader in (second, co_gm):  # a GM the whisper did not reach reads no Reply either
        shown = page_of(client_for(reader), campaign)
        assert "the ring is fake" not in shown and "talk-reply" not in shown
    assert client_for(outsider).get(reverse("rolls:table", args=[campaign.pk])).status_code == 404
    # The log's page has no composer, so no Reply.
    log = client_for(member).get(reverse("rolls:log", args=[campaign.pk])).content.decode()
    assert "the ring is fake" in log and "talk-reply" not in log


def test_a_whisper_to_the_gms_lets_every_gm_reply_to_all_of_them(
    client_for, owner, member, campaign
):
    co_gm = UserFactory(username="co-gm")
    MembershipFactory(campaign=campaign, user=co_gm, role="gm")
    say(client_for(member), campaign, "/w gm I need a word")
    people = " ".join(str(pk) for pk in sorted((owner.pk, member.pk, co_gm.pk)))
    for reader in (owner, co_gm, member):
        assert REPLY.findall(page_of(client_for(reader), campaign)) == [people], reader


def test_a_reply_reaches_the_sender_and_the_others_alone(
    client_for, owner, member, campaign, rival
):
    """What the page ticks on Reply (the whisper's people but the replier) is a whisper to
    them alone: the member answers the GM's whisper to both players, then one to them alone."""
    second = rival[0]
    say(client_for(owner), campaign, "meet at dawn", to=[str(member.pk), str(second.pk)])
    people = REPLY.findall(page_of(client_for(member), campaign))[0].split()
    picked = [pk for pk in people if pk != str(member.pk)]
    say(client_for(member), campaign, "we'll be there", to=picked)
    reply = Roll.objects.order_by("pk").last()
    heard = set(Whispered.objects.filter(entry=reply).values_list("user_id", flat=True))
    assert heard == {owner.pk, member.pk, second.pk}
    say(client_for(owner), campaign, "just you", to=[str(member.pk)])
    people = REPLY.findall(page_of(client_for(member), campaign))[-1].split()
    say(client_for(member), campaign, "ok", to=[pk for pk in people if pk != str(member.pk)])
    reply = Roll.objects.order_by("pk").last()
    assert set(reply.whispered_to.values_list("user_id", flat=True)) == {owner.pk, member.pk}
    assert not Roll.objects.filter(visibility="table").exists()
    seconds = page_of(client_for(second), campaign)
    assert "just you" not in seconds and len(REPLY.findall(seconds)) == 2
