"""Presence: who is at the table right now, one name per person however many phones and tabs
they have open, updated as sockets come and go."""

import pytest

from tests.table_sockets import joined, socket_for, until

pytestmark = pytest.mark.django_db(transaction=True)


def names(frame: str, *candidates: str) -> list[str]:
    return [name for name in candidates if f"<li>{name}</li>" in frame]


async def test_a_person_with_two_phones_is_listed_once_until_both_leave(campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    phone = await joined(campaign, cookies["member"], "player-member")
    frame = (await until(gm, 'id="presence"'))[-1]
    assert frame.count("<li>player-member</li>") == 1
    tablet = await joined(campaign, cookies["member"], "player-member")
    frame = (await until(gm, 'id="presence"'))[-1]
    assert frame.count("<li>player-member</li>") == 1
    await phone.disconnect()
    frame = (await until(gm, 'id="presence"'))[-1]
    assert names(frame, "gm-owner", "player-member") == ["gm-owner", "player-member"]
    await tablet.disconnect()
    frame = (await until(gm, 'id="presence"'))[-1]
    assert names(frame, "gm-owner", "player-member") == ["gm-owner"]
    await gm.disconnect()


async def test_an_outsider_never_shows_up_as_present(campaign, cookies):
    gm = await joined(campaign, cookies["owner"], "gm-owner")
    assert not (await socket_for(campaign, cookies["outsider"]).connect())[0]
    player = await joined(campaign, cookies["member"], "player-member")
    frame = (await until(gm, 'id="presence"'))[-1]
    assert "outsider" not in frame
    for socket in (gm, player):
        await socket.disconnect()
