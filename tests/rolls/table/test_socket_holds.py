"""A table's socket runs each command on its person's membership and campaign as they are when
the command runs: never on a role or rules the GM has since changed. (Held by the socket and
read again on an event, they were read too late on Redis, where the event could arrive after
the next command: docs/performance.md.)"""

import pytest
from asgiref.sync import sync_to_async

from campaigns.models import Campaign, Membership
from campaigns.services import campaign_update, membership_set_role
from rolls.models import Roll
from tests.rolls.conftest import roll_form, trait
from tests.rolls.table.test_socket_commands import answer_to, command, roll_path
from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def stealth(hero):
    return trait(hero, "Stealth", 1)


def _harder_by_the_settings(campaign: Campaign) -> None:
    campaign.refresh_from_db()
    campaign_update(
        campaign=campaign,
        version=campaign.version,
        name=campaign.name,
        pitch=campaign.pitch,
        ruleset=campaign.ruleset,
        overrides={**campaign.overrides, "default_difficulty": 3},
    )


def _harder_by_a_save(campaign: Campaign) -> None:
    campaign.refresh_from_db()
    campaign.overrides = {**campaign.overrides, "default_difficulty": 3}
    campaign.save(update_fields=["overrides"])


async def _difficulty_of_the_last_roll() -> int:
    roll = await Roll.objects.order_by("-pk").afirst()
    assert roll is not None
    return roll.snapshot["difficulty"]


@pytest.mark.parametrize("change", [_harder_by_the_settings, _harder_by_a_save])
async def test_a_players_next_roll_uses_the_rules_the_gm_just_changed(
    campaign, cookies, hero, stealth, change
):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), roll_form(hero, stealth), number=1)
    assert (await answer_to(player, 1))["status"] == 200
    assert await _difficulty_of_the_last_roll() == 1  # the preset's Fair

    await sync_to_async(change)(campaign)
    await command(player, roll_path(campaign), roll_form(hero, stealth), number=2)
    assert (await answer_to(player, 2))["status"] == 200
    assert await _difficulty_of_the_last_roll() == 3  # the socket read the campaign again
    # The GM's socket, which holds its own copy, rolls by the new rules too.
    await command(gm, roll_path(campaign), roll_form(hero, stealth), number=3)
    assert (await answer_to(gm, 3))["status"] == 200
    assert await _difficulty_of_the_last_roll() == 3
    await gm.disconnect()
    await player.disconnect()


async def test_a_player_made_an_observer_is_refused_the_next_roll_on_the_same_socket(
    campaign, cookies, hero, stealth, owner, member
):
    player = await joined(campaign, cookies["member"], "player-member")
    await command(player, roll_path(campaign), roll_form(hero, stealth), number=1)
    assert (await answer_to(player, 1))["status"] == 200

    def make_observer() -> None:
        actor = Membership.objects.get(campaign=campaign, user=owner)
        target = Membership.objects.get(campaign=campaign, user=member)
        membership_set_role(actor=actor, membership=target, role=Membership.Role.OBSERVER)

    await sync_to_async(make_observer)()
    await until(player, 'id="roll-log"')  # the table as an observer sees it
    await command(player, roll_path(campaign), roll_form(hero, stealth), number=2)
    assert (await answer_to(player, 2))["status"] == 403
    assert await Roll.objects.acount() == 1
    await player.disconnect()


async def test_an_outsider_has_no_socket_to_hold_anything_on(campaign, cookies):
    outsider = socket_for(campaign, cookies["outsider"])
    connected, _ = await outsider.connect()
    assert not connected
