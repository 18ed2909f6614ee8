"""What a person types under the table's log, read into one command: a line to say, an emote,
a whisper, a roll typed as words ("/r 4dF+1", "/r Athletics vs Good", "/gmr Stealth"), or
/help. Pure: names (a trait, a person) come back as typed, for the app to look up; dice,
modifiers and difficulties are checked here, by the same rules the roll forms use.

Also the faces of dice rolled by hand ("+ + 0 -", "5 2 6", "QH"), read for a dice method as
it reads the faces it throws itself (``read_faces``).
"""

import re
from dataclasses import dataclass
from typing import Literal

from fudgetable.rules.checks import MAX_MODIFIER, check_modifiers
from fudgetable.rules.dice import Face, get_method
from fudgetable.rules.errors import RulesError
from fudgetable.rules.ladder import Ladder
from fudgetable.rules.words import gettext_noop

MAX_TEXT = 1000  # characters of one message: a paragraph, not a chapter
MAX_NAME = 80  # characters of a trait's name as typed
MAX_PEOPLE = 12  # people one whisper names

Style = Literal["say", "ooc", "emote"]


class WordsError(RulesError):
    """A line that reads as no command, in words for the person who typed it: ``words`` with
    ``%(name)s`` places filled from ``values``, so the app can translate them first (``said``)."""

    def __init__(self, words: str, **values: object) -> None:
        self.words, self.values = words, values
        super().__init__("words", words, **values)


@dataclass(frozen=True)
class Say:
    text: str
    style: Style = "say"  # "ooc": out of character, whoever the composer speaks as


@dataclass(frozen=True)
class Whisper:
    to: tuple[str, ...]  # names as typed, without "@"; "gm" for the GMs
    text: str


@dataclass(frozen=True)
class DiceRoll:
    """A roll typed as words: a dice method (``method``) or a trait (``trait``), never both."""

    method: str | None = None
    trait: str | None = None
    modifiers: tuple[int, ...] = ()
    difficulty: int | None = None
    secret: bool = False
    hand: str | None = None  # the faces of dice rolled by hand, as typed in brackets

    def faces(self, method_key: str) -> tuple[Face, ...] | None:
        """The faces rolled by hand, read for the method the roll uses (a trait's: the
        table's dice, which the app knows); None: the server rolls."""
        return None if self.hand is None else read_faces(method_key, self.hand)

    def words(self) -> str:
        """The roll as the log names it: "4dF +1 vs 2"."""
        parts = [self.method or self.trait or ""]
        parts += [f"{value:+d}" for value in self.modifiers]
        return " ".join(parts)


@dataclass(frozen=True)
class Help:
    pass


Command = Say | Whisper | DiceRoll | Help

ROLLS = {"/r": False, "/roll": False, "/gmr": True, "/gmroll": True}
EMOTES = ("/me", "/em", "/emote")
OOC = ("/ooc",)
WHISPERS = ("/w", "/whisper")
HELPS = ("/help", "/h", "/?")
GMS = frozenset({"gm", "gms"})

# A method as typed: "4dF", "4df", "dF", "3d6", "d%", "d66", "4d6-fudge", "deck", "npc-d6".
_DICE = re.compile(
    r"(?P<count>\d{0,3})d(?P<sides>f|%|\d{1,3})(?P<tail>-fudge|-lowest|-1d6|/\d{1,3}(?:adv|dis))?"
    r"|deck|npc-d6|none",
    re.IGNORECASE,
)
_MODIFIERS = re.compile(r"(?:\s*[+-]\s*\d+)+\s*$")
_MODIFIER = re.compile(r"([+-])\s*(\d+)")
_VERSUS = re.compile(r"\s+(?:vs\.?|against)\s+", re.IGNORECASE)
_NAME = re.compile(r"@?[\w.+-]+")
_SPACE = re.compile(r"\s+")
# A minus may come as a hyphen, a minus sign or an en dash, as phones type them.
_FUDGE_FACES = {"+": 1, "0": 0, "o": 0, "_": 0, ".": 0, "-": -1, "\u2212": -1, "\u2013": -1}


def read_line(line: str, ladder: Ladder) -> Command:
    """The command a line of the composer is. Raises ``WordsError`` for one that is none."""
    text = line.strip()
    if not text:
        raise WordsError(gettext_noop("write something first"))
    if len(text) > MAX_TEXT:
        raise WordsError(gettext_noop("keep a message under %(most)d characters"), most=MAX_TEXT)
    if text.startswith("//"):  # a line that starts with a slash, said as it is
        return Say(text[1:])
    if not text.startswith("/"):
        return Say(text)
    word, _, rest = text.partition(" ")
    word, rest = word.lower(), rest.strip()
    if word in HELPS:
        return Help()
    if word in ROLLS:
        return read_roll(rest, ladder, secret=ROLLS[word])
    if word in EMOTES:
        return Say(_said(rest, word), "emote")
    if word in OOC:
        return Say(_said(rest, word), "ooc")
    if word in WHISPERS:
        return _whisper(rest)
    raise WordsError(gettext_noop("there is no command %(word)s: /help lists them"), word=word[:20])


def _said(rest: str, word: str) -> str:
    if not rest:
        raise WordsError(gettext_noop("write what to say after %(word)s"), word=word)
    return rest


def _whisper(rest: str) -> Whisper:
    """``/w alice,bob words`` or ``/w @alice @bob words``: every name first, then the words."""
    names: list[str] = []
    words = rest
    first, _, after = rest.partition(" ")
    if first and not first.startswith("@"):
        names, words = first.split(","), after
    else:
        while words.startswith("@"):
            name, _, words = words.partition(" ")
            names += name.split(",")
            words = words.lstrip()
    names = [name.lstrip("@").lower() for name in names if name.strip("@")]
    if not names:
        raise WordsError(gettext_noop("name whom to whisper to: /w alice words, or /w gm words"))
    for name in names:
        if not _NAME.fullmatch(name):
            raise WordsError(
                gettext_noop("%(name)s is not a name: /w alice,bob words"), name=name[:30]
            )
    if len(set(names)) > MAX_PEOPLE:
        raise WordsError(gettext_noop("a whisper reaches at most %(most)d people"), most=MAX_PEOPLE)
    return Whisper(tuple(dict.fromkeys(names)), _said(words.strip(), "the names"))


def read_roll(text: str, ladder: Ladder, *, secret: bool = False) -> DiceRoll:
    """``4dF+1``, ``3d6 -1``, ``Athletics``, ``Athletics +1 vs Good``, each with dice rolled by
    hand in brackets at the end if any: ``Athletics [+ + 0 -]``."""
    text = _SPACE.sub(" ", text).strip()
    if not text:
        raise WordsError(
            gettext_noop("say what to roll: /r 4dF+1, /r Athletics, /r Athletics vs Good")
        )
    hand = None
    if text.endswith("]") and "[" in text:
        text, _, hand = text[:-1].rpartition("[")
        text = text.strip()
    difficulty = None
    parts = _VERSUS.split(text)
    if len(parts) > 2:
        raise WordsError(gettext_noop("one difficulty at a time: /r Athletics vs Good"))
    if len(parts) == 2:
        text, against = parts
        difficulty = _difficulty(against, ladder)
    modifiers: tuple[int, ...] = ()
    found = _MODIFIERS.search(text)
    if found and found.start() > 0:
        modifiers = _modifiers(found.group())
        text = text[: found.start()].strip()
    method = _method(text)
    if method is None:
        if not text or len(text) > MAX_NAME or text[0] in "+-[":
            raise WordsError(
                gettext_noop("%(what)s is neither dice nor a trait's name"),
                what=text[:MAX_NAME] or "+",
            )
        # A trait rolls the table's dice, which the app knows: it reads the faces then.
        return DiceRoll(None, text, modifiers, difficulty, secret, hand)
    typed = DiceRoll(method, None, modifiers, difficulty, secret, hand)
    typed.faces(method)  # checked now: a wrong face is said before anything else is done
    return typed


def _difficulty(text: str, ladder: Ladder) -> int:
    try:
        return ladder.value(text.strip(), "difficulty")
    except RulesError:
        raise WordsError(
            gettext_noop("%(what)s is not on this table's ladder"), what=text.strip()[:40]
        ) from None


def _modifiers(text: str) -> tuple[int, ...]:
    values = []
    for sign, digits in _MODIFIER.findall(text):
        if len(digits) > 3:
            raise WordsError(gettext_noop("a modifier is a small whole number, such as +1 or -2"))
        values.append(int(digits) * (1 if sign == "+" else -1))
    try:
        return check_modifiers(values)
    except RulesError:
        raise WordsError(
            gettext_noop("each modifier is a whole number from -%(most)d to +%(most)d"),
            most=MAX_MODIFIER,
        ) from None


def _method(text: str) -> str | None:
    """The dice method's key for a method as typed, or None if it is no dice at all."""
    found = _DICE.fullmatch(text)
    if found is None:
        return None
    if found.group("sides") is None:
        key = text.lower()
    else:
        count, sides = found.group("count"), found.group("sides").lower()
        tail = (found.group("tail") or "").lower()
        if sides == "f":
            key = f"{count or 1}dF{tail}"
        elif sides == "%":
            key = f"{count}d%{tail}"
        else:
            key = f"{count}d{sides}{tail}"
    try:
        return get_method(key, "dice").key
    except RulesError:
        raise WordsError(
            gettext_noop(
                "%(what)s is not dice this table reads: 4dF, 3dF, 4d6-fudge, 4d6-lowest, 3d6, "
                "d%%, d100, 1d6-1d6, d66, 2d10, d20, deck"
            ),
            what=text[:20],
        ) from None


def _tokens(text: str) -> list[str]:
    """Faces as typed, one token each: Fudge dice may be run together ("++0-"), numbers and
    cards are set apart by spaces or commas."""
    text = text.replace(",", " ").strip()
    if text and all(char in _FUDGE_FACES or char.isspace() for char in text):
        return [char for char in text if not char.isspace()]
    return text.split()


def read_faces(method_key: str, text: str) -> tuple[Face, ...]:
    """The faces of dice rolled by hand for ``method_key``, checked as the method checks the
    faces it throws: four Fudge dice as "+ + 0 -" (a blank also "_" or "."), plain dice as
    their numbers, a card as its code ("QH"). Raises ``WordsError`` in words."""
    method = get_method(method_key)
    tokens = _tokens(text)
    fudge = "dF" in method.key
    faces: list[Face] = []
    for token in tokens[:101]:
        if fudge:
            if token not in _FUDGE_FACES:
                raise WordsError(
                    gettext_noop("write Fudge dice as + for plus, 0 for blank and - for minus")
                )
            faces.append(_FUDGE_FACES[token])
        elif method.key == "deck":
            faces.append(token.upper())
        elif token.isdigit() and len(token) <= 3:
            faces.append(int(token))
        else:
            raise WordsError(
                gettext_noop("write the dice as the numbers they show, not %(token)s"),
                token=token[:10],
            )
    try:
        method.read(faces)
    except RulesError as error:
        raise WordsError(
            gettext_noop("those are not faces of %(dice)s: %(why)s"),
            dice=method.label,
            why=error.message,
        ) from None
    return tuple(faces)
