"""Open the store a ``CONCLAVE_DB`` value names: a SQLite file (the default) or a PostgreSQL database.

``conclave.db`` or ``sqlite:///conclave.db`` (``sqlite:////abs/path.db`` for an absolute path):
SQLite, embedded, nothing to run. ``postgresql://user:password@host:5432/name``: PostgreSQL
through asyncpg, shared by several bot processes (README, Scaling out).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from store.sqlite import Store

SQLITE_PREFIX = "sqlite:///"


def is_postgres(url: str) -> bool:
    """Whether a ``CONCLAVE_DB`` value names a PostgreSQL database."""
    return url.startswith(("postgresql://", "postgres://"))


def sqlite_path(url: str) -> str:
    """Return the file a SQLite ``CONCLAVE_DB`` value names (a plain path stays as it is)."""
    return url[len(SQLITE_PREFIX):] if url.startswith(SQLITE_PREFIX) else url


async def open_store(url: str, *, clock: Callable[[], float] = time.time) -> Store:
    """Open (creating and migrating if needed) the store at ``url``, on the engine it names."""
    if is_postgres(url):
        from store.pg import PostgresStore  # asyncpg is needed only by a PostgreSQL store

        return await PostgresStore.open(url, clock=clock)
    return await Store.open(sqlite_path(url), clock=clock)
