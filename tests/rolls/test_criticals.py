"""A campaign's critical results table at the table (Fudge 1995 3.6: "The GM may even wish to
make a table, such as these sample melee critical results: [TABLE] Roll 2d6: 2 Blinded for the
next combat round - no defense or offense! ..."): when a check or an opposed roll comes up
critical, 2d6 are rolled on it and its row lands in the log entry, a secret roll's for GMs only."""

import pytest
from django.urls import reverse

from fudgetable import live
from fudgetable.rules.dice import base as dice_base
from rolls import fragments
from rolls.models import Roll
from tests.rolls.conftest import post_roll, roll_form, set_rules, trait

pytestmark = pytest.mark.django_db

BLINDED = "Blinded for the next combat round - no defense or offense!"


class LoadedDice:
    """Throws the given faces in order: Fudge dice (-1, 0, +1), then the table's two d6."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def randint(self, a: int, b: int) -> int:
        face = self.faces.pop(0)
        assert a <= face <= b, (a, face, b)
        return face

    def shuffle(self, x):  # pragma: no cover - no deck here
        pass


@pytest.fixture
def dice(monkeypatch):
    def load(*faces: int) -> None:
        monkeypatch.setattr(dice_base, "SYSTEM_RANDOM", LoadedDice(*faces))

    return load


@pytest.fixture
def published(monkeypatch):
    """Each table event as the services hand it to the live layer."""
    events: list[tuple[str, dict]] = []
    monkeypatch.setattr(live, "publish", lambda pk, kind, **parts: events.append((kind, parts)))
    return events


def table_page(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).text


def test_a_natural_minus_four_rolls_the_fudge_1995_table(
    client_for, owner, member, campaign, hero, dice, published
):
    set_rules(campaign, "fudge-1995", criticals="natural")
    dice(-1, -1, -1, -1, 1, 1)  # a natural -4, then 2d6: 1 + 1
    response = post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    roll = Roll.objects.get()
    assert roll.snapshot["critical"] == "critical-failure"
    assert roll.snapshot["critical_row"] == {
        "faces": [1, 1],
        "total": 2,
        "text": BLINDED,
        "chance": "1/36",
        "chance_percent": 2.8,
    }
    line = f'Critical table, 2d6 1 + 1 = 2 <span class="meta">(2.8%)</span>: <strong>{BLINDED}'
    assert line in response.text
    for user in (owner, member):
        assert line in table_page(client_for(user), campaign)
    [(kind, parts)] = published
    assert kind == "roll.created" and BLINDED in parts["everyone"] and BLINDED in parts["gm"]
    # The one-line summary a sheet's roll (and a page without JavaScript) shows says it too.
    assert fragments.roll_summary(roll).endswith(f"; critical table 2: {BLINDED}")


def test_a_total_with_no_row_says_the_gm_decides(client_for, member, campaign, hero, dice):
    set_rules(campaign, "fudge-1995", criticals="natural")
    dice(1, 1, 1, 1, 6, 6)  # a natural +4, then 12: the sample stops at 8
    response = post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    assert Roll.objects.get().snapshot["critical_row"]["text"] == ""
    assert "row 12 is empty: the GM decides" in response.text


def test_no_critical_no_table_roll(client_for, member, campaign, hero, dice):
    set_rules(campaign, "fudge-1995", criticals="natural")
    dice(1, 1, 1, 0)
    post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    assert "critical_row" not in Roll.objects.get().snapshot


def test_criticals_off_or_no_table_means_no_table_roll(client_for, member, campaign, hero, dice):
    client = client_for(member)
    set_rules(campaign, "fudge-1995")  # its table, but criticals stay off by default
    dice(1, 1, 1, 1)
    post_roll(client, campaign, roll_form(hero, trait(hero)))
    set_rules(campaign, "fudge-lite", criticals="natural")  # criticals, but no table
    dice(1, 1, 1, 1)
    post_roll(client, campaign, roll_form(hero, trait(hero)))
    for roll in Roll.objects.all():
        assert "critical_row" not in roll.snapshot
    assert Roll.objects.first().snapshot["critical"] == "critical-success"


def test_a_campaigns_own_row_is_read(client_for, member, campaign, hero, dice):
    set_rules(campaign, criticals="both", critical_table=[[7, "Your foe's shield splits."]])
    dice(1, 1, 1, 1, 3, 4)
    response = post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    assert "Your foe&#x27;s shield splits." in response.text


def test_an_opposed_roll_that_comes_up_critical_rolls_the_table_too(
    client_for, owner, member, campaign, hero, villain, dice
):
    set_rules(campaign, "fudge-1995", criticals="natural", npc_roll="none")
    dice(-1, -1, -1, -1, 2, 1)
    data = {
        "kind": "contest",
        "character": hero.pk,
        "trait": trait(hero).pk,
        "opponent": villain.pk,
        "opponent_trait": trait(villain, "Poisoncraft").pk,
        "modifiers": "",
        "opponent_modifiers": "",
        "key": "contest-critical",
    }
    response = post_roll(client_for(owner), campaign, data)
    s = Roll.objects.get().snapshot
    assert s["critical"] == "critical-failure" and s["critical_row"]["total"] == 3
    words = "Fall down: skill at -2 for one round."
    assert words in response.text and words in table_page(client_for(member), campaign)


def test_a_secret_rolls_critical_row_reaches_only_gms(
    client_for, owner, member, campaign, villain, dice, published
):
    set_rules(campaign, "fudge-1995", criticals="natural")
    dice(-1, -1, -1, -1, 1, 1)
    data = roll_form(villain, trait(villain, "Poisoncraft"), secret="on")
    post_roll(client_for(owner), campaign, data)
    roll = Roll.objects.get()
    assert roll.secret and roll.snapshot["critical_row"]["text"] == BLINDED
    assert BLINDED in table_page(client_for(owner), campaign)
    player_page = table_page(client_for(member), campaign)
    assert BLINDED not in player_page and "Critical table" not in player_page
    [(_, parts)] = published
    assert BLINDED not in (parts["everyone"] or "") and BLINDED in parts["gm"]
    assert BLINDED not in (fragments.roll_entries(roll)["everyone"] or "")


def test_a_hidden_difficulty_keeps_its_critical_row_from_players(
    client_for, owner, member, campaign, hero, dice
):
    # A critical read from the margin would tell the player how far past the difficulty it is.
    set_rules(campaign, "fudge-1995", criticals="margin")
    dice(0, 0, 0, 0, 1, 1)
    data = roll_form(hero, trait(hero, "Stealth", level=3), difficulty=-2, hidden_difficulty="on")
    post_roll(client_for(owner), campaign, data)
    assert Roll.objects.get().snapshot["critical_row"]["text"] == BLINDED
    assert BLINDED in table_page(client_for(owner), campaign)
    assert BLINDED not in table_page(client_for(member), campaign)
