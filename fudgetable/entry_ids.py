"""The ids a browser sees for log entries (``fudgetable.shown_ids``, whose first kind they
were): enciphered, so ids carry no order and no count.

A log entry's audience differs from entry to entry (a whisper between two players, a GM's
secret roll, a GM-only announcement), while the database numbers every entry of every table in
one count. Shown as it is, that count would tell a player that two entries they may not read
were written between the two they read, and a GM that two players whispered. The server turns
them back into its own ids at the edge (the URL converter, a page's catch-up, paging)."""

from fudgetable.shown_ids import ENTRY, REGEX

__all__ = ["REGEX", "EntryIdConverter", "decode", "encode"]

encode = ENTRY.encode
decode = ENTRY.decode
EntryIdConverter = ENTRY.converter()
