"""Django's SQLite backend, for the embedded default's one process serving many requests.

Two changes, both measured under load (docs/performance.md):

- Writers queue on a lock in this process. SQLite lets one transaction write at a time and
  makes the others poll, sleeping up to 100 ms between tries, so under a burst of rolls a
  roll could wait far longer than the one before it took. Here the next writer starts the
  moment the last one commits; past the connection's timeout it gets "database is locked",
  as it would from SQLite.
- Connections are kept for the next request instead of closed. Django closes a request's
  connection when it ends (and its ASGI handler gave each request a new thread), so each
  request opened a connection (registering Django's SQL functions, running the PRAGMAs) and
  closed it again.
"""

import queue
import threading
from typing import Any

from django.db.backends.sqlite3 import base
from django.db.utils import OperationalError

POOL_SIZE = 8

_write_lock = threading.Lock()
_pools: dict[str, "queue.LifoQueue[Any]"] = {}
_pools_lock = threading.Lock()


def _pool(name: str) -> "queue.LifoQueue[Any]":
    with _pools_lock:
        return _pools.setdefault(name, queue.LifoQueue(maxsize=POOL_SIZE))


class DatabaseWrapper(base.DatabaseWrapper):
    # The "type: ignore"s below: django-stubs leaves out the backend's private hooks.
    _writing = False

    def _shared(self) -> bool:
        """A file several requests share. An in-memory database (the tests') lives and dies
        with its one connection, which a test's transaction holds from start to end."""
        return not self.is_in_memory_db()

    def get_new_connection(self, conn_params: dict[str, Any]) -> Any:
        if self._shared():
            try:
                return _pool(str(self.settings_dict["NAME"])).get_nowait()
            except queue.Empty:
                pass
        return super().get_new_connection(conn_params)

    def _close(self) -> None:
        self._stop_writing()
        connection = self.connection
        if connection is not None and self._shared() and not connection.in_transaction:
            try:
                _pool(str(self.settings_dict["NAME"])).put_nowait(connection)
                return
            except queue.Full:
                pass
        super()._close()  # type: ignore[misc]

    def _start_transaction_under_autocommit(self) -> None:
        timeout = float(self.settings_dict["OPTIONS"].get("timeout", 5))
        if self._shared() and not self._writing:
            if not _write_lock.acquire(timeout=timeout):
                raise OperationalError("database is locked")
            self._writing = True
        try:
            super()._start_transaction_under_autocommit()  # type: ignore[misc]
        except BaseException:
            self._stop_writing()
            raise

    def _commit(self) -> None:
        super()._commit()  # type: ignore[misc]
        # A failed commit leaves the transaction open; the rollback that follows ends it.
        self._stop_writing()

    def _rollback(self) -> None:
        try:
            super()._rollback()  # type: ignore[misc]
        finally:
            self._stop_writing()

    def _stop_writing(self) -> None:
        if self._writing:
            self._writing = False
            _write_lock.release()
