"""Rows read by their keys, for the reads every roll makes (the membership with its campaign,
the trait with its character, the sheet's lines for it), and the log entry's INSERT.

An ORM ``get()`` spent 0.45 ms compiling SQL that SQLite answered in 0.03 ms, and
``Model.objects.raw()``, which compiles nothing, still worked out each column's field and
converters on every call (docs/performance.md, "A roll's cost"). Here that is worked out once
per model and connection (a ``Shape``); the instances are built as the ORM builds them
(``Model.from_db``, through the same converters), and a related row can come in the same
statement (``joined``), as ``select_related`` would bring it. The WHERE clauses are the
callers' own constants, naming the model's table ``main``; values always go as parameters."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any
from weakref import WeakKeyDictionary

from django.db import DEFAULT_DB_ALIAS, IntegrityError, connections, models, transaction
from django.db.backends.base.base import BaseDatabaseWrapper


@dataclass(frozen=True)
class Shape:
    """A model's columns in the order ``from_db`` takes them, and how each value is converted
    from the database's (column's index, its converters, the expression they are given)."""

    model: type[models.Model]
    attnames: tuple[str, ...]
    columns: tuple[str, ...]
    converters: tuple[tuple[int, tuple[Any, ...], Any], ...]

    def build(self, values: Sequence[Any], db: BaseDatabaseWrapper) -> models.Model:
        values = list(values)
        for index, converters, expression in self.converters:
            for convert in converters:
                values[index] = convert(values[index], expression, db)
        return self.model.from_db(db.alias, self.attnames, values)


# Worked out once per connection: the converters are its backend's own, bound to it.
_kept: WeakKeyDictionary[BaseDatabaseWrapper, dict[object, Any]] = WeakKeyDictionary()


def _once[T](db: BaseDatabaseWrapper, key: object, make: Callable[[], T]) -> T:
    known = _kept.setdefault(db, {})
    if key not in known:
        known[key] = make()
    return known[key]


def _shape(db: BaseDatabaseWrapper, model: type[models.Model]) -> Shape:
    def make() -> Shape:
        fields = model._meta.concrete_fields
        converters = []
        for index, field in enumerate(fields):
            expression = field.get_col(model._meta.db_table)
            found = db.ops.get_db_converters(expression) + expression.get_db_converters(db)
            if found:
                converters.append((index, tuple(found), expression))
        return Shape(
            model,
            tuple(field.attname for field in fields),
            tuple(db.ops.quote_name(str(field.column)) for field in fields),
            tuple(converters),
        )

    return _once(db, ("shape", model), make)


@dataclass(frozen=True)
class _Read:
    """A model's SELECT with its joined rows, up to its WHERE, and the shapes of its columns."""

    select: str
    main: Shape
    related: tuple[tuple[str, Shape], ...]


def _read(db: BaseDatabaseWrapper, model: type[models.Model], joined: tuple[str, ...]) -> _Read:
    def make() -> _Read:
        quote = db.ops.quote_name
        main = _shape(db, model)
        selected = [f"main.{column}" for column in main.columns]
        tables = [f"{quote(model._meta.db_table)} AS main"]
        related = []
        for number, name in enumerate(joined):
            field = model._meta.get_field(name)
            assert isinstance(field, models.ForeignKey), f"{name} is not a foreign key"
            target = field.related_model
            assert isinstance(target, type) and target._meta.pk is not None
            alias = f"joined{number}"
            shape = _shape(db, target)
            selected += [f"{alias}.{column}" for column in shape.columns]
            tables.append(
                f"JOIN {quote(target._meta.db_table)} AS {alias} ON {alias}."
                f"{quote(str(target._meta.pk.column))} = main.{quote(field.column)}"
            )
            related.append((name, shape))
        select = f"SELECT {', '.join(selected)} FROM {' '.join(tables)} WHERE "
        return _Read(select, main, tuple(related))

    return _once(db, ("read", model, joined), make)


def rows[M: models.Model](
    model: type[M],
    where: str,
    params: Sequence[Any],
    *,
    joined: Sequence[str] = (),
    limit: int = 0,
) -> list[M]:
    """The rows of ``model`` that ``where`` picks, each with the rows its foreign keys named
    in ``joined`` point to (an inner join: a row whose related row is gone is not read)."""
    db = connections[DEFAULT_DB_ALIAS]
    read = _read(db, model, tuple(joined))
    sql = read.select + where + (f" LIMIT {int(limit)}" if limit else "")
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        found = cursor.fetchall()
    built = []
    width = len(read.main.columns)
    for values in found:
        instance = read.main.build(values[:width], db)
        start = width
        for name, shape in read.related:
            end = start + len(shape.columns)
            setattr(instance, name, shape.build(values[start:end], db))
            start = end
        built.append(instance)
    return built  # type: ignore[return-value]


def row[M: models.Model](
    model: type[M], where: str, params: Sequence[Any], *, joined: Sequence[str] = ()
) -> M | None:
    found = rows(model, where, params, joined=joined, limit=1)
    return found[0] if found else None


@dataclass(frozen=True)
class _Write:
    """A model's INSERT of every column but its generated key, returning that key."""

    sql: str
    or_nothing: str  # the same, writing nothing where a unique constraint would break
    fields: tuple[models.Field, ...]


def _write(db: BaseDatabaseWrapper, model: type[models.Model]) -> _Write:
    def make() -> _Write:
        key = model._meta.pk
        assert key is not None
        generated = key if key.db_returning else None  # an id the database gives
        fields = tuple(field for field in model._meta.concrete_fields if field is not generated)
        quote = db.ops.quote_name
        columns = ", ".join(quote(str(field.column)) for field in fields)
        values = f"VALUES ({', '.join(['%s'] * len(fields))})"
        into = f"INSERT INTO {quote(model._meta.db_table)} ({columns}) {values}"
        returning = f" RETURNING {quote(str(key.column))}"
        return _Write(into + returning, into + " ON CONFLICT DO NOTHING" + returning, fields)

    return _once(db, ("write", model), make)


def insert(instance: models.Model, *, or_nothing: bool = False) -> bool:
    """Writes a new instance as ``save()`` would (each field's own default and conversion, its
    key read back), without compiling the INSERT again for every roll. No signals are sent:
    it is for the log's entries, which nothing listens for. ``or_nothing``: a row that would
    break a unique constraint is not written, and False says so (``ON CONFLICT DO NOTHING``:
    on PostgreSQL, after the transaction writing the other row has ended)."""
    db = connections[DEFAULT_DB_ALIAS]
    if not db.features.can_return_columns_from_insert:
        try:
            with transaction.atomic():
                instance.save(force_insert=True)
        except IntegrityError:
            if not or_nothing:
                raise
            return False
        return True
    write = _write(db, type(instance))
    values = [field.get_db_prep_save(field.pre_save(instance, True), db) for field in write.fields]
    with db.cursor() as cursor:
        cursor.execute(write.or_nothing if or_nothing else write.sql, values)
        written = cursor.fetchone()
    if written is None:
        return False
    instance.pk = written[0]
    instance._state.adding = False
    instance._state.db = db.alias
    return True
