"""Play sessions and the XP they give: the ruleset's XP per session to each PC who rolled,
keys and end-of-session questions where the campaign uses them, the GM's extra XP, and XP on
a miss where it is used."""

import pytest
from django.urls import reverse

from characters.services import character_create
from fudgetable.entry_ids import encode
from rolls.models import PlaySession, Roll
from tests.rolls.conftest import post_roll, roll_form, set_rules, trait

pytestmark = pytest.mark.django_db

FAILS, SUCCEEDS = 10, -10


def start(client, campaign):
    return client.post(reverse("rolls:session_start", args=[campaign.pk]))


def end(client, campaign, **extra_xp):
    data = {f"xp_{character.pk}": xp for character, xp in extra_xp.get("extra", {}).items()}
    return client.post(reverse("rolls:session_end", args=[campaign.pk]), data)


def xp(character) -> int:
    character.refresh_from_db()
    return character.xp


def test_only_gms_start_and_end_sessions(client_for, owner, member, outsider, campaign):
    assert start(client_for(outsider), campaign).status_code == 404
    assert start(client_for(member), campaign).status_code == 403
    assert start(client_for(owner), campaign).status_code == 302
    assert end(client_for(member), campaign).status_code == 403
    assert end(client_for(outsider), campaign).status_code == 404
    assert PlaySession.objects.get().running


def test_a_second_running_session_is_refused(client_for, owner, campaign):
    client = client_for(owner)
    start(client, campaign)
    response = start(client, campaign)
    assert "already running" in client.get(response.url).text
    assert PlaySession.objects.count() == 1


def test_each_roll_is_filed_under_the_session_running_when_it_was_made(
    client_for, owner, member, outsider, campaign, hero
):
    gm, player = client_for(owner), client_for(member)
    post_roll(player, campaign, roll_form(hero, trait(hero)))
    start(gm, campaign)
    during = post_roll(gm, campaign, roll_form(hero, trait(hero)))
    refused = post_roll(client_for(outsider), campaign, roll_form(hero, trait(hero)))
    assert refused.status_code == 404
    end(gm, campaign)
    post_roll(player, campaign, roll_form(hero, trait(hero)))
    session = PlaySession.objects.get()
    assert [roll.session_id for roll in Roll.objects.order_by("pk")] == [None, session.pk, None]
    made = Roll.objects.get(session=session)
    assert f'id="roll-{encode(made.pk)}"' in during.text


def test_fudge_lite_gives_each_pc_who_rolled_one_xp_plus_the_gms_extra(
    client_for, owner, member, campaign, hero, rival, villain
):
    _, marla = rival
    gm = client_for(owner)
    post_roll(gm, campaign, roll_form(hero, trait(hero)))  # before the session: not counted
    start(gm, campaign)
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    post_roll(gm, campaign, roll_form(villain, trait(villain, "Poisoncraft")))
    response = end(gm, campaign, extra={hero: 1})
    session = PlaySession.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("rolls:table", args=[campaign.pk])
    assert (xp(hero), xp(marla)) == (2, 0)
    assert session.xp_awarded == {"Louie": 2, "Marla": 0}
    table = gm.get(response.url).text
    assert "Session 1 has ended." in table
    recap = gm.get(reverse("rolls:recap", args=[campaign.pk, session.number])).text
    assert "Louie: <strong>+2 XP" in recap


QUESTIONS = ["Did you learn something new about the world?", "Did you make an enemy?"]


def test_keys_and_end_of_session_questions_where_the_campaign_uses_them(
    client_for, owner, member, outsider, campaign, hero, rival
):
    """Fudge Lite: 1 XP each time a key is hit (under "each hit"), 1 XP per yes."""
    _, marla = rival
    set_rules(campaign, key_award="each hit", session_questions=QUESTIONS)
    gm = client_for(owner)
    start(gm, campaign)
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    page = gm.get(reverse("rolls:table", args=[campaign.pk])).text
    assert all(question in page for question in QUESTIONS)
    assert f'name="keys_{hero.pk}"' in page and f'name="yes_{marla.pk}"' in page
    player_page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).text
    assert "keys_" not in player_page and QUESTIONS[0] not in player_page
    counts = {
        f"keys_{hero.pk}": "3",
        f"yes_{hero.pk}": "2",
        f"xp_{hero.pk}": "1",
        f"keys_{marla.pk}": "1",
    }
    url = reverse("rolls:session_end", args=[campaign.pk])
    assert client_for(member).post(url, counts).status_code == 403
    assert client_for(outsider).post(url, counts).status_code == 404
    gm.post(url, counts)
    # Louie rolled: 1 for the session, 3 key hits, 2 yeses, 1 extra. Marla: her key hit.
    assert (xp(hero), xp(marla)) == (7, 1)
    assert PlaySession.objects.get().xp_awarded == {"Louie": 7, "Marla": 1}


def test_under_any_key_a_pc_gets_one_xp_for_hitting_a_key(client_for, owner, campaign, hero):
    set_rules(campaign, key_award="any key")
    gm = client_for(owner)
    start(gm, campaign)
    gm.post(reverse("rolls:session_end", args=[campaign.pk]), {f"keys_{hero.pk}": "on"})
    assert xp(hero) == 1  # it did not roll: only the key


def test_more_yes_answers_than_questions_end_nothing(client_for, owner, campaign, hero):
    set_rules(campaign, session_questions=QUESTIONS)
    gm = client_for(owner)
    start(gm, campaign)
    url = reverse("rolls:session_end", args=[campaign.pk])
    response = gm.post(url, {f"yes_{hero.pk}": "3"}, headers={"HX-Request": "true"})
    assert response.status_code == 422
    assert response.text == "Louie: Yes answers: Ensure this value is less than or equal to 2."
    assert PlaySession.objects.get().running and xp(hero) == 0


def test_extra_xp_reaches_a_pc_who_did_not_roll(client_for, owner, campaign, hero, rival):
    _, marla = rival
    gm = client_for(owner)
    start(gm, campaign)
    end(gm, campaign, extra={marla: 3})
    assert (xp(hero), xp(marla)) == (0, 3)
    assert PlaySession.objects.get().xp_awarded == {"Louie": 0, "Marla": 3}


def test_ezfudge_gives_only_the_extra_xp(client_for, owner, member, campaign):
    set_rules(campaign, "ezfudge")
    hero = character_create(campaign=campaign, owner=member, name="Louie")
    other = character_create(campaign=campaign, owner=member, name="Brin")
    gm = client_for(owner)
    start(gm, campaign)
    post_roll(client_for(member), campaign, roll_form(hero, hero.traits.first()))
    end(gm, campaign, extra={other: 2})
    assert (xp(hero), xp(other)) == (0, 2)


def test_bad_extra_xp_ends_nothing(client_for, owner, campaign, hero):
    gm = client_for(owner)
    start(gm, campaign)
    response = gm.post(reverse("rolls:session_end", args=[campaign.pk]), {f"xp_{hero.pk}": "lots"})
    assert "Louie: Extra XP: Enter a whole number." in gm.get(response.url).text
    assert PlaySession.objects.get().running and xp(hero) == 0


def test_ending_with_no_session_running_says_so(client_for, owner, campaign):
    gm = client_for(owner)
    response = end(gm, campaign)
    assert "No session is running" in gm.get(response.url).text


def test_over_htmx_a_refusal_is_the_servers_own_words(client_for, owner, campaign, hero):
    """htmx swaps nothing on an error status: the page shows the plain-text answer as its
    notice (static/js/live.js), so the refusal must be that text, not a swapped-out page."""
    gm = client_for(owner)

    def over_htmx(name, data=None):
        url = reverse(f"rolls:{name}", args=[campaign.pk])
        return gm.post(url, data or {}, headers={"HX-Request": "true"})

    refused = [over_htmx("session_end")]
    start(gm, campaign)
    refused += [over_htmx("session_start"), over_htmx("session_end", {f"xp_{hero.pk}": "-3"})]
    assert [(r.status_code, r["Content-Type"], r.text) for r in refused] == [
        (422, "text/plain; charset=utf-8", "No session is running."),
        (422, "text/plain; charset=utf-8", "a session is already running"),
        (
            422,
            "text/plain; charset=utf-8",
            "Louie: Extra XP: Ensure this value is greater than or equal to 0.",
        ),
    ]
    assert PlaySession.objects.get().running and xp(hero) == 0


def test_xp_on_a_miss_goes_to_a_pc_that_fails(client_for, owner, member, campaign, hero, villain):
    set_rules(campaign, xp_on_a_miss=True)
    client = client_for(member)
    data = roll_form(hero, trait(hero), difficulty=FAILS)
    response = post_roll(client, campaign, data)
    assert "+1 XP for the miss" in response.text
    post_roll(client, campaign, data)  # the same form again: no second roll, no second XP
    assert xp(hero) == 1 and Roll.objects.get().snapshot["xp_gained"] == 1
    post_roll(client, campaign, roll_form(hero, trait(hero), difficulty=SUCCEEDS))
    assert xp(hero) == 1
    post_roll(client_for(owner), campaign, roll_form(villain, trait(villain), difficulty=FAILS))
    villain.refresh_from_db()
    assert villain.xp == 0 and "xp_gained" not in Roll.objects.first().snapshot


def test_no_xp_on_a_miss_unless_the_campaign_uses_it(client_for, member, campaign, hero):
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero), difficulty=FAILS))
    assert xp(hero) == 0 and "xp_gained" not in Roll.objects.get().snapshot


def test_with_htmx_ending_a_session_keeps_the_gm_at_the_table_with_the_recap_linked(
    client_for, owner, member, campaign, hero
):
    gm = client_for(owner)
    start(gm, campaign)
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    url = reverse("rolls:session_end", args=[campaign.pk])
    response = gm.post(url, {}, headers={"HX-Request": "true"})
    assert "HX-Redirect" not in response and not PlaySession.objects.get().running
    card = response.text
    assert 'id="table-session"' in card and "hx-swap-oob" not in card
    assert reverse("rolls:recap", args=[campaign.pk, 1]) in card
    assert "XP it gave: Louie 1" in card and "Start session 2" in card


def test_a_resent_form_collides_on_insert_and_gives_no_second_xp(
    client_for, member, campaign, hero
):
    # A check is not looked up before it is rolled: the twin rolls, fails to write, and
    # everything it did (its dice, its XP) rolls back; the answer is the first roll.
    set_rules(campaign, xp_on_a_miss=True)
    client = client_for(member)
    data = roll_form(hero, trait(hero), difficulty=FAILS)
    first = post_roll(client, campaign, data)
    again = post_roll(client, campaign, data)
    assert again.status_code == 200 and Roll.objects.count() == 1 and xp(hero) == 1
    made = Roll.objects.get()
    assert (
        f'id="roll-{encode(made.pk)}"' in first.text
        and f'id="roll-{encode(made.pk)}"' in again.text
    )
