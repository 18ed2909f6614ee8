"""Sessions that outlive the cache: Django's ``cached_db`` store, which reads a session from
the cache and writes it through to the database, standing on the database alone while the
cache is away.

In scaled mode the cache is Redis. Django's store falls back to the database when a read
fails, but then writes the session back to the cache and lets that error through, as it does
on a delete: with Redis down for ten seconds every page and roll of a logged-in person was a
500. Here a cache that fails is treated as an empty one that keeps nothing, and a session
deleted while it was away (a log-out) is deleted from it once it answers again, so that a
cache that kept its contents does not bring the session back.
"""

import logging
import threading
from typing import Any

from django.conf import settings
from django.contrib.sessions.backends import cached_db
from django.core.cache import caches

logger = logging.getLogger(__name__)

_undeleted: set[str] = set()  # sessions deleted while the cache was away, to delete there too
_lock = threading.Lock()


class CacheOrNothing:
    """A cache whose failures read as misses and writes that did not happen."""

    def __init__(self, cache: Any) -> None:
        self.cache = cache

    def _failed(self, action: str, error: Exception) -> None:
        logger.warning("session cache unavailable (%s): %s; using the database", action, error)

    def _forget_undeleted(self) -> None:
        with _lock:
            keys = list(_undeleted)
            _undeleted.clear()
        if keys:
            try:
                self.cache.delete_many(keys)
            except Exception:
                with _lock:
                    _undeleted.update(keys)

    def get(self, key: str, default: Any = None) -> Any:
        try:
            found = self.cache.get(key, default)
        except Exception as error:
            self._failed("read", error)
            return default
        self._forget_undeleted()
        return found

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        try:
            self.cache.set(key, value, timeout)
        except Exception as error:
            self._failed("write", error)

    def delete(self, key: str) -> None:
        try:
            self.cache.delete(key)
        except Exception as error:
            self._failed("delete", error)
            with _lock:
                _undeleted.add(key)

    def __contains__(self, key: str) -> bool:
        return self.get(key) is not None

    def __getattr__(self, name: str) -> Any:
        # The rest (the async methods, which nothing here calls) as the cache has them.
        return getattr(self.cache, name)


# When the session ends, kept in it (a Unix time, in seconds): the database's expiry column is
# not read with the session, and a page the person may keep offline says when its copy stops
# being readable (fudgetable/offline.py).
ENDS_AT = "_ends_at"


class SessionStore(cached_db.SessionStore):
    def __init__(self, session_key: str | None = None) -> None:
        super().__init__(session_key)
        self._cache = CacheOrNothing(caches[settings.SESSION_CACHE_ALIAS])

    def save(self, must_create: bool = False) -> None:
        # Written as the expiry is (each save moves it), a second early at most.
        data = self._get_session(no_load=must_create)  # type: ignore[attr-defined]
        data[ENDS_AT] = int(self.get_expiry_date().timestamp())
        super().save(must_create)
