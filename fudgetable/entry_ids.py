"""The ids a browser sees for log entries: the database's id enciphered with a key kept on the
server, so that ids carry no order and no count.

A log entry's audience differs from entry to entry (a whisper between two players, a GM's
secret roll, a GM-only announcement), while the database numbers every entry of every table in
one count. Shown as it is, that count would tell a player that two entries they may not read
were written between the two they read, and a GM that two players whispered. Enciphered, an id
is one block of AES (a permutation of 128-bit blocks): two entries' ids say nothing of which
came first or how many lie between, and a forged or mistyped id decodes to nothing. The server
turns them back into its own ids at the edge (the URL converter, a page's catch-up, paging)."""

import base64
import binascii
import hashlib
from functools import lru_cache

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from django.conf import settings

# The block's second half: an id that deciphers without it was not made here.
_MARK = b"fudge-id"
# 16 bytes in URL-safe base64, without its padding.
REGEX = "[A-Za-z0-9_-]{22}"


@lru_cache(maxsize=4)
def _cipher(secret: str) -> Cipher[modes.ECB]:
    key = hashlib.sha256(b"fudgetable.entry_ids:" + secret.encode()).digest()[:16]
    # ECB over a single block is the block cipher itself: one id, one block, nothing chained.
    return Cipher(algorithms.AES(key), modes.ECB())


def encode(entry_id: int) -> str:
    block = entry_id.to_bytes(8, "big") + _MARK
    sealed = _cipher(settings.SECRET_KEY).encryptor().update(block)
    return base64.urlsafe_b64encode(sealed).rstrip(b"=").decode()


def decode(text: str) -> int | None:
    """The entry id ``text`` names, or None when it names none (forged, mistyped, or made under
    another secret key)."""
    if len(text) != 22:
        return None
    try:
        sealed = base64.urlsafe_b64decode(text + "==")
    except (binascii.Error, ValueError):
        return None
    block = _cipher(settings.SECRET_KEY).decryptor().update(sealed)
    if len(block) != 16 or block[8:] != _MARK:
        return None
    return int.from_bytes(block[:8], "big")


class EntryIdConverter:
    """A log entry's id in a URL (``<entry:roll_id>``): the view gets the database's id."""

    regex = REGEX

    def to_python(self, value: str) -> int:
        entry_id = decode(value)
        if entry_id is None:
            raise ValueError("no such entry")  # the URL does not match: a 404
        return entry_id

    def to_url(self, value: int) -> str:
        return encode(value)
