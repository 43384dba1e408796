"""A write transaction in one trip to aiosqlite's thread (``run_transaction``, ``run_statement``).

Each aiosqlite call is a hop to its worker thread and back through the event loop, and a move's
commit was about 18 of them: most of its time in the store went waiting for the loop to come
back, not in SQLite. Here the store's shared ``async`` body (the very code PostgreSQL runs with
real awaits) is driven on the database's own thread against ``Inline``, whose calls run at once
on the sqlite3 connection. The body never suspends, so BEGIN, every statement and COMMIT are one
trip, and a cancel of the waiting coroutine can no longer land between two statements.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Coroutine, Iterable, Sequence
from contextlib import suppress
from typing import Any, TypeVar

from store.records import StoreError

T = TypeVar("T")


class Suspended(RuntimeError):
    """A body driven on the database's thread awaited something that is not the database."""


class InlineCursor:
    """What ``Inline.execute`` hands back: the rows the statement changed, as aiosqlite's cursor."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    @property
    def rowcount(self) -> int:
        """Return how many rows the statement changed."""
        return self._cursor.rowcount

    async def close(self) -> None:
        """Close the cursor."""
        self._cursor.close()


class Inline:
    """The calls of aiosqlite that the store's SQL uses, run at once on the database's thread."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> InlineCursor:
        """Run one statement."""
        return InlineCursor(self._conn.execute(sql, tuple(params)))

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        """Run one statement and return its rows."""
        return self._conn.execute(sql, tuple(params)).fetchall()

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Run one statement per row."""
        self._conn.executemany(sql, rows)

    @property
    def total_changes(self) -> int:
        """Return the rows changed since the connection opened."""
        return self._conn.total_changes


def drive(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never suspends to its end and return its value."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
    coro.close()
    raise Suspended("A transaction run on the database's thread awaited something else.")


def run_transaction(
    conn: sqlite3.Connection,
    body: Callable[[Any], Coroutine[Any, Any, T]],
    mode: str = "IMMEDIATE",
    durable: bool = True,
) -> T:
    """On the database's thread: BEGIN, the body, COMMIT; ROLLBACK on any error.

    ``durable=False`` commits at ``synchronous=NORMAL``: no fsync of its own, the write reaches
    the disk with the next FULL commit (a power cut before then forgets it; a killed process
    does not). The connection is back at FULL afterwards, whatever happened.
    """
    if not durable:
        conn.execute("PRAGMA synchronous = NORMAL")
    try:
        try:
            conn.execute(f"BEGIN {mode}")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError("The database is busy; try again in a moment.") from exc
            raise
        try:
            result = drive(body(Inline(conn)))
            conn.execute("COMMIT")
        except BaseException:
            # "No transaction is active" is fine: SQLite may have rolled back by itself.
            with suppress(sqlite3.OperationalError):
                conn.execute("ROLLBACK")
            raise
        return result
    finally:
        if not durable:
            conn.execute("PRAGMA synchronous = FULL")


def run_statement(
    conn: sqlite3.Connection, sql: str, params: Sequence[Any], durable: bool = True
) -> int:
    """On the database's thread: ONE writing statement as its own transaction; return its row count.

    SQLite runs a statement outside BEGIN ... COMMIT as a transaction of its own (autocommit):
    all of it or none, committed at the connection's ``synchronous`` before it returns. So a
    lone write needs no BEGIN and no COMMIT sent (two statements fewer on the delivered mark,
    the most frequent lone write). ``durable=False`` as in ``run_transaction``.
    """
    if conn.in_transaction:
        # Inside an open transaction the statement would not commit by itself.
        raise StoreError("A lone write found a transaction left open on the connection.")
    if not durable:
        conn.execute("PRAGMA synchronous = NORMAL")
    try:
        try:
            cursor = conn.execute(sql, tuple(params))
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError("The database is busy; try again in a moment.") from exc
            raise
        count = cursor.rowcount
        cursor.close()
        return count
    finally:
        if not durable:
            conn.execute("PRAGMA synchronous = FULL")


def lone_write_here(conn: sqlite3.Connection, sql: str, params: Sequence[Any]) -> int | None:
    """Run ONE writing statement at ``synchronous=NORMAL`` on the calling thread, if it can go at once.

    For a write with no fsync to wait for (the delivered mark), a trip to the database's thread
    and back costs more than the statement. It never waits for the file's write lock
    (``busy_timeout`` 0 for the try: the event loop must not sleep on another process's
    transaction): None when it could not run (nothing was written), and the caller sends it to
    the database's thread, which waits as before. Nor does it checkpoint the WAL (a checkpoint
    syncs two files): the next commit on the database's thread does. The caller holds the
    store's lock, so nothing else uses the connection meanwhile.
    """
    timeout = conn.execute("PRAGMA busy_timeout").fetchone()[0]
    conn.execute("PRAGMA busy_timeout = 0")
    conn.execute("PRAGMA wal_autocheckpoint = 0")
    try:
        return run_statement(conn, sql, params, durable=False)
    except StoreError:
        return None  # busy, or a transaction left open: the thread's path decides, as before
    finally:
        conn.execute(f"PRAGMA wal_autocheckpoint = {WAL_AUTOCHECKPOINT:d}")
        conn.execute(f"PRAGMA busy_timeout = {int(timeout):d}")


WAL_AUTOCHECKPOINT = 1000
"""SQLite's default: a commit that leaves the WAL over this many pages checkpoints it."""


def run_transaction_then(
    conn: sqlite3.Connection,
    body: Callable[[Any], Coroutine[Any, Any, T]],
    committed: Callable[[T | BaseException], None],
    then: Callable[[], None],
) -> None:
    """On the database's thread: the body's transaction at ``synchronous=NORMAL``, its result (or
    its error: nothing was committed) handed over (``committed``) as soon as COMMIT returns, then
    ``then`` (the WAL's fsync, while the caller goes on: ``store.walsync``)."""
    try:
        result = run_transaction(conn, body, "IMMEDIATE", durable=False)
    except BaseException as exc:
        committed(exc)
        return
    committed(result)
    then()
