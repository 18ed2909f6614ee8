"""A message's words as the log shows them: escaped, with a small safe markup (**bold**,
*italics*, links written [so](https://…) or pasted bare) and @mentions of the table's
people. markdown-it-py reads it with every rule off but those (its "zero" preset, and no raw
HTML ever), so a message can never become any other markup; a link opens outside the table,
and only http, https and mailto addresses become links at all."""

import re
from collections.abc import Mapping, Sequence
from functools import cache
from html import escape
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token

LINK_SCHEMES = ("http://", "https://", "mailto:")
MENTION = re.compile(r"(?<![\w@])@([\w.+-]+)")


def mentioned(text: str, people: Mapping[str, int]) -> dict[str, int]:
    """The table's people ``text`` mentions (@name, any case): {name as the table spells it:
    user id}. ``people`` maps each member's name, lower case, to their id."""
    spelled = {name.lower(): name for name in people}
    found = {}
    for name in MENTION.findall(text):
        name = name.rstrip(".")  # "@alice." ends a sentence
        if name.lower() in spelled:
            found[spelled[name.lower()]] = people[spelled[name.lower()]]
    return found


def _mentions(state: Any) -> None:
    """A core rule: each @name of a person in ``env["people"]`` outside a link becomes a
    ``mention`` token."""
    people = {name.lower(): name for name in state.env.get("people", {})}
    if not people:
        return
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        in_link = 0
        for token in block.children:
            in_link += token.type == "link_open"
            in_link -= token.type == "link_close"
            if token.type != "text" or in_link:
                children.append(token)
                continue
            children += _split(token.content, people)
        block.children = children


def _split(text: str, people: Mapping[str, str]) -> list[Token]:
    tokens, at = [], 0
    for found in MENTION.finditer(text):
        name = found.group(1).rstrip(".")
        if name.lower() not in people:
            continue
        if found.start() > at:
            tokens.append(_text(text[at : found.start()]))
        mention = Token("mention", "", 0)
        mention.content = people[name.lower()]
        tokens.append(mention)
        at = found.start() + 1 + len(name)
    tokens.append(_text(text[at:]))
    return [token for token in tokens if token.type != "text" or token.content]


def _text(content: str) -> Token:
    token = Token("text", "", 0)
    token.content = content
    return token


def _render_mention(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    name = tokens[idx].content
    user_id = env["people"][name]
    return f'<strong class="mention" data-person="{user_id}">@{escape(name)}</strong>'


def _render_link_open(self: Any, tokens: Sequence[Token], idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("target", "_blank")
    tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
    return str(self.renderToken(tokens, idx, options, env))


@cache
def _reader() -> MarkdownIt:
    md = MarkdownIt("zero", {"html": False, "linkify": True, "breaks": True})
    md.enable(["emphasis", "link", "linkify", "newline", "escape"])
    # markdown-it's own check lets relative and ftp links through; a message links outside.
    md.validateLink = lambda url: url.lower().startswith(LINK_SCHEMES)  # type: ignore[method-assign]
    md.core.ruler.push("mentions", _mentions)
    md.add_render_rule("mention", _render_mention)
    md.add_render_rule("link_open", _render_link_open)
    return md


def message_html(text: str, people: Mapping[str, int] | None = None) -> str:
    """``text`` as safe HTML, one paragraph with line breaks; ``people``: the names it
    mentions and their ids (``mentioned``). Anything else in ``people`` (a restored file's)
    is left out."""
    known = {
        name: user_id
        for name, user_id in (people or {}).items()
        if isinstance(name, str) and type(user_id) is int
    }
    return _reader().renderInline(text, {"people": known}).strip()
