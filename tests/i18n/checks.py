"""The translation checker's parts: unmarked words in templates and Python, a small reader of
gettext catalogues, and the placeholders of a message. docs/translations.md says what each
looks at and what it lets pass.

The folders and files checked are constants of ``fudgetable.management.commands.catalogues``
(the same that ``manage.py catalogues`` extracts from), so that rolls/ joins by being added
there.
"""

import ast
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

# --- Templates --------------------------------------------------------------------------------

# Attributes whose value a person reads or hears.
SPOKEN_ATTRIBUTES = frozenset(
    {"placeholder", "title", "aria-label", "alt", "aria-description", "aria-valuetext"}
)
# data-* attributes that hold words a script shows (live.js, offline.js); others hold ids/URLs.
SPOKEN_DATA_ATTRIBUTE = re.compile(r"^data-(?:.*-)?(?:text|words|label|says|message)$")
# A text that is no word of any language: the brand, symbols, units and game abbreviations that
# every language at the table writes alike.
ALLOWED_TEXTS = frozenset(
    {
        "FudgeTable",
        "Fudge",
        "Lite",
        "EZFudge",
        "Peupfudge",
        "JSON",
        "GM",
        "NPC",
        "PC",
        "XP",
        "FP",
        "dF",
        "4dF",
        "d6",
        "2d6",
        "3d6",
        "OK",
    }
)
_LETTERS = re.compile(r"[^\W\d_]{2,}")
_COMMENT = re.compile(r"\{#.*?#\}", re.S)
_BLOCK_COMMENT = re.compile(r"\{%\s*comment\s*%\}.*?\{%\s*endcomment\s*%\}", re.S)
_BLOCKTRANSLATE = re.compile(
    r"\{%\s*blocktrans(?:late)?\b.*?%\}.*?\{%\s*endblocktrans(?:late)?\s*%\}", re.S
)
_TRANSLATE = re.compile(r"\{%\s*trans(?:late)?\s.*?%\}", re.S)
_TAG = re.compile(r"\{%.*?%\}", re.S)
_VARIABLE = re.compile(r"\{\{.*?\}\}", re.S)
_MARK = " "  # stands where marked or computed text was: a space breaks no tag


@dataclass(frozen=True)
class Unmarked:
    where: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.where}:{self.line}: {self.text!r}"


def _blank_out(pattern: re.Pattern[str], source: str, keep: str = "") -> str:
    """Each match replaced by ``keep``, with its newlines kept so line numbers stay true."""
    return pattern.sub(lambda m: keep + "\n" * m.group(0).count("\n"), source)


def _is_words(text: str) -> bool:
    text = text.strip()
    if not _LETTERS.search(text):
        return False
    words = [word for word in re.split(r"[\s·,:;()/|+\-\u2013\u2014]+", text) if word]
    return not all(word in ALLOWED_TEXTS or not _LETTERS.search(word) for word in words)


class _TextFinder(HTMLParser):
    def __init__(self, where: str) -> None:
        super().__init__(convert_charrefs=True)
        self.where = where
        self.found: list[Unmarked] = []
        self._skip = 0  # inside <script> or <style>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self._skip += 1
        line = self.getpos()[0]
        kinds = dict(attrs)
        for name, value in attrs:
            spoken = name in SPOKEN_ATTRIBUTES or bool(SPOKEN_DATA_ATTRIBUTE.match(name))
            if name == "value" and tag == "input" and kinds.get("type") in ("submit", "button"):
                spoken = True
            if spoken and value and _is_words(value):
                self.found.append(Unmarked(self.where, line, f"{name}={value.strip()}"))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style") and self._skip:
            self._skip -= 1

    def handle_data(self, data: str) -> None:
        if not self._skip and _is_words(data):
            line = self.getpos()[0]
            self.found.append(Unmarked(self.where, line, " ".join(data.split())))


def unmarked_in_template(source: str, where: str) -> list[Unmarked]:
    """The words in a Django template a person would read that no translation tag holds: text
    between tags and spoken attributes, after comments, {% translate %}, {% blocktranslate %},
    other tags, variables, <script> and <style> are taken out."""
    for pattern in (_COMMENT, _BLOCK_COMMENT):
        source = _blank_out(pattern, source)
    for pattern in (_BLOCKTRANSLATE, _TRANSLATE, _TAG, _VARIABLE):
        source = _blank_out(pattern, source, keep=_MARK)
    finder = _TextFinder(where)
    finder.feed(source)
    finder.close()
    return finder.found


# --- Python ------------------------------------------------------------------------------------

# Where a plain string is shown to a person: these keywords of a form field, a model field or a
# form's Meta; the message of these exceptions; the text of django.contrib.messages' calls.
SPOKEN_KEYWORDS = frozenset(
    {"label", "help_text", "verbose_name", "verbose_name_plural", "empty_label", "empty_value"}
)
SPOKEN_EXCEPTIONS = frozenset({"ValidationError", "PermissionDenied", "Http404", "RulesRefusal"})
# The rules module's errors, by the place of their message: RulesError(setting, message).
SPOKEN_RULES_ERRORS = {"RulesError": 1, "WordsError": 0}
MESSAGE_CALLS = frozenset({"debug", "info", "success", "warning", "error"})


def _plain_words(node: ast.expr) -> str | None:
    """The words of a plain (unmarked) string literal or f-string, else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value if _is_words(node.value) else None
    if isinstance(node, ast.JoinedStr):
        text = "".join(
            part.value if isinstance(part, ast.Constant) else "{…}" for part in node.values
        )
        return text if _is_words(text.replace("{…}", " ")) else None
    if isinstance(node, ast.BinOp):  # "..." % values, "..." + "..."
        return _plain_words(node.left)
    return None


def _name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return f"{_name(node.value)}.{node.attr}"
    return ""


def unmarked_in_python(source: str, where: str) -> list[Unmarked]:
    """Plain strings handed to a person through the places SPOKEN_KEYWORDS, SPOKEN_EXCEPTIONS,
    SPOKEN_RULES_ERRORS and MESSAGE_CALLS name. A call there is not looked at: gettext() and
    its kin, and the rules module's own gettext_noop() (whose words the app translates where
    it shows them), mark their words; any other call computes them."""
    found: list[Unmarked] = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call):
            continue
        called = _name(node.func)
        texts: list[ast.expr] = [
            keyword.value for keyword in node.keywords if keyword.arg in SPOKEN_KEYWORDS
        ]
        if called.split(".")[-1] in SPOKEN_EXCEPTIONS and node.args:
            texts.append(node.args[0])
        place = SPOKEN_RULES_ERRORS.get(called.split(".")[-1])
        if place is not None and len(node.args) > place:
            texts.append(node.args[place])
        if called.startswith("messages.") and called.split(".")[-1] in MESSAGE_CALLS:
            texts.extend(node.args[1:2])
        for text in texts:
            words = _plain_words(text)
            if words is not None:
                found.append(Unmarked(where, text.lineno, words))
    return found


# --- Catalogues --------------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str
    msgstr: str = ""
    msgid_plural: str | None = None
    msgstrs: dict[int, str] = field(default_factory=dict)
    msgctxt: str | None = None
    fuzzy: bool = False
    python_format: bool = False
    line: int = 0

    @property
    def key(self) -> tuple[str | None, str]:
        return (self.msgctxt, self.msgid)

    @property
    def translations(self) -> list[str]:
        return (
            [self.msgstrs[n] for n in sorted(self.msgstrs)] if self.msgid_plural else [self.msgstr]
        )


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\", "r": "\r"}


def _unquote(text: str) -> str:
    body = text.strip()
    assert body.startswith('"') and body.endswith('"'), body
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(1)), body[1:-1])


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file, the header (msgid "") first; obsolete ones (#~) left out."""
    entries: list[Entry] = []
    flags: set[str] = set()
    current: Entry | None = None
    last: tuple[str, int | None] | None = None
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.startswith("#,"):
            flags |= {flag.strip() for flag in line[2:].split(",")}
        elif not line.strip() or line.startswith("#"):
            continue
        elif line.startswith('"'):
            assert current is not None and last is not None, f"{path}:{number}"
            kind, index = last
            text = _unquote(line)
            if kind == "msgstr" and index is not None:
                current.msgstrs[index] += text
            else:
                setattr(current, kind, (getattr(current, kind) or "") + text)
        else:
            keyword, _, rest = line.partition(" ")
            indexed = re.fullmatch(r"msgstr\[(\d+)\]", keyword)
            if keyword == "msgctxt" or (keyword == "msgid" and last != ("msgctxt", None)):
                current = Entry(msgid="", line=number)
                current.fuzzy = "fuzzy" in flags
                current.python_format = "python-format" in flags
                flags = set()
                entries.append(current)
            assert current is not None, f"{path}:{number}"
            if indexed:
                current.msgstrs[int(indexed.group(1))] = _unquote(rest)
                last = ("msgstr", int(indexed.group(1)))
            else:
                setattr(current, keyword, _unquote(rest))
                last = (keyword, None)
    return entries


def plural_count(header: Entry) -> int:
    found = re.search(r"nplurals\s*=\s*(\d+)", header.msgstr)
    assert found, "the catalogue's header has no Plural-Forms"
    return int(found.group(1))


# %(name)s, %s, %d, %%; and {name} as str.format writes them.
_PERCENT = re.compile(
    r"%(?:\((?P<name>[^)]*)\))?[#0 +-]*\d*(?:\.\d+)?(?P<kind>[diouxXeEfFgGcrsa%])"
)
_BRACES = re.compile(
    r"(?<!\{)\{(?P<name>[A-Za-z_][A-Za-z0-9_]*|\d*)(?:![rsa])?(?::[^{}]*)?\}(?!\})"
)


def placeholders(text: str, *, python_format: bool = True) -> list[str]:
    """The placeholders a message has, each as written (``%(name)s``, ``%s``, ``{name}``),
    sorted; a lone percent sign in a text that is no format string is none."""
    found: list[str] = []
    if python_format:
        found += [m.group(0) for m in _PERCENT.finditer(text) if m.group("kind") != "%"]
    found += ["{" + m.group("name") + "}" for m in _BRACES.finditer(text)]
    return sorted(found)


def entries_with_words(path: Path) -> Iterator[Entry]:
    """The entries of a catalogue, its header left out."""
    for entry in read_po(path):
        if entry.msgid:
            yield entry
