"""A player's own traits as one-tap rolls at the table, each with its odds against the default
difficulty, the full roller folded behind More."""

from django.urls import reverse

from fudgetable.rules.tracks import LITE_PENALTY_TRACK
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, set_rules, trait
from tests.rolls.test_sheet_lines import mark


def table_page(client, campaign) -> str:
    return client.get(reverse("rolls:table", args=[campaign.pk])).content.decode()


def test_a_player_sees_their_traits_with_the_seeds_odds_first(client_for, member, hero, campaign):
    """Fudge 1995, 3.23 "Success Rates", 4dF against Fair: a Fair trait needs 0 or better
    (62%), a Mediocre one +1 or better (38%), a Great one -2 or better (94%)."""
    set_rules(campaign, "fudge-1995")
    for name, level in (("Climbing", 1), ("Bow", 0), ("Riding", 3)):
        trait(hero, name, level=level)
    page = table_page(client_for(member), campaign)
    quick = page[page.index('id="quick-rolls"') : page.index('id="roller"')]
    assert "Your rolls" in quick and "against Fair" in quick
    for name, words, percent in (
        ("Climbing", "Fair", "62%"),
        ("Bow", "Mediocre", "38%"),
        ("Riding", "Great", "94%"),
    ):
        row = quick[quick.index(f"Roll </span>{name}") :]
        row = row[: row.index("</button>")]
        assert words in row and percent in row, row
    # The full roller is behind More.
    assert '<details class="fold" id="roller-more"><summary>More: opposed' in page


def test_a_wound_counts_in_the_odds(client_for, member, hero, campaign):
    """Fudge Lite's condition penalties (Hurt -1): a Fair trait, Hurt, against Fair needs +1."""
    set_rules(campaign, injury_track=LITE_PENALTY_TRACK.to_dict())
    mark(hero, 4)  # Hurt
    trait(hero, "Stealth", level=1)
    page = table_page(client_for(member), campaign)
    row = page[page.index("Roll </span>Stealth") :]
    assert "38%" in row[: row.index("</button>")]


def test_a_quick_roll_is_a_roll_of_that_trait(client_for, member, hero, campaign):
    stealth = trait(hero, "Stealth", level=2)
    client = client_for(member)
    data = {"kind": "check", "trait": stealth.pk, "difficulty": 1, "key": fresh_key()}
    response = client.post(
        reverse("rolls:roll", args=[campaign.pk]), data, headers={"HX-Request": "true"}
    )
    assert response.status_code == 200
    assert 'id="roll-outcome"' in response.content.decode()
    made = Roll.objects.get()
    assert made.character == hero and made.snapshot["trait"] == "Stealth"


def test_the_gm_and_an_observer_get_no_quick_rolls_and_an_outsider_no_table(
    client_for, owner, observer, outsider, hero, campaign
):
    trait(hero, "Stealth", level=2)
    for person in (owner, observer):
        page = table_page(client_for(person), campaign)
        assert 'id="quick-rolls"' not in page and 'id="roller-more"' not in page
    assert client_for(outsider).get(reverse("rolls:table", args=[campaign.pk])).status_code == 404


def test_a_quick_roll_works_without_javascript(client_for, member, hero, campaign):
    """Without JavaScript the button's form carries its own key (in <noscript>) and the page
    comes back with the roll in the log."""
    stealth = trait(hero, "Stealth", level=2)
    client = client_for(member)
    page = table_page(client, campaign)
    key = page[page.index('<noscript><input type="hidden" name="key" value="') :].split('"')[5]
    data = {"kind": "check", "trait": stealth.pk, "difficulty": 1, "key": key}
    response = client.post(reverse("rolls:roll", args=[campaign.pk]), data, follow=True)
    assert response.redirect_chain and Roll.objects.get().idempotency_key == key
    assert "Louie: Stealth" in response.content.decode()
