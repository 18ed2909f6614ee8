"""The app says the rules' words in the active language (fudgetable/rules_words.py): a word the
rules marked, a rules error's sentence filled after it is translated, and a name a GM wrote as
it is."""

from django.template import Context, Template
from django.utils import translation

from fudgetable.rules.dice_words import WordsError
from fudgetable.rules.errors import RulesError
from fudgetable.rules.words import Words
from fudgetable.rules_words import said, said_lazy


def test_a_word_the_rules_marked_reads_in_the_active_language():
    with translation.override("pt-br"):
        assert said("Wounds") == "Ferimentos"
        assert str(said_lazy("Incapacitated")) == "Incapacitado"
    with translation.override("en"):
        assert said("Wounds") == "Wounds"
        assert str(said_lazy("Incapacitated")) == "Incapacitated"


def test_an_error_is_translated_then_filled():
    error = RulesError("words", "keep a message under %(most)d characters", most=1000)
    assert error.message == "keep a message under 1000 characters"
    with translation.override("pt-br"):
        assert said(error.message) == "mantenha a mensagem abaixo de 1000 caracteres"
        assert said(WordsError("write something first").message) == "escreva algo primeiro"


def test_a_name_no_catalogue_holds_and_no_words_stay_as_they_are():
    with translation.override("pt-br"):
        assert said("Bruises") == "Bruises"
        assert said("") == ""
        assert said(Words("%(track)s: %(level)s", track=Words("Wounds"), level="Bruised")) == (
            "Ferimentos: Bruised"
        )


def test_the_said_filter_translates_words_and_lets_anything_else_pass():
    template = Template("{% load rules_words %}{{ name|said }} {{ size|said }} {{ none|said }}")
    with translation.override("pt-br"):
        drawn = template.render(Context({"name": "Wounds", "size": 8, "none": None}))
    assert drawn == "Ferimentos 8 None"
