"""The ids a browser sees for rows whose count is not the viewer's to read (log entries, a
scene's parts): the database's id enciphered with a key kept on the server, so that ids carry
no order and no count.

The database numbers every row of a table in one count across the whole server. Shown as it
is, that count tells a player that two entries they may not read were written between the two
they read, that a GM made a card between card-12 and card-15 they have not been shown, or how
busy the other campaigns on the server are. Enciphered, an id is one block of AES (a
permutation of 128-bit blocks): two ids say nothing of which came first or how many lie
between, and a forged or mistyped id decodes to nothing.

Each kind of row has its own key, derived from the server's secret and the kind's name, so an
area's id read as a card's decodes to nothing: a page cannot hand one kind of row in where the
server expects another. The server turns ids back into its own at the edge (a URL converter per
kind, a form's value, a page's catch-up)."""

import base64
import binascii
import hashlib
from dataclasses import dataclass
from functools import lru_cache

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from django.conf import settings

# The block's second half: an id that deciphers without it was not made here, or not for
# this kind of row.
_MARK = b"fudge-id"
# 16 bytes in URL-safe base64, without its padding.
REGEX = "[A-Za-z0-9_-]{22}"
LENGTH = 22


@lru_cache(maxsize=16)
def _cipher(label: bytes, secret: str) -> Cipher[modes.ECB]:
    key = hashlib.sha256(label + secret.encode()).digest()[:16]
    # ECB over a single block is the block cipher itself: one id, one block, nothing chained.
    return Cipher(algorithms.AES(key), modes.ECB())


# Kept: a new entry's id is shown in each audience's copy, its links and the roller's answer,
# and a log page shows hundreds; each cipher context cost more than the rest of the id.
@lru_cache(maxsize=4096)
def _encoded(label: bytes, secret: str, pk: int) -> str:
    block = pk.to_bytes(8, "big") + _MARK
    sealed = _cipher(label, secret).encryptor().update(block)
    return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode()


@dataclass(frozen=True)
class Kind:
    """One kind of row shown by enciphered ids. ``label`` seeds its key: changing it changes
    every id of the kind a page or an export ever showed."""

    name: str
    label: bytes

    def encode(self, pk: int) -> str:
        return _encoded(self.label, settings.SECRET_KEY, pk)

    def decode(self, text: str) -> int | None:
        """The id ``text`` names, or None when it names none of this kind (forged, mistyped,
        another kind's, or made under another secret key)."""
        if len(text) != LENGTH:
            return None
        try:
            sealed = base64.urlsafe_b64decode(text + "==")
        except (binascii.Error, ValueError):
            return None
        block = _cipher(self.label, settings.SECRET_KEY).decryptor().update(sealed)
        if len(block) != 16 or block[8:] != _MARK:
            return None
        return int.from_bytes(block[:8], "big")

    def converter(self) -> type:
        """The path converter for this kind's id in a URL: the view gets the database's id,
        and an id naming none of this kind does not match (a 404)."""
        kind = self

        class ShownIdConverter:
            regex = REGEX

            def to_python(self, value: str) -> int:
                pk = kind.decode(value)
                if pk is None:
                    raise ValueError(f"no such {kind.name}")
                return pk

            def to_url(self, value: int) -> str:
                return kind.encode(value)

        ShownIdConverter.__name__ = f"{kind.name.title()}IdConverter"
        return ShownIdConverter


# The log's entries keep the label they were first shown under: their ids are in exports.
ENTRY = Kind("entry", b"fudgetable.entry_ids:")
SCENE = Kind("scene", b"fudgetable.shown_ids:scene:")
AREA = Kind("area", b"fudgetable.shown_ids:area:")
FIGURE = Kind("figure", b"fudgetable.shown_ids:figure:")
CARD = Kind("card", b"fudgetable.shown_ids:card:")
# An attack declared on a player's PC: its defender's player sees it, the other players not.
ATTACK = Kind("attack", b"fudgetable.shown_ids:attack:")
KINDS = (ENTRY, SCENE, AREA, FIGURE, CARD, ATTACK)
