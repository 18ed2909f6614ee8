"""Dice people can read: faces drawn as SVG with words a screen reader speaks, the result in
ladder words first, and each new roll said once by the table's polite live region."""

from django.urls import reverse

from fudgetable.entry_ids import encode
from rolls import fragments
from rolls.dice_faces import drawn, spoken
from rolls.models import Roll
from tests.rolls.conftest import post_roll, roll_form, trait


def test_fudge_dice_are_spoken_as_the_issue_reads_them():
    assert spoken(["⊞", "⊞", "▢", "⊟"], 1) == "plus, plus, blank, minus: +1"
    assert spoken(["3", "5"]) == "3, 5"


def test_each_face_is_drawn_and_the_whole_is_one_image():
    html = drawn(["⊞", "▢", "⊟", "4", "K♠"], 1)
    assert html.startswith('<span class="faces" role="img" aria-label="dice: plus, blank, minus')
    assert html.count("<svg") == 5 and html.count('aria-hidden="true"') == 5
    assert '<path d="M7 12h10M12 7v10"' in html  # the plus: two strokes
    assert '<path d="M7 12h10" ' in html  # the minus: one
    assert ">4</text>" in html and 'class="die card"' in html and ">K♠</text>" in html


def test_a_face_is_escaped():
    assert "<b>" not in drawn(["<b>"]) and "&lt;b&gt;" in drawn(["<b>"])


def test_the_log_says_the_result_first_then_the_dice(client_for, member, hero, campaign):
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero, "Stealth", level=2)))
    roll = Roll.objects.get()
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    entry = page[page.index(f'id="roll-{encode(roll.pk)}"') :]
    result = entry.index(f"<strong>{roll.snapshot['result_name']}</strong>")
    assert result < entry.index('class="faces"') < entry.index("</li>")
    words = spoken(roll.snapshot["shown"], roll.snapshot["roll"])
    assert f'aria-label="dice: {words}"' in entry


def test_a_new_roll_is_said_once_in_words_and_a_secret_one_says_nothing(
    client_for, owner, member, hero, villain, campaign
):
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero, "Stealth", level=2)))
    roll = Roll.objects.get()
    news = fragments.roll_entries(roll)["everyone"]
    said = news[news.index('<p id="roll-news" hx-swap-oob="innerHTML">') :]
    words = spoken(roll.snapshot["shown"], roll.snapshot["roll"])
    assert said.startswith(
        f'<p id="roll-news" hx-swap-oob="innerHTML">Louie: Stealth: '
        f"{roll.snapshot['result_name']} ({words})"
    )
    # The page's region is there, and the log itself is no live region (a reconnect redraws it).
    page = client_for(member).get(reverse("rolls:table", args=[campaign.pk])).content.decode()
    assert '<p id="roll-news" class="visually-hidden" aria-live="polite"></p>' in page
    assert 'id="roll-log" class="roll-log" aria-live' not in page

    secret = roll_form(villain, trait(villain, "Poisoncraft"), secret="on")
    post_roll(client_for(owner), campaign, secret)
    hidden = Roll.objects.exclude(pk=roll.pk).get()
    for_players = fragments.roll_entries(hidden)["everyone"]
    assert "The GM rolled (secret)</p>" in for_players
    assert "Poisoncraft" not in for_players and "Zanzibar" not in for_players
    assert "Zanzibar Quell: Poisoncraft:" in fragments.roll_entries(hidden)["gm"]
