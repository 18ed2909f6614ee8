"""The embedded default's SQLite backend: writers queue in the process, connections are kept.

Each test opens its own file database (the test database is in memory, where neither applies)
through Django's connection handler, one wrapper per thread as requests have them."""

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db.utils import ConnectionHandler, OperationalError

from fudgetable.sqlite import base


@pytest.fixture
def handler(tmp_path: Path, django_db_blocker) -> Iterator[ConnectionHandler]:
    name = str(tmp_path / "table.sqlite3")
    with django_db_blocker.unblock():
        handler = ConnectionHandler(
            {
                "default": {
                    "ENGINE": "fudgetable.sqlite",
                    "NAME": name,
                    "OPTIONS": {
                        "init_command": "PRAGMA journal_mode=wal;",
                        "transaction_mode": "IMMEDIATE",
                        "timeout": 2,
                    },
                }
            }
        )
        yield handler
        handler.close_all()
    kept = base._pools.pop(name, None)
    while kept is not None and not kept.empty():
        kept.get_nowait().close()


def _write(db: base.DatabaseWrapper, sql: str, *, commit: bool = True) -> None:
    """One transaction as ``atomic`` runs it on SQLite."""
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with db.cursor() as cursor:
        cursor.execute(sql)
    db.commit() if commit else db.rollback()
    db.set_autocommit(True)


def _rows(handler: ConnectionHandler) -> int:
    with handler["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM roll")
        return int(cursor.fetchone()[0])


def test_concurrent_writers_all_land_and_the_lock_is_free_after(handler):
    _write(handler["default"], "CREATE TABLE roll (id INTEGER PRIMARY KEY, by TEXT)")
    problems: list[BaseException] = []

    def player(name: str) -> None:
        db = handler["default"]  # this thread's own wrapper and connection
        try:
            for _ in range(25):
                _write(db, f"INSERT INTO roll (by) VALUES ('{name}')")
        except BaseException as error:
            problems.append(error)
        finally:
            db.close()

    threads = [threading.Thread(target=player, args=(f"p{n}",)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert problems == []
    assert _rows(handler) == 200
    assert not base._write_lock.locked()


def test_a_rolled_back_transaction_frees_the_lock(handler):
    db = handler["default"]
    _write(db, "CREATE TABLE roll (id INTEGER PRIMARY KEY, by TEXT)")
    _write(db, "INSERT INTO roll (by) VALUES ('gm')", commit=False)
    assert not base._write_lock.locked()
    assert _rows(handler) == 0


def test_a_writer_past_its_timeout_is_told_the_database_is_locked(handler):
    first = handler["default"]
    _write(first, "CREATE TABLE roll (id INTEGER PRIMARY KEY, by TEXT)")
    first.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    waited: list[BaseException] = []

    def second() -> None:
        db = handler["default"]
        db.settings_dict["OPTIONS"]["timeout"] = 0.2
        try:
            _write(db, "INSERT INTO roll (by) VALUES ('late')")
        except OperationalError as error:
            waited.append(error)
        finally:
            db.close()

    thread = threading.Thread(target=second)
    thread.start()
    thread.join()
    first.rollback()
    first.set_autocommit(True)
    assert [str(error) for error in waited] == ["database is locked"]
    assert not base._write_lock.locked()


def test_a_closed_connection_serves_the_next_request(handler):
    db = handler["default"]
    db.ensure_connection()
    raw = db.connection
    db.close()
    taken: list[object] = []

    def next_request() -> None:
        other = handler["default"]
        other.ensure_connection()
        taken.append(other.connection)
        other.close()

    thread = threading.Thread(target=next_request)
    thread.start()
    thread.join()
    assert taken == [raw]


def test_a_connection_closed_inside_a_transaction_is_not_kept(handler):
    db = handler["default"]
    _write(db, "CREATE TABLE roll (id INTEGER PRIMARY KEY, by TEXT)")
    db.set_autocommit(False, force_begin_transaction_with_broken_autocommit=True)
    with db.cursor() as cursor:
        cursor.execute("INSERT INTO roll (by) VALUES ('dropped')")
    raw = db.connection
    db.close()
    assert not base._write_lock.locked()
    db.ensure_connection()
    assert db.connection is not raw
    assert _rows(handler) == 0
