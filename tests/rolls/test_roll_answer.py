"""What a roll POST answers: under the roll form, what was rolled or what was wrong, and a
fresh idempotency key for the next tap; a busy server's 503 in place of a 500."""

import re

import pytest
from django.db import OperationalError

from fudgetable.entry_ids import encode
from rolls import fragments, views
from rolls.models import Roll
from tests.rolls.conftest import post_roll, roll_form, trait

pytestmark = pytest.mark.django_db

KEY = re.compile(
    r'<input type="hidden" name="key" value="([^"]+)" id="roll-key" hx-swap-oob="true">'
)


def test_a_made_roll_answers_with_the_entry_and_a_fresh_key(client_for, member, campaign, hero):
    data = roll_form(hero, trait(hero))
    response = post_roll(client_for(member), campaign, data)
    html = response.content.decode()
    made = Roll.objects.get()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="roll-outcome">') and "You rolled" in html
    assert f'id="roll-{encode(made.pk)}"' in html
    fresh = KEY.search(html)
    assert fresh is not None and fresh.group(1) != data["key"]
    # The form itself is not sent again: what the player picked stays as it was.
    assert 'id="roll-trait"' not in html


def test_a_refused_roll_says_why_and_keeps_the_key(client_for, member, campaign, hero):
    response = post_roll(client_for(member), campaign, roll_form(hero, None))
    html = response.content.decode()
    assert response.status_code == 200 and Roll.objects.count() == 0
    assert "Pick the trait to roll." in html and KEY.search(html) is None


def test_the_gm_rolls_and_an_outsider_is_turned_away(client_for, owner, outsider, campaign, hero):
    data = roll_form(hero, trait(hero))
    assert post_roll(client_for(outsider), campaign, data).status_code == 404
    assert Roll.objects.count() == 0
    response = post_roll(client_for(owner), campaign, data)
    assert response.status_code == 200 and KEY.search(response.content.decode())
    assert Roll.objects.get().roller == owner


@pytest.mark.parametrize(
    ("who", "extra", "bodies"),
    [
        ("member", {}, 1),
        ("owner", {}, 1),
        # What players read differs from what GMs read: once for each.
        ("owner", {"secret": "on"}, 2),
        ("owner", {"hidden_difficulty": "on", "difficulty": "2"}, 2),
        ("outsider", {}, 0),
    ],
)
def test_a_roll_is_written_out_once_for_the_table_the_gms_and_the_roller(
    client_for, campaign, hero, monkeypatch, request, who, extra, bodies
):
    """The entry goes to the players' sockets, the GMs' sockets and the roller's answer; only
    the controls differ between them, so what the roll says is rendered once."""
    rendered = []
    render = fragments.render_to_string

    def noting_the_body(name, *args, **kwargs):
        html = render(name, *args, **kwargs)
        if name.endswith("#entry-body"):
            rendered.append(html)
        return html

    monkeypatch.setattr(fragments, "render_to_string", noting_the_body)
    response = post_roll(
        client_for(request.getfixturevalue(who)),
        campaign,
        {**roll_form(hero, trait(hero)), **extra},
    )
    assert response.status_code == (404 if who == "outsider" else 200)
    assert len(rendered) == bodies
    if bodies:
        # The roller's answer shows the entry as the roller's audience reads it.
        assert rendered[-1 if who == "owner" else 0] in response.content.decode()


@pytest.fixture(
    params=[
        # SQLite under a burst of writes: the lock stayed taken past the timeout.
        "database is locked",
        # PostgreSQL: every connection of the process's pool stayed in use past its wait.
        "couldn't get a connection after 10.00 sec",
    ]
)
def locked(monkeypatch, request):
    """The database was too busy to take the roll in time."""

    def wait_out(*args, **kwargs):
        raise OperationalError(request.param)

    monkeypatch.setattr(views, "roll_from", wait_out)


def test_a_busy_server_tells_htmx_to_try_again(client_for, member, campaign, hero, locked):
    response = post_roll(client_for(member), campaign, roll_form(hero, trait(hero)))
    assert response.status_code == 503 and response["Retry-After"] == "2"
    assert response["Content-Type"].startswith("text/plain")
    assert "too busy" in response.content.decode() and "try again" in response.content.decode()
    assert Roll.objects.count() == 0


def test_a_busy_server_shows_a_page_without_javascript(client_for, owner, campaign, hero, locked):
    data = roll_form(hero, trait(hero))
    response = post_roll(client_for(owner), campaign, data, htmx=False)
    assert response.status_code == 503
    assert "Too busy" in response.content.decode() and Roll.objects.count() == 0


def test_other_database_errors_are_not_called_busy(client_for, member, campaign, hero, monkeypatch):
    def broken(*args, **kwargs):
        raise OperationalError("no such table: rolls_roll")

    monkeypatch.setattr(views, "roll_from", broken)
    client = client_for(member)
    client.raise_request_exception = True
    with pytest.raises(OperationalError, match="no such table"):
        post_roll(client, campaign, roll_form(hero, trait(hero)))
