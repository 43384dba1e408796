"""The PostgreSQL store: the same methods, SQL and guarantees as ``store.sqlite.Store``, on asyncpg.

Only the connection handling differs. A pool of connections replaces the one SQLite connection
and its lock, so several coroutines (and several processes) work at once; a write runs in READ
COMMITTED and reads a table's row ``FOR UPDATE`` (``Dialect.row_lock``) before its version check,
so two commits at one version serialise on the row and the second sees it moved (StaleVersion):
the compare-and-swap. A read of several statements runs in one REPEATABLE READ snapshot. Leases
on due work are compare-and-set UPDATEs that PostgreSQL re-checks after waiting for a row lock,
and ``lease_due`` leases a batch with ``FOR UPDATE SKIP LOCKED``.

``PgConnection`` speaks the few calls of aiosqlite the shared SQL uses (``execute`` with a
``rowcount``, ``execute_fetchall``, ``executemany``, ``total_changes``), numbering the ``?``
placeholders (``store.dialect.to_postgres``) and raising the DB-API's ``sqlite3.IntegrityError``
for a broken constraint, which the shared code catches whichever engine runs it.

The schema is the migration list of ``store.migrations`` rendered by ``store.dialect.pg_schema``;
its version lives in ``conclave_schema``, and a transaction-level advisory lock keeps two
processes from running one step twice.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Sequence
from contextlib import asynccontextmanager, suppress
from typing import Any, TypeVar

import asyncpg

from store.dialect import POSTGRES, Dialect, pg_schema, shown, to_postgres
from store.duework import DueWorkStore
from store.migrations import MIGRATIONS, refuse_newer
from store.records import StoreError
from store.sqlite import Store

T = TypeVar("T")

MIGRATION_LOCK = 0x436F6E636C617665
"""The advisory lock key held while migrating ("Conclave" in ASCII): one process at a time."""
POOL_SIZE = 10
"""Connections per process: the bot's coroutines wait for one rather than open more."""
_BUSY = (asyncpg.exceptions.DeadlockDetectedError, asyncpg.exceptions.SerializationError)


class _Done:
    """What ``PgConnection.execute`` hands back: the rows the statement changed."""

    def __init__(self, rowcount: int) -> None:
        self.rowcount = rowcount
        self.lastrowid = None  # the shared SQL reads new ids with RETURNING

    async def close(self) -> None:
        """Nothing to release (aiosqlite's cursors need closing; asyncpg keeps no cursor here)."""


class PgConnection:
    """One pooled asyncpg connection, speaking the calls of aiosqlite that the store's SQL uses."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn
        self.total_changes = 0

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> _Done:
        """Run one statement; the result's ``rowcount`` is how many rows it changed."""
        async with _translated():
            status = await self.conn.execute(to_postgres(sql), *params)
        tail = status.rsplit(" ", 1)[-1]
        changed = int(tail) if tail.isdigit() else 0
        self.total_changes += changed
        return _Done(changed)

    async def execute_fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[asyncpg.Record]:
        """Run one statement and return its rows."""
        async with _translated():
            return await self.conn.fetch(to_postgres(sql), *params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement per row (counted in ``total_changes``, as SQLite counts them)."""
        for row in rows:
            await self.execute(sql, row)


@asynccontextmanager
async def _translated() -> AsyncIterator[None]:
    """Raise a broken constraint as the DB-API's IntegrityError, a deadlock as a busy store."""
    try:
        yield
    except asyncpg.exceptions.IntegrityConstraintViolationError as exc:
        raise sqlite3.IntegrityError(str(exc)) from exc
    except _BUSY as exc:
        raise StoreError("The database is busy; try again in a moment.") from exc


async def _no_session_state(conn: asyncpg.Connection) -> None:
    """Hand a connection back to the pool as it is (asyncpg has rolled back any open transaction).

    The store never leaves session state behind (no session advisory lock, cursor, LISTEN or
    SET), so asyncpg's default reset query would be one more round trip on every statement: under
    load, a quarter of a move's time.
    """


class PostgresStore(Store):
    """Persistent tables, seats, move log and snapshots in a PostgreSQL database (shared by processes)."""

    _dialect: Dialect = POSTGRES

    def __init__(self, pool: asyncpg.Pool, url: str, clock: Callable[[], float]) -> None:
        super().__init__(None, shown(url), clock)  # type: ignore[arg-type]
        self._pool = pool
        self.url = url

    @classmethod
    async def open(cls, path: str, *, clock: Callable[[], float] = time.time) -> PostgresStore:
        """Connect a pool to the database at ``path`` (a postgresql:// URL) and run the migrations."""
        try:
            pool = await asyncpg.create_pool(path, min_size=1, max_size=POOL_SIZE, reset=_no_session_state)
        except (OSError, asyncpg.PostgresError) as exc:
            raise StoreError(f"Cannot reach the database at {shown(path)} ({exc}).") from None
        try:
            async with pool.acquire() as conn:
                await migrate_pg(conn)
            opened = cls(pool, path, clock)
            await opened._seal_unsealed()
        except BaseException:
            await pool.close()
            raise
        return opened

    async def close(self) -> None:
        """Close the pool; statements under way finish first."""
        await self._pool.close()

    @asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[PgConnection]:  # type: ignore[override]
        """Hold a pooled connection for one transaction: commit on success, roll back on any error."""
        reading = mode == "DEFERRED"
        async with self._pool.acquire() as conn:
            tx = conn.transaction(isolation="repeatable_read" if reading else "read_committed")
            async with _translated():
                await tx.start()
            try:
                yield PgConnection(conn)
            except BaseException:
                # A cancel mid-statement leaves the connection busy: the pool then closes it.
                with suppress(Exception):
                    await tx.rollback()
                raise
            async with _translated():
                await tx.commit()

    async def _in_one_trip(  # type: ignore[override]
        self, body: Callable[[Any], Coroutine[Any, Any, T]], *, durable: bool = True, synced_by: Any = None
    ) -> T:
        """Run a write transaction's body over a pooled connection (every commit is durable here)."""
        async with self._transaction() as db:
            return await body(db)

    async def _changed(self, sql: str, params: Iterable[Any] = (), *, durable: bool = True) -> int:
        """Run one writing statement as its own transaction; return the rows it changed.

        Outside a transaction block PostgreSQL commits a statement by itself (at the server's
        ``synchronous_commit``, as any commit here): one round trip, not BEGIN, it and COMMIT.
        """
        if self._mid_commit_hook is not None:
            return await DueWorkStore._changed(self, sql, params, durable=durable)
        async with self._pool.acquire() as conn:
            done = await PgConnection(conn).execute(sql, tuple(params))
        return done.rowcount

    @asynccontextmanager
    async def _single(self) -> AsyncIterator[PgConnection]:  # type: ignore[override]
        """Hold a pooled connection for a read of ONE statement (its own snapshot)."""
        async with self._pool.acquire() as conn:
            yield PgConnection(conn)

    @classmethod
    async def _has_chain(cls, db: Any) -> bool:
        return True  # every PostgreSQL database is made at the current schema


async def schema_version_pg(conn: asyncpg.Connection) -> int:
    """Return the schema version recorded in the database (0 for an empty one)."""
    await conn.execute("CREATE TABLE IF NOT EXISTS conclave_schema (version INTEGER NOT NULL)")
    version = await conn.fetchval("SELECT MAX(version) FROM conclave_schema")
    return int(version or 0)


async def migrate_pg(conn: asyncpg.Connection, steps: list[tuple[str, ...]] | None = None) -> int:
    """Apply every migration step the database lacks, each in its own transaction; return the version."""
    steps = MIGRATIONS if steps is None else steps
    target = len(steps)
    for number in range(1, target + 1):
        async with conn.transaction():
            await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK:d})")
            current = await schema_version_pg(conn)
            refuse_newer(current, target)
            if current < number:
                for statement in steps[number - 1]:
                    await conn.execute(pg_schema(statement))
                await conn.execute("INSERT INTO conclave_schema (version) VALUES ($1)", number)
    async with conn.transaction():
        return await schema_version_pg(conn)
