"""The recap counts rolls as rolls: what people said, a Fudge point spent and the table's own
lines are counted apart, and a reader's count holds only what they may read."""

import pytest
from django.urls import reverse

from rolls.log.tally import tally
from rolls.models import Roll
from tests.rolls.conftest import fresh_key, post_roll, roll_form, trait

pytestmark = pytest.mark.django_db


def _say(client, campaign, line: str, **extra) -> None:
    data = {"line": line, "key": fresh_key(), **extra}
    answer = client.post(
        reverse("rolls:say", args=[campaign.pk]), data, headers={"HX-Request": "true"}
    )
    assert answer.status_code == 200, answer.content


def _tally_line(html: str) -> str:
    start = html.index('class="meta recap-tally">') + len('class="meta recap-tally">')
    return html[start : html.index("</p>", start)]


@pytest.fixture
def evening(client_for, owner, member, campaign, hero):
    """Session 1: two rolls of Louie's and three chat lines, one of them in character."""
    gm, player = client_for(owner), client_for(member)
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    post_roll(player, campaign, roll_form(hero, trait(hero), difficulty=1))
    _say(player, campaign, "I sneak past the gate.")
    _say(gm, campaign, "The guard yawns.")
    post_roll(player, campaign, roll_form(hero, trait(hero, "Athletics"), difficulty=2))
    _say(player, campaign, "Onwards!", speaking_as=hero.pk)
    assert Roll.objects.filter(campaign=campaign, session__number=1).count() == 5
    return campaign


def test_two_rolls_and_three_chat_lines_are_two_rolls(client_for, owner, member, outsider, evening):
    url = reverse("rolls:recap", args=[evening.pk, 1])
    for user in (owner, member):
        page = client_for(user).get(url).text
        assert _tally_line(page) == "2 rolls · 3 messages"
        assert "5 rolls" not in page
        # Every entry is still listed, in order.
        said = [page.index(line) for line in ("I sneak past", "The guard yawns", "Onwards!")]
        assert said == sorted(said)
    assert client_for(outsider).get(url).status_code == 404


def test_a_session_without_a_roll_says_so(client_for, owner, campaign):
    gm = client_for(owner)
    gm.post(reverse("rolls:session_start", args=[campaign.pk]))
    _say(gm, campaign, "We start next week.")
    page = gm.get(reverse("rolls:recap", args=[campaign.pk, 1])).text
    assert _tally_line(page) == "0 rolls · 1 message"


def test_a_fudge_point_and_an_announcement_are_not_rolls(campaign, hero):
    base = {"campaign": campaign, "label": "x", "succeeded": None}
    entries = [
        Roll(kind=Roll.Kind.CHECK, snapshot={}, **base),
        Roll(kind=Roll.Kind.CONTEST, snapshot={"sides": []}, **base),
        Roll(kind=Roll.Kind.CONTEST, snapshot={"confirms": 1, "marked": [{}, {}]}, **base),
        Roll(kind=Roll.Kind.FUDGE_POINT, snapshot={}, **base),
        Roll(kind=Roll.Kind.ANNOUNCEMENT, snapshot={"lines": ["A clock ran out."]}, **base),
        Roll(kind=Roll.Kind.ANNOUNCEMENT, snapshot={"wound": {}}, **base),
        Roll(kind=Roll.Kind.MESSAGE, snapshot={}, **base),
    ]
    counted = tally(entries)
    assert (counted.rolls, counted.wounds, counted.fudge_points) == (2, 3, 1)
    assert (counted.messages, counted.lines) == (1, 1)
    assert counted.said() == [
        "2 rolls",
        "3 wounds marked",
        "1 Fudge point spent",
        "1 message",
        "1 other line",
    ]
