"""An id in a URL that no row could have (past 64 bits) is a 404 like any unknown id, never a
500: SQLite raised OverflowError on it."""

import pytest
from channels.testing import WebsocketCommunicator

from fudgetable.asgi import application

pytestmark = pytest.mark.django_db

HUGE = "9" * 30
PAGES = [
    f"/campaigns/{HUGE}/",
    f"/campaigns/{HUGE}/export.json",
    f"/campaigns/{HUGE}/characters/",
    f"/campaigns/{HUGE}/table/",
    "/campaigns/{campaign}/characters/" + HUGE + "/",
    "/campaigns/{campaign}/table/sessions/" + HUGE + "/",
]


@pytest.mark.parametrize("person", ["owner", "member", "outsider"])
@pytest.mark.parametrize("page", PAGES)
def test_an_id_past_64_bits_is_a_404(client_for, campaign, request, person, page):
    user = request.getfixturevalue(person)
    response = client_for(user).get(page.format(campaign=campaign.pk))
    assert response.status_code == 404


def test_a_command_on_an_id_past_64_bits_is_a_404(client_for, campaign, owner):
    url = f"/campaigns/{campaign.pk}/table/countdowns/{HUGE}/mark/"
    assert client_for(owner).post(url).status_code == 404


def test_the_largest_id_a_url_takes_is_an_ordinary_404(client_for, owner):
    assert client_for(owner).get(f"/campaigns/{'9' * 18}/").status_code == 404


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("person", ["owner", "member", "outsider"])
@pytest.mark.parametrize("path", [f"/ws/campaigns/{HUGE}/", "/ws/campaign/1/", "/ws/"])
async def test_a_socket_to_no_table_is_refused_at_the_handshake(cookies, person, path):
    headers = [(b"host", b"localhost"), (b"origin", b"http://localhost"), cookies[person]]
    communicator = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await communicator.connect()
    assert not connected
    await communicator.disconnect()
