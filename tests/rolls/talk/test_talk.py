"""Table talk through the composer (rolls/talk/views.py): messages said as a character or as
oneself, emotes, whispers and who reads them, mentions, the markup, the rate limit, and rolls
typed as words answered by the roll services. Owner, member, observer and outsider."""

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given
from hypothesis import settings as examples
from hypothesis import strategies as st

from rolls.models import Roll, TableTalk, Whispered
from tests.factories import MembershipFactory, UserFactory
from tests.rolls.conftest import fresh_key, trait
from tests.rolls.test_sheet_lines import hurt as hurt_pc

pytestmark = pytest.mark.django_db


def say(client, campaign, line, *, htmx=True, **extra):
    data = {"line": line, "key": fresh_key(), **extra}
    headers = {"HX-Request": "true"} if htmx else {}
    return client.post(reverse("rolls:say", args=[campaign.pk]), data, headers=headers)


def page_of(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def log_of(client, campaign) -> str:
    return client.get(reverse("rolls:log", args=[campaign.pk])).content.decode()


def test_a_player_says_a_line_as_their_character(client_for, member, campaign, hero):
    response = say(client_for(member), campaign, "Run, **now**!", speaking_as=hero.pk)
    assert response.status_code == 200
    assert "data-sent" in response.content.decode()
    entry = Roll.objects.get()
    assert (entry.kind, entry.visibility, entry.character) == ("message", "table", hero)
    assert entry.snapshot == {"text": "Run, **now**!", "style": "say", "speaker": "Louie"}
    assert entry.everyone_seq == entry.gm_seq == 1  # numbered like a roll
    shown = page_of(client_for(member), campaign)
    assert '<strong class="talk-speaker">Louie</strong>' in shown
    assert "Run, <strong>now</strong>!" in shown


def test_as_myself_is_out_of_character_and_an_emote_is_an_action(client_for, owner, campaign):
    gm = client_for(owner)
    say(gm, campaign, "pizza's here")
    say(gm, campaign, "/me stretches")
    ooc, emote = Roll.objects.order_by("pk")
    assert (ooc.snapshot["style"], ooc.snapshot["speaker"]) == ("ooc", "gm-owner")
    assert (emote.snapshot["style"], emote.label) == ("emote", "* gm-owner stretches")
    shown = page_of(gm, campaign)
    assert "out of character" in shown and "* gm-owner</em> stretches" in shown


def test_text_is_escaped_and_links_open_outside(client_for, member, campaign):
    say(client_for(member), campaign, "<script>alert(1)</script> [map](https://example.org/m)")
    say(client_for(member), campaign, "[bad](javascript:alert(1))")
    shown = page_of(client_for(member), campaign)
    assert "<script>alert(1)" not in shown and "&lt;script&gt;alert(1)" in shown
    assert 'href="https://example.org/m" target="_blank" rel="noopener noreferrer' in shown
    assert 'href="javascript' not in shown


def test_a_mention_names_the_person_for_their_page_to_badge(client_for, owner, member, campaign):
    say(client_for(owner), campaign, "@player-member, your turn")
    entry = Roll.objects.get()
    assert entry.snapshot["people"] == {"player-member": member.pk}
    shown = page_of(client_for(member), campaign)
    assert f'data-mentions="{member.pk}"' in shown
    assert f'class="mention" data-person="{member.pk}">@player-member<' in shown


def test_a_gm_whispers_a_player_and_nobody_else_reads_it(
    client_for, owner, member, campaign, rival
):
    second, _ = rival
    co_gm = UserFactory(username="co-gm")
    MembershipFactory(campaign=campaign, user=co_gm, role="gm")
    say(client_for(owner), campaign, "the ring is fake", to=[str(member.pk)])
    entry = Roll.objects.get()
    assert entry.visibility == "whisper" and entry.everyone_seq is None and entry.gm_seq is None
    assert set(Whispered.objects.values_list("user_id", "seq")) == {(owner.pk, 1), (member.pk, 1)}
    for reader, reads in ((owner, True), (member, True), (second, False), (co_gm, False)):
        for shown in (page_of(client_for(reader), campaign), log_of(client_for(reader), campaign)):
            assert ("the ring is fake" in shown) is reads, reader
    exported = client_for(second).get(reverse("rolls:log_json", args=[campaign.pk]))
    assert "the ring is fake" not in exported.content.decode()


def test_whispers_between_players_stay_with_them_and_to_the_gms_reaches_every_gm(
    client_for, owner, member, campaign, rival
):
    second, _ = rival
    say(client_for(member), campaign, "/w second-player split the loot?")
    say(client_for(second), campaign, "/w gm I want to betray Louie")
    between, to_gms = Roll.objects.order_by("pk")
    assert set(between.whispered_to.values_list("user_id", flat=True)) == {member.pk, second.pk}
    assert set(to_gms.whispered_to.values_list("user_id", flat=True)) == {second.pk, owner.pk}
    gm_page = page_of(client_for(owner), campaign)
    assert "split the loot" not in gm_page  # GMs do not read whispers between players
    assert "betray Louie" in gm_page and "whispered to the GMs" in gm_page
    assert "betray Louie" not in page_of(client_for(member), campaign)


def test_a_whisper_to_nobody_here_or_to_oneself_is_refused_in_words(client_for, member, campaign):
    client = client_for(member)
    assert "Nobody called zed" in say(client, campaign, "/w zed hello").content.decode()
    refused = say(client, campaign, "hi", to=[str(member.pk)]).content.decode()
    assert "someone other than yourself" in refused
    assert not Roll.objects.exists()


def test_a_roll_typed_while_people_are_ticked_is_refused_not_shown_to_the_table(
    client_for, member, owner, campaign
):
    for who in (member, owner):
        refused = say(
            client_for(who), campaign, "/r 4dF", to=[str(owner.pk if who == member else member.pk)]
        )
        assert "A roll is not whispered" in refused.content.decode()  # said under the composer
    assert not Roll.objects.exists()
    # Unticked, the same line rolls for the table.
    assert say(client_for(member), campaign, "/r 4dF").status_code == 200
    assert Roll.objects.get().visibility == "table"


def test_an_outsider_is_not_heard_and_an_observer_talks_but_does_not_roll(
    client_for, outsider, campaign, observer
):
    assert say(client_for(outsider), campaign, "hello?").status_code == 404
    watcher = client_for(observer)
    assert "data-sent" in say(watcher, campaign, "great scene").content.decode()
    refused = say(watcher, campaign, "/r 4dF").content.decode()
    assert "observers watch" in refused.lower()
    assert Roll.objects.get().kind == "message"


def test_a_player_cannot_speak_as_someone_elses_character(client_for, member, campaign, villain):
    answer = say(client_for(member), campaign, "I am the villain", speaking_as=villain.pk)
    assert "cannot speak as that character" in answer.content.decode()
    assert not Roll.objects.exists()


def test_the_same_line_sent_twice_is_said_once(client_for, member, campaign):
    client = client_for(member)
    data = {"line": "once", "key": fresh_key()}
    url = reverse("rolls:say", args=[campaign.pk])
    client.post(url, data, headers={"HX-Request": "true"})
    client.post(url, data, headers={"HX-Request": "true"})
    assert Roll.objects.count() == 1


def test_too_many_messages_are_refused_with_the_wait(client_for, member, campaign, settings):
    settings.MESSAGE_LIMIT, settings.MESSAGE_LIMIT_SECONDS = 3, 30
    client = client_for(member)
    for number in range(3):
        assert "data-sent" in say(client, campaign, f"line {number}").content.decode()
    refused = say(client, campaign, "one more").content.decode()
    assert "faster than the table can read them: wait" in refused
    assert Roll.objects.count() == 3


def test_without_javascript_a_line_is_said_and_the_page_comes_back(client_for, member, campaign):
    response = say(client_for(member), campaign, "plain form", htmx=False)
    assert response.status_code == 302
    assert Roll.objects.get().snapshot["text"] == "plain form"


def test_help_lists_the_commands_and_writes_nothing(client_for, member, campaign):
    answer = say(client_for(member), campaign, "/help").content.decode()
    assert "/r Athletics vs Good" in answer and "/gmr" in answer and "/w alice,bob" in answer
    assert not Roll.objects.exists()


@pytest.mark.parametrize(
    "line, words",
    [
        ("/r", "Say what to roll"),
        ("/r 4d6", "4d6 is not dice this table reads"),
        ("/r 4dF+30", "each modifier is a whole number"),
        ("/r Athletics vs Legendary-ish", "is not on this table"),
        ("/r Juggling", "none of your characters has a trait called Juggling"),
        ("/gmr Stealth", "Only a GM rolls in secret"),
        ("/dance", "There is no command /dance"),
        ("   ", "Write something"),
    ],
)
def test_a_wrong_command_is_answered_in_words_and_nothing_is_logged(
    client_for, member, campaign, hero, line, words
):
    trait(hero, "Stealth", level=1)
    answer = say(client_for(member), campaign, line)
    assert answer.status_code == 200
    assert words.lower() in answer.content.decode().lower()
    assert not Roll.objects.exists()


hurt = hurt_pc  # the sheet's test's fixture: Louie, marked Hurt


def test_a_typed_trait_roll_is_a_check_with_the_sheets_lines(client_for, member, campaign, hurt):
    trait(hurt, "Athletics", level=2)
    say(client_for(member), campaign, "/r athletics vs Great")
    roll = Roll.objects.get()
    assert (roll.kind, roll.character, roll.snapshot["trait"]) == ("check", hurt, "Athletics")
    assert roll.snapshot["difficulty"] == 3
    assert roll.snapshot["sheet_lines"] == [
        {"key": "track:injury", "name": "Injury: Hurt", "amount": -1}
    ]


def test_typed_dice_are_read_from_fair_by_the_campaigns_methods(client_for, member, campaign):
    client = client_for(member)
    say(client, campaign, "/r 4dF+1")
    say(client, campaign, "/r 3d6")
    say(client, campaign, "/r 4dF vs Good")
    fudge, table, check = Roll.objects.order_by("pk")
    assert (fudge.kind, fudge.label, fudge.snapshot["modifiers"]) == ("situational", "4dF +1", [1])
    assert table.snapshot["method_label"] == "3d6 table" and len(table.snapshot["shown"]) == 3
    assert (check.kind, check.snapshot["difficulty"], check.snapshot["level"]) == ("check", 2, 1)


def test_a_gms_secret_typed_roll_reaches_no_player(client_for, owner, member, campaign, villain):
    trait(villain, "Poisoncraft", level=2)
    say(client_for(owner), campaign, "/gmr Poisoncraft", speaking_as=villain.pk)
    roll = Roll.objects.get()
    assert roll.secret and roll.everyone_seq == 1
    player_page = page_of(client_for(member), campaign)
    assert "Poisoncraft" not in player_page and "The GM rolled (secret)" in player_page


def test_dice_in_hand_are_refused_until_the_gm_allows_them(client_for, owner, member, campaign):
    client = client_for(member)
    refused = say(client, campaign, "/r 4dF [+ + 0 -]").content.decode()
    assert "the GM can allow dice in hand" in refused
    TableTalk.objects.create(campaign=campaign, dice_in_hand=True)
    say(client, campaign, "/r 4dF [+ + 0 -]")
    roll = Roll.objects.get()
    assert roll.snapshot["by_hand"] and roll.snapshot["roll"] == 1
    assert "rolled by hand" in page_of(client, campaign)
    wrong = say(client, campaign, "/r 4dF [+ 7]").content.decode()
    assert "write fudge dice as +" in wrong.lower()


def test_the_roll_form_takes_dice_in_hand_and_fudge_points_spend_on_them(
    client_for, member, campaign, hero
):
    TableTalk.objects.create(campaign=campaign, dice_in_hand=True)
    stealth = trait(hero, "Stealth", level=1)
    hero.fudge_points = 2
    hero.save(update_fields=["fudge_points"])
    client = client_for(member)
    assert 'id="hand-faces"' in page_of(client, campaign)
    data = {"kind": "check", "trait": stealth.pk, "key": fresh_key(), "faces": "--00"}
    data["difficulty"] = 1
    answer = client.post(reverse("rolls:roll", args=[campaign.pk]), data, HTTP_HX_REQUEST="true")
    roll = Roll.objects.get()
    assert (roll.snapshot["shown"], roll.snapshot["roll"], roll.succeeded) == (
        ["⊟", "⊟", "▢", "▢"],
        -2,
        False,
    )
    assert "rolled by hand" in answer.content.decode()
    spend = {"use": "alter-by-one", "key": fresh_key()}
    url = reverse("rolls:fudge_point", args=[campaign.pk, roll.pk])
    spent = client.post(url, spend, HTTP_HX_REQUEST="true").content.decode()
    after = Roll.objects.exclude(pk=roll.pk).get()
    assert (after.follows, after.snapshot["roll"], after.snapshot["by_hand"]) == (roll, -1, True)
    assert "A reroll rolled by hand" in spent  # the answer's spend buttons offer it
    # A reroll of dice in hand: rolled on the table again, its faces entered with the spend.
    url = reverse("rolls:fudge_point", args=[campaign.pk, after.pk])
    client.post(url, {"use": "reroll", "key": fresh_key(), "faces": "++++"}, HTTP_HX_REQUEST="true")
    rerolled = Roll.objects.get(follows=after)
    assert (rerolled.snapshot["roll"], rerolled.snapshot["by_hand"], rerolled.succeeded) == (
        4,
        True,
        True,
    )
    hero.refresh_from_db()
    assert hero.fudge_points == 0


@examples(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    prefix=st.sampled_from(["", "/r ", "/gmr ", "/w ", "/me ", "/r Stealth ", "/r 4dF ", "/"]),
    text=st.text(max_size=120),
)
def test_any_line_is_answered_and_writes_one_entry_or_none(
    client_for, member, campaign, hero, settings, prefix, text
):
    settings.MESSAGE_LIMIT = 10_000
    trait(hero, "Stealth", level=1)
    before = Roll.objects.count()
    answer = say(client_for(member), campaign, prefix + text)
    made = Roll.objects.count() - before
    body = answer.content.decode()
    if answer.status_code == 400:  # a control character: the input rule refuses it in words
        assert made == 0 and "control character" in body
        return
    assert answer.status_code == 200
    assert made == (1 if 'data-sent="' in body else 0)
    assert made == 1 or "message-error" in body or "What you can type" in body
