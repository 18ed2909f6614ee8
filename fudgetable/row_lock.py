"""Limits that count rows and then write one (a person's messages a minute, a campaign's
scenes, its pictures' bytes) hold a lock on the row the count belongs to, from the count to
the write, inside one transaction.

Counted outside the write, 32 messages sent at once all read "under the limit" before any was
written: 14 were logged on one process and 17-21 on two, against a limit of 8 (issue 37).
On PostgreSQL the lock is the row's `SELECT ... FOR UPDATE`, held until the transaction ends,
so it holds across processes without Redis: a second count waits for the first write. On
SQLite (the embedded default) every transaction begins IMMEDIATE, taking the database's one
write lock before its first read, so a count in the write's transaction already holds it and
the `FOR UPDATE` is left out."""

from django.db import models, transaction


def hold(row: models.Model) -> None:
    """Locks ``row`` until the surrounding transaction ends."""
    connection = transaction.get_connection()
    if not connection.in_atomic_block:
        raise RuntimeError("hold() outside a transaction locks nothing")
    if not connection.features.has_select_for_update:
        return  # SQLite: the transaction's write lock holds already; a SELECT would add nothing
    type(row)._default_manager.select_for_update().filter(pk=row.pk).values_list(
        "pk", flat=True
    ).first()
