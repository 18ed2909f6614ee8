"""Weapons as data (issue #39): any weapon on a sheet is offered where its kind fits. A bow is
powered by its archer's strength (a damage factor) and shot: the ranged phase offers it with
Body + Mass Scale + damage factor as its INJ (ezfudge-essentials.txt:245, again under
"Self-Powered Weapon INJ" :264); melee does not. A refused roll keeps the GM's choices."""

import pytest
from django.urls import reverse

from characters.services import gear_add, npc_create
from rolls.models import Roll
from tests.rolls.fight_setup import *  # noqa: F403  (the fixtures)
from tests.rolls.fight_setup import HTMX, fight_form, ranged_form, role

pytestmark = pytest.mark.django_db


@pytest.fixture
def longbow(jason):
    """The player's own PC, Jason (Body Great, 3), with a bow entered as the sheet offers: a
    damage factor (+1), marked shot or thrown. INJ 3 + 0 + 1 = 4."""
    return gear_add(character=jason, kind="weapon", name="Longbow", damage_factor=1, ranged=True)


def table(client, campaign):
    return client.get(reverse("rolls:table", args=[campaign.pk]))


def shoot(client, campaign, data):
    return client.post(reverse("rolls:fight_ranged", args=[campaign.pk]), data, headers=HTMX)


def ranged_picker(page: str) -> str:
    """The ranged form's weapon picker, alone."""
    start = page.index('id="ranged-shooter-weapon"')
    return page[start : page.index("</select>", start)]


def melee_pickers(page: str) -> str:
    start = page.index('id="fight-attacker-weapon"')
    end = page.index("</select>", page.index('id="fight-defender-weapon"'))
    return page[start:end]


def jason_shoots_brute(jason, longbow, brute, **extra):
    return ranged_form(jason, role(jason, "Agility"), longbow, brute, **{"range": "T", **extra})


# --- who sees the bow ----------------------------------------------------------------------


def test_the_gm_gets_the_bow_in_the_ranged_form_and_not_in_melee(
    client_for, owner, member, outsider, ez, jason, brute, longbow
):
    page = table(client_for(owner), ez).content.decode()
    option = f'<option value="{longbow.pk}">Jason Free: Longbow (INJ 4)</option>'
    assert option in ranged_picker(page)
    assert "Longbow" not in melee_pickers(page)
    assert "Jason Free: Quarterstaff" in melee_pickers(page)  # the staff stays a melee weapon
    mine = table(client_for(member), ez).content.decode()
    assert "Roll a ranged exchange" not in mine and "Longbow (INJ" not in mine
    assert table(client_for(outsider), ez).status_code == 404


def test_only_the_gm_shoots_the_bow(client_for, owner, member, outsider, ez, jason, brute, longbow):
    data = jason_shoots_brute(jason, longbow, brute)
    assert shoot(client_for(member), ez, data).status_code == 403
    assert shoot(client_for(outsider), ez, data).status_code == 404
    assert not Roll.objects.exists()


def test_a_shot_with_the_bow_records_its_damage(client_for, owner, ez, jason, brute, longbow, dice):
    """Jason shoots with Agility, Good (+2), rolling +2: Superb against Touch range, Mediocre
    (0): margin 4. Damage 4 + INJ (Body 3 + 0 + 1) 4 - the Brute's CPD 4 = 4: Hurt."""
    dice(1, 1, 0, 0)
    page = shoot(client_for(owner), ez, jason_shoots_brute(jason, longbow, brute))
    made = Roll.objects.get()
    shooter = made.snapshot["sides"][0]
    assert (shooter["weapon"], shooter["inj"]) == ("Longbow", 4)
    (wound,) = made.snapshot["fight"]["wounds"]
    assert (wound["margin"], wound["inj"], wound["cpd"]) == (4, 4, 4)
    assert (wound["name"], wound["damage"], wound["level_name"]) == ("Brute", 4, "Hurt")
    assert "Jason Free: Longbow (INJ 4)" in page.content.decode()


def test_a_bow_is_refused_in_melee(client_for, owner, ez, jason, brute, longbow):
    data = fight_form(jason, role(jason, "Agility"), brute, role(brute, "Fighter"))
    page = client_for(owner).post(
        reverse("rolls:fight", args=[ez.pk]), {**data, "attacker_weapon": longbow.pk}, headers=HTMX
    )
    assert "Longbow is shot or thrown: it shoots in the ranged phase." in page.content.decode()
    assert not Roll.objects.exists()


def test_a_bow_entered_as_a_melee_weapon_is_marked_shot_on_its_sheet(
    client_for, owner, member, outsider, ez, jason, brute
):
    """A bow entered before the sheet asked: its player marks it, and the GM may shoot it."""
    bow = gear_add(character=jason, kind="weapon", name="Old bow", damage_factor=1)
    assert "Old bow" not in ranged_picker(table(client_for(owner), ez).content.decode())
    url = reverse("characters:command", args=[ez.pk, jason.pk, "gear-ranged"])
    assert client_for(outsider).post(url, {"gear": bow.pk, "ranged": "on"}).status_code == 404
    client_for(member).post(url, {"gear": bow.pk, "ranged": "on"})
    bow.refresh_from_db()
    assert bow.ranged
    page = table(client_for(owner), ez).content.decode()
    assert "Jason Free: Old bow (INJ 4)" in ranged_picker(page)
    client_for(owner).post(url, {"gear": bow.pk})  # back to melee, by the GM
    bow.refresh_from_db()
    assert not bow.ranged


# --- a refused roll keeps the GM's choices -------------------------------------------------


def test_a_refused_shot_keeps_every_choice_and_says_what_is_missing(
    client_for, owner, ez, jason, brute, longbow
):
    data = jason_shoots_brute(
        jason, longbow, brute, shooter_weapon="", range="L", light="dim", secret="on"
    )
    data |= {"shooter_aim": "the eye", "shooter_aim_modifier": "-2", "difficulty": "3"}
    page = shoot(client_for(owner), ez, data).content.decode()
    assert "Pick the weapon shot or thrown: a gun, or a bow or the like" in page
    assert "Check the ranged form" not in page
    form = page[page.index('class="stack ranged-form"') :]
    assert f'<option value="{jason.pk}" selected>Jason Free</option>' in form
    assert f'<option value="{role(jason, "Agility").pk}" selected>' in form
    assert f'<option value="{brute.pk}" selected>Brute (NPC)</option>' in form
    for kept in ('value="L" selected', 'value="dim" selected', 'value="3" selected'):
        assert kept in form
    assert 'value="the eye"' in form and 'value="-2" selected' in form
    assert 'name="secret" checked' in form
    assert 'value="S" selected' not in form  # the default gave way to the GM's choice
    assert not Roll.objects.exists()


def test_a_shot_the_rules_refuse_keeps_the_choices_too(
    client_for, owner, ez, jason, brute, longbow
):
    data = jason_shoots_brute(jason, longbow, jason, range="M")  # at himself
    page = shoot(client_for(owner), ez, data).content.decode()
    assert "A character cannot shoot itself." in page
    form = page[page.index('class="stack ranged-form"') :]
    assert f'<option value="{longbow.pk}" selected>Jason Free: Longbow (INJ 4)</option>' in form
    assert 'value="M" selected' in form


def test_a_refused_melee_exchange_keeps_its_choices(client_for, owner, ez, jason, brute):
    data = fight_form(jason, role(jason, "Agility"), brute, role(brute, "Fighter"))
    data |= {"attacker_tactic": "all-out-attack", "defender_position": "-1", "key": "x"}
    page = client_for(owner).post(reverse("rolls:fight", args=[ez.pk]), data, headers=HTMX)
    page = page.content.decode()
    assert "Check the fight form: key." in page
    form = page[page.index('class="stack fight-form"') :]
    assert 'value="all-out-attack" selected' in form and 'value="-1" selected' in form
    assert f'<option value="{brute.pk}" selected>Brute (NPC)</option>' in form
    ranged = page[page.index('class="stack ranged-form"') :]
    assert " selected>" not in ranged.split('id="ranged-range"')[0]  # the other form is fresh


# --- an NPC from a template fights armed ---------------------------------------------------


def test_an_npc_from_a_template_fights_with_its_weapons(client_for, owner, ez, jason, brute, dice):
    """The Hill bandit (Body Fair, 1) carries a knife (+1) and a short bow (+1, shot): INJ 2
    either way, not an unarmed fighter's; his leather jacket (+1) is in his CPD."""
    bandit = npc_create(campaign=ez, name="", template_key="bandit")
    page = table(client_for(owner), ez).content.decode()
    bow = bandit.gear.get(name="Short bow")
    knife = bandit.gear.get(name="Knife")
    assert f'<option value="{bow.pk}">Hill bandit: Short bow (INJ 2)</option>' in page
    assert f'<option value="{knife.pk}">Hill bandit: Knife</option>' in melee_pickers(page)

    dice(0, 0, 0, 0)  # Jason defends with his staff at 0
    data = fight_form(bandit, role(bandit, "Archer"), jason, role(jason, "Quarterstaff for Hire"))
    client_for(owner).post(
        reverse("rolls:fight", args=[ez.pk]), {**data, "attacker_weapon": knife.pk}, headers=HTMX
    )
    attacker, _ = Roll.objects.get().snapshot["sides"]
    assert (attacker["weapon"], attacker["inj"]) == ("Knife", 2)
    Roll.objects.all().delete()
    shot = ranged_form(bandit, role(bandit, "Archer"), bow, jason, range="T")
    shoot(client_for(owner), ez, shot)
    assert Roll.objects.get().snapshot["sides"][0]["inj"] == 2
