"""Who sees which language: a person's pages follow their browser until they choose one on the
Account page, which follows them to every device they log in on and stays on this one after a
log-out; a campaign's table language is the GM's to set."""

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from campaigns.models import Campaign, Profile
from campaigns.selectors import campaign_language, person_language
from fudgetable.language import SESSION_KEY
from tests.factories import PASSWORD

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def browser(language: str) -> Client:
    return Client(headers={"accept-language": language})


def logged_in(user, language: str = "en") -> Client:
    client = browser(language)
    client.force_login(user)
    return client


def page(client: Client, name: str, *args: object) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def choose(client: Client, language: str):
    return client.post(reverse("account_language"), {"language": language})


# --- The browser's language, until a choice ----------------------------------------------------


@pytest.mark.parametrize(
    ("header", "code", "words"),
    [
        ("pt-BR,pt;q=0.9,en;q=0.5", "pt-br", "Entrar"),
        ("es-ES,es;q=0.9", "es", "Entrar"),
        ("fr-CH, fr;q=0.9", "fr", "Se connecter"),
        ("de", "de", "Anmelden"),
        ("ja, en;q=0.5", "en", "Log in"),
        ("ja", "en", "Log in"),
    ],
)
def test_a_visitor_reads_the_first_language_of_their_browser_the_site_speaks(header, code, words):
    response = browser(header).get(reverse("login"))
    body = response.content.decode()
    assert f'<html lang="{code}">' in body
    assert f'<h1 id="login-heading">{words}</h1>' in body
    assert response["Content-Language"] == code
    assert "Accept-Language" in response["Vary"]


def test_the_gm_and_a_player_who_chose_nothing_read_their_browsers_language(
    owner, member, campaign
):
    assert "Rules at this table" in page(logged_in(owner, "en"), "campaigns:detail", campaign.pk)
    german = page(logged_in(member, "de-DE"), "campaigns:detail", campaign.pk)
    assert "Regeln an diesem Tisch" in german
    assert "Zum Tisch" in german


def test_an_outsider_is_refused_in_their_own_language(outsider, campaign):
    response = logged_in(outsider, "fr").get(reverse("campaigns:detail", args=[campaign.pk]))
    assert response.status_code == 404
    assert "Cette page n'est pas ici" in response.content.decode()


# --- A person's own choice ------------------------------------------------------------------


def test_the_account_page_offers_each_language_in_its_own_words(member):
    body = page(logged_in(member, "de"), "account")
    assert "Sprache dieser Seiten" in body
    for own_words in ("English", "Português Brasileiro", "Español", "Français", "Deutsch"):
        assert own_words in body
    assert "Die Sprache meines Browsers" in body


def test_a_player_who_chooses_portuguese_reads_it_whatever_their_browser_says(member, campaign):
    client = logged_in(member, "en-US")
    response = choose(client, "pt-br")
    assert response.status_code == 302
    assert person_language(member) == "pt-br"
    assert response.cookies[COOKIE].value == "pt-br"
    account = client.get(response["Location"]).content.decode()
    assert "Idioma salvo." in account  # the notice is in the new language already
    assert '<option value="pt-br" selected>' in account
    assert "Seus personagens" in account or "Sua conta" in account
    assert "Personagens" in page(client, "characters:list", campaign.pk)


def test_the_choice_follows_the_person_to_a_device_they_log_in_on(member):
    choose(logged_in(member), "fr")
    phone = browser("de")
    response = phone.post(
        reverse("login"), {"username": member.username, "password": PASSWORD}, follow=True
    )
    assert "Vos campagnes" in response.content.decode()
    assert phone.cookies[COOKIE].value == "fr"


def test_after_a_log_out_the_device_keeps_the_chosen_language(member):
    client = logged_in(member, "en")
    choose(client, "es")
    client.post(reverse("logout"))
    assert SESSION_KEY not in client.session
    body = page(client, "login")
    assert '<html lang="es">' in body
    assert "Entrar" in body


def test_choosing_the_browsers_language_again_follows_the_browser_and_clears_the_device(member):
    client = logged_in(member, "de")
    choose(client, "fr")
    response = choose(client, "")
    assert person_language(member) == ""
    assert response.cookies[COOKIE].value == ""  # deleted
    assert "Dein Konto" in page(client, "account")


def test_someone_else_logging_in_on_that_device_reads_their_own_choice_or_browser(member, owner):
    client = logged_in(member, "en")
    choose(client, "de")
    client.post(reverse("logout"))
    client.force_login(owner)  # chose nothing: their browser's language, not the last person's
    assert "Your account" in page(client, "account")


def test_a_language_the_site_does_not_speak_is_refused_and_nothing_changes(member):
    client = logged_in(member, "en")
    response = choose(client, "ja")
    assert response.status_code == 422
    assert not Profile.objects.filter(user=member).exists()
    assert COOKIE not in response.cookies


def test_an_outsider_who_is_not_logged_in_cannot_choose_for_anyone(member):
    response = browser("en").post(reverse("account_language"), {"language": "de"})
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))
    assert not Profile.objects.exists()


def test_a_chosen_language_costs_no_query_on_a_page(member):
    client = logged_in(member, "en")

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            body = client.get(reverse("dashboard")).content.decode()
        return len(captured.captured_queries), body

    client.get(reverse("dashboard"))
    browsers, _ = queries()
    choose(client, "pt-br")
    client.get(reverse("dashboard"))
    chosen, body = queries()
    assert "Suas campanhas" in body
    assert chosen == browsers > 0


def test_a_deleted_account_takes_its_choice_with_it(member):
    choose(logged_in(member), "fr")
    member.delete()
    assert not Profile.objects.exists()


# --- A campaign's table language ----------------------------------------------------------------


def settings_post(campaign: Campaign, **changes: object) -> dict[str, object]:
    return {
        "name": campaign.name,
        "pitch": campaign.pitch,
        "ruleset": campaign.ruleset,
        "version": campaign.version,
        **changes,
    }


def test_a_new_campaign_plays_in_english(campaign):
    assert campaign.language == "en"
    assert campaign_language(campaign) == "en"


def test_the_gm_sets_the_table_language_in_the_settings(owner, campaign):
    client = logged_in(owner, "en")
    form = page(client, "campaigns:settings", campaign.pk)
    assert "Language of the table" in form
    assert '<option value="fr">Français</option>' in form
    response = client.post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_post(campaign, language="fr")
    )
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign_language(campaign) == "fr"
    # The table's language is the table's: the GM's own pages still follow the GM.
    assert "Rules at this table" in page(client, "campaigns:detail", campaign.pk)
    assert '<option value="fr" selected>Français</option>' in page(
        client, "campaigns:settings", campaign.pk
    )


def test_a_settings_post_without_a_language_keeps_the_tables(owner, campaign):
    Campaign.objects.filter(pk=campaign.pk).update(language="de")
    campaign.refresh_from_db()
    logged_in(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_post(campaign)
    )
    campaign.refresh_from_db()
    assert campaign.language == "de"


def test_a_language_the_site_does_not_speak_is_no_table_language(owner, campaign):
    response = logged_in(owner).post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_post(campaign, language="ja")
    )
    assert response.status_code == 200
    assert "language" in response.context["form"].errors
    campaign.refresh_from_db()
    assert campaign.language == "en"


def test_a_player_cannot_set_the_table_language(member, campaign):
    response = logged_in(member).post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_post(campaign, language="de")
    )
    assert response.status_code == 403
    campaign.refresh_from_db()
    assert campaign.language == "en"


def test_an_outsider_cannot_even_find_the_settings(outsider, campaign):
    response = logged_in(outsider).post(
        reverse("campaigns:settings", args=[campaign.pk]), settings_post(campaign, language="de")
    )
    assert response.status_code == 404
    campaign.refresh_from_db()
    assert campaign.language == "en"


# --- Plural forms and words that carry numbers ---------------------------------------------------


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("pt-br", "Você tem 1 personagem:", "Você tem 2 personagens:"),
        ("fr", "Vous avez 1 personnage :", "Vous avez 2 personnages :"),
        ("de", "Du hast 1 Charakter:", "Du hast 2 Charaktere:"),
        ("es", "Tienes 1 personaje:", "Tienes 2 personajes:"),
    ],
)
def test_counts_take_the_languages_plural_forms(member, campaign, language, one, two):
    from characters.models import Character

    client = logged_in(member, language)
    Character.objects.create(campaign=campaign, owner=member, name="Ana")
    assert one in page(client, "account")
    Character.objects.create(campaign=campaign, owner=member, name="Bea")
    assert two in page(client, "account")


def test_a_request_leaves_no_language_behind_it(member):
    """What runs after an answer in the same thread (a socket's push, a refusal made before
    the middleware) speaks the default, not the last person's language."""
    from django.utils import translation

    page(logged_in(member, "pt-BR"), "account")
    assert translation.get_language() == "en"
    assert translation.gettext("Your account") == "Your account"
