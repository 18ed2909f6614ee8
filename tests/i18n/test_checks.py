"""The checker's own parts find what they should, and let pass what they should."""

from pathlib import Path

from tests.i18n.checks import placeholders, read_po, unmarked_in_python, unmarked_in_template


def texts(source: str) -> list[str]:
    return [problem.text for problem in unmarked_in_template(source, "t.html")]


def test_it_finds_words_between_tags_and_in_spoken_attributes():
    source = (
        '{% load i18n %}<h1>Your account</h1><img alt="A map" src="x.png">'
        '<input type="search" placeholder="Name or note"><a title="More">⋯</a>'
        '<button aria-label="Close it">&times;</button><input type="submit" value="Send it">'
    )
    assert texts(source) == [
        "Your account",
        "alt=A map",
        "placeholder=Name or note",
        "title=More",
        "aria-label=Close it",
        "value=Send it",
    ]


def test_it_lets_marked_words_tags_variables_comments_and_scripts_pass():
    source = (
        "{% load i18n %}{# A comment says why #}<h1>{% translate 'Your account' %}</h1>"
        "<p>{% blocktranslate count n=c %}{{ n }} box{% plural %}{{ n }} boxes"
        "{% endblocktranslate %}</p><p>{{ character.name }} · {{ track.marked }}/5</p>"
        '<tr{% if x %} class="meta"{% endif %}><td>+{{ bonus }}</td></tr>'
        '<script nonce="n">document.title = "Not a page word";</script>'
        "<p>FudgeTable · XP · GM</p>{% comment %}Words here too{% endcomment %}"
        "<a aria-label=\"{% translate 'Close it' %}\">&times;</a>"
    )
    assert texts(source) == []


def test_it_keeps_the_line_a_word_stands_on():
    source = "{% load i18n %}\n{# one\ntwo #}\n<p>\n  Left unmarked\n</p>"
    [problem] = unmarked_in_template(source, "t.html")
    assert (problem.line, problem.text) == (4, "Left unmarked")


def test_it_finds_plain_strings_handed_to_a_person_in_python():
    source = """
from django import forms
from django.contrib import messages
from django.utils.translation import gettext as _

class F(forms.Form):
    name = forms.CharField(label="Your name", help_text=_("Marked help"))

def view(request, name):
    messages.success(request, f"{name} was saved.")
    messages.error(request, _("Marked words."))
    raise ValidationError("Not marked either.")
"""
    found = [problem.text for problem in unmarked_in_python(source, "m.py")]
    assert found == ["Your name", "{…} was saved.", "Not marked either."]


def test_it_finds_rules_errors_with_unmarked_messages_and_lets_gettext_noop_pass():
    source = """
from fudgetable.rules.words import gettext_noop

def check(boxes, name):
    if boxes < 1:
        raise RulesError("boxes", "a track needs at least one box")
    if not name:
        raise RulesError("name", gettext_noop("a track needs a name"))
    if boxes > 20:
        raise RulesError("boxes", f"{name} has too many boxes")
    raise WordsError(gettext_noop("there is no command %(word)s"), word=name)
"""
    found = [problem.text for problem in unmarked_in_python(source, "rules.py")]
    assert found == ["a track needs at least one box", "{…} has too many boxes"]


def test_placeholders_are_read_as_python_and_format_write_them():
    assert placeholders("%(name)s rolled %(total)+d on %s, 100%% sure") == [
        "%(name)s",
        "%(total)+d",
        "%s",
    ]
    assert placeholders("{name} and {0} but not {{literal}}") == ["{0}", "{name}"]
    assert placeholders("100% sure", python_format=False) == []


def test_the_catalogue_reader_keeps_contexts_plurals_flags_and_lines(tmp_path: Path):
    po = tmp_path / "django.po"
    po.write_text(
        'msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
        '#, python-format\nmsgid "%(n)s box"\nmsgid_plural "%(n)s boxes"\n'
        'msgstr[0] "%(n)s caixa"\nmsgstr[1] "%(n)s "\n"caixas"\n\n'
        '#, fuzzy\nmsgctxt "Fudge points"\nmsgid "FP"\nmsgstr "PF"\n\n'
        '#~ msgid "Old"\n#~ msgstr "Velho"\n',
        encoding="utf-8",
    )
    header, boxes, points = read_po(po)
    assert "nplurals=2" in header.msgstr
    assert (boxes.msgid_plural, boxes.translations) == (
        "%(n)s boxes",
        ["%(n)s caixa", "%(n)s caixas"],
    )
    assert boxes.python_format and not boxes.fuzzy
    assert (points.key, points.msgstr, points.fuzzy) == (("Fudge points", "FP"), "PF", True)
