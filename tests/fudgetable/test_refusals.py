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
    assert (hidden.status_code, hidden.content.decode()) == (404, NOT_FOUND_TEXT)


@pytest.mark.django_db
def test_without_htmx_the_error_pages_stay(client_for, url, member, outsider):
    refused = client_for(member).post(url, COUNTDOWN)
    assert refused.status_code == 403 and refused["Content-Type"].startswith("text/html")
    hidden = client_for(outsider).post(url, COUNTDOWN)
    assert hidden.status_code == 404 and NOT_FOUND_TEXT not in hidden.content.decode()
