"""After a secret roll the roller's Secret box comes back unticked, saying so, so the GM's next
roll is not secret by mistake; a public roll leaves the box alone."""

import pytest

from tests.rolls.conftest import post_roll, roll_form, trait

pytestmark = pytest.mark.django_db

BOX = '<div id="roll-secret" hx-swap-oob="true">'


def test_a_secret_roll_unticks_the_box_and_a_public_one_leaves_it(
    client_for, owner, member, outsider, campaign, hero
):
    gm = client_for(owner)
    secret = post_roll(gm, campaign, roll_form(hero, trait(hero), secret="on")).content.decode()
    assert BOX in secret and 'name="secret">' in secret and "checked" not in secret.split(BOX)[1]
    assert "Your last roll was secret" in secret
    public = post_roll(gm, campaign, roll_form(hero, trait(hero))).content.decode()
    assert BOX not in public
    # A player's roll is never secret, and their page has no such box to reset.
    mine = post_roll(client_for(member), campaign, roll_form(hero, trait(hero), secret="on"))
    assert BOX not in mine.content.decode()
    refused = post_roll(client_for(outsider), campaign, roll_form(hero, trait(hero)))
    assert refused.status_code == 404
