"""A refused htmx command says why in words (live.js shows a plain-text answer as the page's
notice); a page without htmx gets Django's error page, as before."""

import pytest
from django.urls import reverse

from fudgetable.views import NOT_FOUND_TEXT

HX = {"HX-Request": "true"}
COUNTDOWN = {"name": "Tide", "boxes": "4", "visibility": "public"}


@pytest.fixture
def url(campaign):
    return reverse("rolls:countdown_create", args=[campaign.pk])


@pytest.mark.django_db
def test_the_owner_member_and_outsider_each_get_their_answer(
    client_for, url, owner, member, outsider
):
    assert client_for(owner).post(url, COUNTDOWN, headers=HX).status_code == 200
    refused = client_for(member).post(url, COUNTDOWN, headers=HX)
    assert refused.status_code == 403 and refused["Content-Type"].startswith("text/plain")
    assert refused.content.decode() == "Only the campaign's GMs can do that."
    hidden = client_for(outsider).post(url, COUNTDOWN, headers=HX)
    assert (hidden.status_code, hidden.content.decode()) == (404, str(NOT_FOUND_TEXT))


@pytest.mark.django_db
def test_without_htmx_the_error_pages_stay(client_for, url, member, outsider):
    refused = client_for(member).post(url, COUNTDOWN)
    assert refused.status_code == 403 and refused["Content-Type"].startswith("text/html")
    hidden = client_for(outsider).post(url, COUNTDOWN)
    assert hidden.status_code == 404 and str(NOT_FOUND_TEXT) not in hidden.content.decode()


@pytest.mark.django_db
def test_a_refused_page_is_in_the_sites_layout_and_says_why(client_for, campaign, owner, member):
    settings_url = reverse("campaigns:settings", args=[campaign.pk])
    assert client_for(owner).get(settings_url).status_code == 200
    refused = client_for(member).get(settings_url)
    page = refused.content.decode()
    assert refused.status_code == 403
    assert 'class="site-header"' in page and "You may not open this page" in page
    assert "Only the campaign&#x27;s GMs can do that." in page
    assert reverse("dashboard") in page and "Log out" in page


@pytest.mark.django_db
def test_a_missing_page_is_in_the_sites_layout_and_offers_a_way_back(
    client_for, outsider, campaign
):
    missing = client_for(outsider).get(reverse("rolls:table", args=[campaign.pk]))
    page = missing.content.decode()
    assert missing.status_code == 404
    assert 'class="site-header"' in page and "That page is not here" in page
    assert "Back to your campaigns" in page


def test_a_server_error_page_is_in_the_sites_layout_and_needs_no_request():
    from django.template.loader import render_to_string

    page = render_to_string("500.html")
    assert 'class="site-header"' in page and "Something went wrong on our side" in page
    assert "<script" not in page  # nothing the CSP would want a nonce for


@pytest.mark.django_db
def test_a_stale_form_is_refused_in_the_sites_layout(member, campaign):
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(member)
    refused = client.post(reverse("rolls:hand_raise", args=[campaign.pk]))
    page = refused.content.decode()
    assert refused.status_code == 403 and "That form was out of date" in page
    assert 'class="site-header"' in page
