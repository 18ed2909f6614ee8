"""The ids pages show for rows whose count is not the viewer's to read, kind by kind: each kind
has its own key, so one kind's id names nothing of another, and the log's entries keep the ids
pages and exports showed before the scene's parts joined them."""

import pytest
from django.test import override_settings
from django.urls import resolve, reverse
from django.urls.exceptions import Resolver404

from fudgetable import entry_ids
from fudgetable.shown_ids import AREA, CARD, ENTRY, FIGURE, KINDS, SCENE


def test_each_kind_reads_back_its_own_ids_and_nothing_of_another_kind():
    for kind in KINDS:
        shown = [kind.encode(pk) for pk in range(1, 101)]
        assert [kind.decode(text) for text in shown] == list(range(1, 101))
        assert sorted(shown) != shown
        for other in KINDS:
            if other is not kind:
                assert all(other.decode(text) is None for text in shown), (kind, other)
    # The same row number in two kinds: two unrelated ids.
    assert len({kind.encode(12) for kind in KINDS}) == len(KINDS)


@override_settings(SECRET_KEY="a fixed key for the id test, long enough to be a key")
def test_an_entry_keeps_the_id_it_was_shown_by_before():
    # As fudgetable/entry_ids.py enciphered them before it joined shown_ids (a log export
    # holds them): the same key, the same block.
    assert entry_ids.encode(1) == ENTRY.encode(1) == "nUbV8BTn1J2gPl-QN6PmqA"
    assert entry_ids.decode("jOWjet0PKWzAtv4D7RWaGA") == 123456


def test_a_url_names_a_part_by_its_kind_and_refuses_another_kinds_id():
    url = reverse("rolls:card_reveal", args=[3, 41])
    assert CARD.encode(41) in url and "/41/" not in url
    assert resolve(url).kwargs == {"campaign_id": 3, "card_id": 41}
    for wrong in (AREA.encode(41), FIGURE.encode(41), SCENE.encode(41), "41"):
        with pytest.raises(Resolver404):
            resolve(url.replace(CARD.encode(41), wrong))
