"""The GM's own words for the ladder (Settings -> The game): saved whole or not at all, and
said on the sheet, at the table, in the log and in typed rolls; by default the rules' words in
the reader's language. Owner (the GM), member and outsider."""

import pytest
from django.urls import reverse

from campaigns.models import Campaign
from characters.models import Character, Trait
from characters.services import character_create
from rolls.models import Roll
from tests.rolls.conftest import fresh_key

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}


def settings_url(campaign: Campaign) -> str:
    return reverse("campaigns:settings", args=[campaign.pk])


def rung_fields(client, campaign: Campaign) -> dict[str, str]:
    """Each rung's own name in the rules -> the name of its field on the settings page."""
    form = client.get(settings_url(campaign)).context["form"]
    return {own: name for name, own in form.rungs.items()}


def save_words(client, campaign: Campaign, words: dict[str, str], **changes: object):
    fields = rung_fields(client, campaign)
    data: dict[str, object] = {
        "name": campaign.name,
        "pitch": campaign.pitch,
        "ruleset": campaign.ruleset,
        "language": campaign.language,
        "version": campaign.version,
        **{fields[own]: word for own, word in words.items()},
        **changes,
    }
    return client.post(settings_url(campaign), data)


@pytest.fixture
def louie(campaign: Campaign, member) -> Character:
    character = character_create(campaign=campaign, owner=member, name="Louie")
    Trait.objects.update_or_create(
        character=character, kind=Trait.Kind.TRAIT, name="Athletics", defaults={"level": 2}
    )
    return character


def test_the_gm_names_the_rungs_next_to_the_tables_language(client_for, owner, campaign):
    client = client_for(owner)
    page = client.get(settings_url(campaign)).content.decode()
    assert "Words for the ladder" in page
    assert 'placeholder="Good"' in page  # blank: the rules' word, shown
    response = save_words(client, campaign, {"Good": "  Solid ", "Superb": "Heroic"})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.ladder_words == {"Good": "Solid", "Superb": "Heroic"}
    fields = rung_fields(client, campaign)
    again = client.get(settings_url(campaign)).context["form"]
    assert again[fields["Good"]].value() == "Solid"  # the page shows what was saved
    assert again[fields["Fair"]].value() == ""


def test_blank_words_give_the_rules_words_back(client_for, owner, campaign):
    campaign.ladder_words = {"Good": "Solid"}
    campaign.save()
    save_words(client_for(owner), campaign, {"Good": ""})
    campaign.refresh_from_db()
    assert campaign.ladder_words == {}


@pytest.mark.parametrize(
    ("words", "message"),
    [
        ({"Good": "Solid", "Great": "solid"}, "already names another rung"),
        ({"Good": "Great"}, "already names another rung"),  # Great's own name still reads
        ({"Good": "+3"}, "would read as a number"),
        ({"Good": "Solid (+2)"}, "would read as a number"),
        ({"Good": "x" * 31}, "at most 30 characters"),
    ],
)
def test_a_bad_word_saves_nothing_and_says_why(client_for, owner, campaign, words, message):
    client = client_for(owner)
    before = (campaign.version, campaign.name)
    response = save_words(client, campaign, {"Fair": "Steady", **words}, name="Renamed")
    assert response.status_code == 200
    page = response.content.decode()
    assert "Nothing was saved" in page
    assert message in page
    campaign.refresh_from_db()
    assert (campaign.version, campaign.name) == before
    assert campaign.ladder_words == {}


def test_the_gms_words_are_on_the_sheet_and_the_table_for_everyone(
    client_for, owner, member, campaign, louie
):
    save_words(client_for(owner), campaign, {"Good": "Solid"})
    for person in (owner, member):
        client = client_for(person)
        sheet = client.get(
            reverse("characters:sheet", args=[campaign.pk, louie.pk])
        ).content.decode()
        assert "Solid (+2)" in sheet
        assert "Good (+2)" not in sheet
        table = client.get(reverse("rolls:table", args=[campaign.pk]))
        assert (2, "Solid (+2)") in table.context["difficulties"]


def test_a_member_cannot_change_the_words_and_an_outsider_cannot_see_them(
    client_for, owner, member, outsider, campaign
):
    fields = rung_fields(client_for(owner), campaign)
    data = {
        "name": campaign.name,
        "ruleset": campaign.ruleset,
        "version": campaign.version,
        fields["Good"]: "Solid",
    }
    assert client_for(member).get(settings_url(campaign)).status_code == 403
    assert client_for(member).post(settings_url(campaign), data).status_code == 403
    assert client_for(outsider).post(settings_url(campaign), data).status_code == 404
    campaign.refresh_from_db()
    assert campaign.ladder_words == {}


def test_a_typed_roll_reads_the_gms_word_and_the_english_one(client_for, owner, member, campaign):
    save_words(client_for(owner), campaign, {"Good": "Solid"})
    client = client_for(member)
    say = reverse("rolls:say", args=[campaign.pk])
    for line in ("/r 4dF vs solid", "/r 4dF vs Good", "/r 4dF vs Solid +1"):
        answer = client.post(say, {"line": line, "key": fresh_key()}, headers=HTMX)
        assert answer.status_code == 200
    assert [roll.snapshot["difficulty"] for roll in Roll.objects.order_by("pk")] == [2, 2, 3]
    log = client.get(reverse("rolls:log", args=[campaign.pk])).content.decode()
    assert "vs Solid (+2)" in log and "vs Great (+3)" in log
    assert "vs Good (+2)" not in log


def test_the_log_says_earlier_entries_in_the_words_of_today(client_for, owner, member, campaign):
    client = client_for(member)
    say = reverse("rolls:say", args=[campaign.pk])
    client.post(say, {"line": "/r 4dF vs Good", "key": fresh_key()}, headers=HTMX)
    assert Roll.objects.get().snapshot["difficulty_name"] == "Good (+2)"  # the rules' words
    save_words(client_for(owner), campaign, {"Good": "Solid"})
    log = client.get(reverse("rolls:log", args=[campaign.pk])).content.decode()
    assert "vs Solid (+2)" in log


def test_without_words_each_reader_gets_the_rules_words_in_their_language(
    client_for, member, campaign, louie
):
    Trait.objects.filter(character=louie).update(level=3)
    sheet = reverse("characters:sheet", args=[campaign.pk, louie.pk])
    french = client_for(member).get(sheet, headers={"accept-language": "fr"}).content.decode()
    assert "Excellent (+3)" in french
    english = client_for(member).get(sheet).content.decode()
    assert "Great (+3)" in english


def test_a_word_typed_for_two_rungs_is_refused_on_both(client_for, owner, campaign):
    client = client_for(owner)
    fields = rung_fields(client, campaign)
    response = save_words(client, campaign, {"Good": "Solid", "Great": "Solid"})
    errors = response.context["form"].errors
    assert (
        errors[fields["Good"]] == errors[fields["Great"]] == ["“Solid” already names another rung."]
    )
