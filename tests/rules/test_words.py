"""The rules' words: English as they stand, and kept apart from their values so that the app can
say them in another language (``Words.said`` with the app's gettext)."""

import copy
import pickle

import pytest

from fudgetable.rules.errors import RulesError
from fudgetable.rules.tracks import ConditionGroup
from fudgetable.rules.words import Words, gettext_noop

PORTUGUESE = {
    "%(name)s has %(size)s boxes": "%(name)s tem %(size)s caixas",
    "Injury": "Ferimento",
    "a %(noun)s needs at least one box": "um(a) %(noun)s precisa de ao menos uma caixa",
    "condition": "condição",
}


def portuguese(text: str) -> str:
    return PORTUGUESE.get(text, text)


def test_gettext_noop_marks_words_without_changing_them():
    assert gettext_noop("Injury") == "Injury"


def test_words_are_their_english_filled_and_said_translated_then_filled():
    words = Words("%(name)s has %(size)s boxes", name=Words("Injury"), size=4)
    assert words == "Injury has 4 boxes"
    assert words.said(portuguese) == "Ferimento tem 4 caixas"


def test_a_name_the_rules_did_not_give_stays_as_written():
    words = Words("%(name)s has %(size)s boxes", name=Words("Bruises"), size=2)
    assert words.said(portuguese) == "Bruises tem 2 caixas"
    assert Words("").said(portuguese) == ""


def test_a_rules_error_is_said_in_the_readers_language():
    with pytest.raises(RulesError) as raised:
        ConditionGroup("Minor", 0)
    error = raised.value
    assert (error.setting, error.message) == ("group.boxes", "a condition needs at least one box")
    assert str(error) == "group.boxes: a condition needs at least one box"
    assert error.said(portuguese) == "um(a) condição precisa de ao menos uma caixa"


def test_an_error_raised_again_keeps_its_words_and_values():
    first = RulesError("box", "%(name)s has %(size)s boxes", name=Words("Injury"), size=4)
    again = RulesError("track.box", first.message)
    assert again.message == "Injury has 4 boxes"
    assert again.said(portuguese) == "Ferimento tem 4 caixas"


def test_words_survive_a_copy_and_a_pickle():
    words = Words("%(name)s has %(size)s boxes", name=Words("Injury"), size=4)
    for kept in (pickle.loads(pickle.dumps(words)), copy.deepcopy(words), copy.copy(words)):
        assert kept == "Injury has 4 boxes"
        assert kept.said(portuguese) == "Ferimento tem 4 caixas"
