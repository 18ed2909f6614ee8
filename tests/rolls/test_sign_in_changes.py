"""A person's sign-in changed (a new password, an account deactivated): their open table and
sheet sockets close at once, as an HTTP request from their browser would now be refused, with
no command needed to find out. Other people's sockets, and a mere log-in, are left alone."""

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import update_last_login
from django.urls import reverse

from tests.factories import PASSWORD
from tests.rolls.test_sheet_socket import sheet_socket
from tests.table_sockets import closed, joined

pytestmark = pytest.mark.django_db(transaction=True)


async def password_changed_elsewhere(client_for, user) -> None:
    """The person changes their password on the account page of another browser."""
    elsewhere = await sync_to_async(client_for)(user)
    new = "a-longer-Passphrase-9"
    data = {"old_password": PASSWORD, "new_password1": new, "new_password2": new}
    changed = await sync_to_async(elsewhere.post)(reverse("password_change"), data)
    assert changed.status_code == 302


async def open_sockets(campaign, cookies, hero):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    table = await joined(campaign, cookies["member"], "player-member")
    sheet = sheet_socket(campaign, hero, cookies["member"])
    assert (await sheet.connect())[0]
    for socket in (gm, table, sheet):  # the arrivals' presence frames
        while not await socket.receive_nothing(timeout=0.3):
            await socket.receive_from()
    return gm, table, sheet


async def test_a_password_changed_in_another_browser_closes_the_players_sockets(
    campaign, cookies, client_for, member, hero
):
    gm, table, sheet = await open_sockets(campaign, cookies, hero)
    await password_changed_elsewhere(client_for, member)
    assert await closed(table) and await closed(sheet)
    assert await gm.receive_nothing(timeout=0.3)  # the GM's socket is not theirs to close
    for socket in (gm, table, sheet):
        await socket.disconnect()


async def test_a_deactivated_account_loses_its_sockets(campaign, cookies, member, hero):
    gm, table, sheet = await open_sockets(campaign, cookies, hero)
    member.is_active = False
    await member.asave()
    assert await closed(table) and await closed(sheet)
    for socket in (gm, table, sheet):
        await socket.disconnect()


async def test_a_log_in_elsewhere_leaves_the_sockets_as_they_are(campaign, cookies, member, hero):
    gm, table, sheet = await open_sockets(campaign, cookies, hero)
    await sync_to_async(update_last_login)(None, member)
    for socket in (gm, table, sheet):
        assert await socket.receive_nothing(timeout=0.5)
    for socket in (gm, table, sheet):
        await socket.disconnect()


async def test_an_outsiders_password_change_tells_the_table_nothing(
    campaign, cookies, client_for, outsider, hero
):
    """Someone at no table of the campaign changes their password: no socket of it hears of
    it (and the outsider's own socket was refused at the handshake)."""
    gm, table, sheet = await open_sockets(campaign, cookies, hero)
    await password_changed_elsewhere(client_for, outsider)
    for socket in (gm, table, sheet):
        assert await socket.receive_nothing(timeout=0.5)
    for socket in (gm, table, sheet):
        await socket.disconnect()
