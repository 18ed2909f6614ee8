"""Log entries' ids as pages show them: enciphered, so they carry no order and no count, and
read back to the database's id only when the server made them."""

from django.test import override_settings

from fudgetable.entry_ids import decode, encode


def test_an_id_reads_back_and_tells_nothing_of_its_neighbours():
    shown = [encode(pk) for pk in range(1, 201)]
    assert [decode(text) for text in shown] == list(range(1, 201))
    assert len(set(shown)) == 200 and all(len(text) == 22 for text in shown)
    # Sorted as text, consecutive ids land anywhere: no order to read off.
    assert sorted(shown) != shown and sorted(shown, reverse=True) != shown
    assert not any(text.isdigit() for text in shown)


def test_an_id_the_server_did_not_make_names_nothing():
    made = encode(7)
    forged = ("A" if made[0] != "A" else "B") + made[1:]
    assert decode(forged) is None
    assert decode("7") is None and decode("") is None and decode("!" * 22) is None
    with override_settings(SECRET_KEY="another server's key, long enough to be a key"):
        assert decode(made) is None  # another secret key: another permutation
