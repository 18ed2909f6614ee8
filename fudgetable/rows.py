"""One row read by its keys, for the reads every roll makes (the membership with its campaign,
the trait with its character, the sheet's lines for it).

``Model.objects.raw`` builds the same instances as a queryset, through the same converters,
but does not compile a query: an ORM ``get()`` spent 0.45 ms building SQL that SQLite answered
in 0.03 ms, and ``raw()`` takes 0.07 ms in all (docs/performance.md, "A roll's cost"). The
WHERE clauses are the callers' own constants; values always go as parameters."""

from collections.abc import Sequence

from django.db import connection, models


def rows[M: models.Model](
    model: type[M], where: str, params: Sequence[object], *, limit: int = 0
) -> list[M]:
    table = connection.ops.quote_name(model._meta.db_table)
    sql = f"SELECT * FROM {table} WHERE {where}" + (f" LIMIT {int(limit)}" if limit else "")
    return list(model._default_manager.raw(sql, params))


def row[M: models.Model](model: type[M], where: str, params: Sequence[object]) -> M | None:
    found = rows(model, where, params, limit=1)
    return found[0] if found else None
