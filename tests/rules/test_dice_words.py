"""The composer's words read by the rules (fudgetable/rules/dice_words.py): every command form
and its errors, and properties over any text (Hypothesis): a line is a command or a refusal
in words, never another error; a roll written out reads back as itself; faces typed by hand
read as the method reads its own."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fudgetable.rules.dice import get_method
from fudgetable.rules.dice_words import (
    MAX_TEXT,
    DiceRoll,
    Help,
    Say,
    Whisper,
    WordsError,
    read_faces,
    read_line,
)
from fudgetable.rules.ladder import get_ladder

LADDER = get_ladder("fudge-lite")


@pytest.mark.parametrize(
    "line, command",
    [
        ("hello", Say("hello")),
        ("  hello  ", Say("hello")),
        ("//r is not a roll", Say("/r is not a roll")),
        ("/me waves", Say("waves", "emote")),
        ("/EM waves", Say("waves", "emote")),
        ("/ooc brb", Say("brb", "ooc")),
        ("/w alice hi there", Whisper(("alice",), "hi there")),
        ("/w alice,Bob hi", Whisper(("alice", "bob"), "hi")),
        ("/whisper @alice @bob hi", Whisper(("alice", "bob"), "hi")),
        ("/w gm psst", Whisper(("gm",), "psst")),
        ("/help", Help()),
        ("/?", Help()),
        ("/r 4dF", DiceRoll(method="4dF")),
        ("/roll 4df+1", DiceRoll(method="4dF", modifiers=(1,))),
        ("/r dF", DiceRoll(method="1dF")),
        ("/r 4dF + 1 - 2", DiceRoll(method="4dF", modifiers=(1, -2))),
        ("/r 3d6", DiceRoll(method="3d6")),
        ("/r d%", DiceRoll(method="d%")),
        ("/r 4d6-lowest", DiceRoll(method="4d6-lowest")),
        ("/r 4dF/1adv", DiceRoll(method="4dF/1adv")),
        ("/r deck", DiceRoll(method="deck")),
        ("/r 4dF vs Good", DiceRoll(method="4dF", difficulty=2)),
        ("/r Athletics", DiceRoll(trait="Athletics")),
        ("/r Hand-to-hand +1", DiceRoll(trait="Hand-to-hand", modifiers=(1,))),
        ("/r Athletics vs Good", DiceRoll(trait="Athletics", difficulty=2)),
        ("/r Athletics against superb", DiceRoll(trait="Athletics", difficulty=4)),
        ("/r Athletics vs +1", DiceRoll(trait="Athletics", difficulty=1)),
        ("/gmr Stealth -1", DiceRoll(trait="Stealth", modifiers=(-1,), secret=True)),
        ("/r 4dF [+ + 0 -]", DiceRoll(method="4dF", hand="+ + 0 -")),
        ("/r Athletics [++0-]", DiceRoll(trait="Athletics", hand="++0-")),
    ],
)
def test_every_command_form_reads_as_its_command(line, command):
    assert read_line(line, LADDER) == command


@pytest.mark.parametrize(
    "line, words",
    [
        ("", "write something first"),
        ("x" * (MAX_TEXT + 1), "under 1000 characters"),
        ("/dance", "there is no command /dance"),
        ("/me", "write what to say after /me"),
        ("/w", "name whom to whisper to"),
        ("/w alice", "write what to say"),
        ("/w al!ce hi", "is not a name"),
        ("/r", "say what to roll"),
        ("/r +1", "neither dice nor a trait"),
        ("/r 4d6", "not dice this table reads"),
        ("/r 200dF", "not dice this table reads"),
        ("/r 4dF+11", "each modifier is a whole number from -10 to +10"),
        ("/r 4dF+99999", "a modifier is a small whole number"),
        ("/r Athletics vs Good vs Great", "one difficulty at a time"),
        ("/r Athletics vs Wobbly", "is not on this table's ladder"),
        ("/r 4dF [+ +]", "expected 4 faces, got 2"),
        ("/r 4dF [+ + 2 -]", "write fudge dice as +"),
        ("/r 3d6 [1 2 9]", "9 is not a face from 1 to 6"),
        ("/r 3d6 [a b c]", "the numbers they show"),
        ("/r deck [ZZ]", "is not a card"),
    ],
)
def test_every_wrong_line_is_refused_in_words(line, words):
    with pytest.raises(WordsError) as refused:
        read_line(line, LADDER)
    assert words in refused.value.message.lower()


@given(st.text(max_size=300))
def test_any_text_is_a_command_or_a_refusal_in_words(text):
    for line in (text, "/r " + text, "/gmr " + text, "/w " + text, "/r 4dF [" + text + "]"):
        try:
            command = read_line(line, LADDER)
        except WordsError as refused:
            assert refused.message and len(refused.message) < 300
        else:
            assert isinstance(command, Say | Whisper | DiceRoll | Help)


METHODS = ["4dF", "3dF", "1dF", "4d6-fudge", "4d6-lowest", "3d6", "d%", "d100", "d66", "2d10"]


@given(
    method=st.sampled_from(METHODS),
    modifiers=st.lists(st.integers(-10, 10), max_size=3),
    difficulty=st.none() | st.integers(-3, 6),
    secret=st.booleans(),
)
def test_a_roll_written_out_reads_back_as_itself(method, modifiers, difficulty, secret):
    line = ("/gmr " if secret else "/r ") + method
    line += "".join(f" {value:+d}" for value in modifiers)
    if difficulty is not None:
        line += f" vs {LADDER.describe(difficulty)}"
    expected = DiceRoll(method, None, tuple(modifiers), difficulty, secret)
    assert read_line(line, LADDER) == expected


@given(faces=st.lists(st.sampled_from([-1, 0, 1]), min_size=4, max_size=4), spaced=st.booleans())
def test_fudge_dice_by_hand_read_as_the_method_reads_them(faces, spaced):
    text = (" " if spaced else "").join({1: "+", 0: "0", -1: "-"}[face] for face in faces)
    read = read_faces("4dF", text)
    assert read == tuple(faces)
    assert get_method("4dF").read(read) == sum(faces)


@given(faces=st.lists(st.integers(1, 6), min_size=3, max_size=3))
def test_plain_dice_by_hand_read_through_their_table(faces):
    read = read_faces("3d6", ", ".join(map(str, faces)))
    assert get_method("3d6").read(read) == get_method("3d6").read(tuple(faces))
