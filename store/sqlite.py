"""The SQLite store: tables, seats, the move log and snapshots, through aiosqlite.

Durability: WAL journal with ``synchronous=FULL``. In WAL mode NORMAL already survives a killed
process, but after a power cut it may forget the last commits; by then Discord has shown the
players a board that includes those moves, so every acknowledged move must be on the disk. A
player's move (``commit_move(sync_later=True)``) commits at NORMAL and the database's thread
fsyncs the WAL right after handing the result back (``store.walsync``): the service composes the
reply meanwhile and shows nothing of the move before ``durable`` returns, so the fsync leaves the
move's path but not its guarantee. Every other write commits at FULL. The delivered mark commits
at NORMAL with no fsync at all (``durable=False``): a power cut may forget it, and the board is
posted again; it is written on the event loop's thread (``store.inline.lone_write_here``).

Trips and statements: a write of many statements (a move's commit) runs as one call on
aiosqlite's thread (``_in_one_trip``, ``store.inline``), not one hop through the event loop per
statement; a lone write (the delivered mark, a lease) is one statement and its own transaction
(SQLite's autocommit: no BEGIN and COMMIT sent, ``store.inline.run_statement``).

Concurrency: one connection per Store, and one asyncio lock around every use of it, so two
coroutines never interleave statements inside one transaction. Across processes (or two Store
objects on one file), every write takes the write lock first (``BEGIN IMMEDIATE``; a lone
writing statement starts as a write transaction, waiting out ``busy_timeout`` the same way) and
checks the table's version inside the transaction: the compare-and-swap that stops a move being
lost or applied twice. A move's commit makes that check the UPDATE of the table row itself
(``WHERE status = 'active' AND version = ?``), its first statement, so nothing is
read before it.

Integrity: the move log is a hash chain and each snapshot carries a checksum over the chain's
head (``store.chain``). ``load`` verifies both: a damaged (or missing) snapshot over a sound log raises
``DamagedSnapshot`` (the service replays the log and ``repair_snapshot`` writes it back); any
other damage (an edited move, seed or seat) raises ``CorruptTable``. A Store verifies each
table's whole chain once, then only the links added since; a link it wrote itself over the chain
it verified (or over the genesis it wrote at ``start``) counts as verified once its transaction
committed, so a move extends the chain from memory with one guarded INSERT (``_chain_move``:
added only if the previous link is still the verified one, else the link is read as before).
A restart verifies every chain whole again.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager, suppress
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from store.asyncplay import AsyncPlayStore, Timing
from store.botmemory import BotMemoryStore
from store.chain import ChainStore, genesis, seal
from store.changes import Listener, TableChanges, changes_table
from store.dialect import SQLITE, Dialect, is_postgres, sqlite_path
from store.inline import lone_write_here, run_statement, run_transaction, run_transaction_then
from store.migrations import migrate
from store.records import (
    STATUSES,
    CorruptTable,
    DamagedSnapshot,
    MoveRecord,
    StaleVersion,
    StoreError,
    TableRecord,
    dump,
)
from store.rows import TABLE, is_time, sound, table_fault
from store.seats import SeatStore
from store.servers import ServerStore
from store.walsync import WalSync

BUSY_TIMEOUT_MS = 10_000
"""How long a writer waits for another process's write lock before giving up."""


T = TypeVar("T")

OPEN_POSTGRES: Callable[..., Awaitable[Store]] | None = None
"""Opens a ``postgresql://`` store; set by the ``store`` package, so this module never imports
``store.pg`` (which builds on it) and asyncpg is imported only for PostgreSQL."""


class Store(AsyncPlayStore, BotMemoryStore, ChainStore, SeatStore, ServerStore, TableChanges):
    """Persistent tables, seats, move log and snapshots in one SQLite file."""

    _dialect: Dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection, path: str, clock: Callable[[], float]) -> None:
        self._db = db
        self.path = path
        self._clock = clock
        self._lock = asyncio.Lock()
        self._mid_commit_hook: Callable[[], Awaitable[None]] | None = None
        """Test hook awaited inside commit_move once the version, log, snapshot and chain are written."""
        self._chained = True
        """False only for a file left at an older schema on purpose (tests of the migrations)."""
        self._listeners: list[Listener] = []
        """Told of every committed write that changed a table (``store.changes``)."""
        self._sound: dict[int, tuple[int, str]] = {}
        """Per table, the version and link up to which this Store has verified the chain."""
        self._wal = WalSync(path) if db is not None and path != ":memory:" else None
        """Syncs the WAL after a move committed at NORMAL (``commit_move(sync_later=True)``)."""

    # ------------------------------------------------------------------ life cycle

    @classmethod
    async def open(cls, path: str, *, clock: Callable[[], float] = time.time) -> Store:
        """Open (creating if needed) the database file, switch on WAL and run the migrations.

        ``path`` is a ``CONCLAVE_DB`` value: a file, ``sqlite:///file``, or a ``postgresql://``
        URL, which opens the PostgreSQL store (``store.pg``) instead.
        """
        if is_postgres(path):
            if OPEN_POSTGRES is None:
                raise StoreError("PostgreSQL is not available here (the store package was not loaded)")
            return await OPEN_POSTGRES(path, clock=clock)
        path = sqlite_path(path)
        if path != ":memory:" and not path.startswith("file:"):
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        # isolation_level=None: the sqlite3 module must not open transactions behind our back;
        # every transaction here is an explicit BEGIN ... COMMIT.
        # check_same_thread=False: a lone write without an fsync runs on the event loop's thread
        # (``lone_write_here``), under the same lock as every use of the connection.
        db = await aiosqlite.connect(path, isolation_level=None, check_same_thread=False)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
            mode = await _switch_to_wal(db)
            if mode != "wal" and path != ":memory:":
                raise StoreError(f"SQLite refused WAL mode for {path} (got {mode}).")
            await db.execute("PRAGMA synchronous = FULL")
            await db.execute("PRAGMA foreign_keys = ON")
            await migrate(db)
            opened = cls(db, path, clock)
            await opened._seal_unsealed()
        except BaseException:
            await db.close()
            raise
        return opened

    def use_clock(self, clock: Callable[[], float]) -> None:
        """Take the times the store writes from this clock (the service's, so tests can move it)."""
        self._clock = clock

    async def close(self) -> None:
        """Close the connection; pending statements (and a sync under way) finish first."""
        async with self._lock:
            await self._db.close()
        if self._wal is not None:
            self._wal.close()

    def syncing(self) -> bool:
        """Whether a move committed with ``sync_later`` may not be on the disk yet (``durable`` waits)."""
        return self._wal is not None and self._wal.syncing()

    async def durable(self) -> None:
        """Return once every move committed so far is on the disk (``commit_move(sync_later=True)``
        leaves its sync under way); raise ``NotDurable`` when the disk refused it."""
        if self._wal is not None:
            await self._wal.durable()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ transactions

    @asynccontextmanager
    async def _transaction(self, mode: str = "IMMEDIATE") -> AsyncIterator[aiosqlite.Connection]:
        """Hold the connection for one transaction: commit on success, roll back on any error.

        aiosqlite runs statements in order on one worker thread, and a statement already queued
        runs even if the coroutine awaiting it is cancelled. So a cancel at any await below,
        BEGIN included, still ends in the ROLLBACK queued after it: the connection is never
        left inside a transaction for the next caller.
        """
        async with self._lock:
            try:
                try:
                    await self._db.execute(f"BEGIN {mode}")
                except sqlite3.OperationalError as exc:
                    if "locked" in str(exc) or "busy" in str(exc):
                        raise StoreError("The database is busy; try again in a moment.") from exc
                    raise
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _in_one_trip(
        self,
        body: Callable[[Any], Coroutine[Any, Any, T]],
        *,
        durable: bool = True,
        synced_by: WalSync | None = None,
    ) -> T:
        """Run a write transaction's body in ONE trip to the database's thread, BEGIN to COMMIT.

        ``body`` gets a connection whose calls run at once there (``store.inline``); the
        PostgreSQL store runs the same body over its own connection. ``durable=False`` commits
        without an fsync of its own (the delivered mark; docs/service.md, "Delivery").
        ``synced_by``: commit at NORMAL and return at once, ``synced_by`` fsyncing the WAL after
        (``_commit_then_sync``).
        """
        if self._mid_commit_hook is not None:
            # A test's hook awaits real asyncio work, which cannot run on the database's thread.
            async with self._transaction() as db:
                return await body(db)
        if synced_by is not None:
            return await self._commit_then_sync(body, synced_by)
        async with self._lock:
            # aiosqlite's own queue to its thread (its execute is a call of this too).
            return await self._db._execute(run_transaction, self._db._conn, body, "IMMEDIATE", durable)

    async def _commit_then_sync(self, body: Callable[[Any], Coroutine[Any, Any, T]], wal: WalSync) -> T:
        """Run a write transaction's body in one trip at NORMAL; return once it committed, its
        WAL's fsync still under way on the database's thread (``durable`` waits for it)."""
        loop = asyncio.get_running_loop()
        committed: asyncio.Future[T] = loop.create_future()

        def hand(result: T | BaseException) -> None:  # on the database's thread
            loop.call_soon_threadsafe(_settle, committed, result)

        async with self._lock:
            # Queued as aiosqlite's ``_execute`` queues a call, without waiting for the call's end:
            # the commit's result comes through ``committed`` before the fsync that follows it.
            job: asyncio.Future[None] = loop.create_future()
            call = partial(run_transaction_then, self._db._conn, body, hand, wal.sync)
            self._db._tx.put_nowait((job, call))
            result = await committed
        wal.track(job)
        return result

    async def _changed(self, sql: str, params: Iterable[Any] = (), *, durable: bool = True) -> int:
        """Run one writing statement as its own transaction, in one trip; return the rows it changed.

        SQLite's autocommit makes the lone statement a transaction: no BEGIN and COMMIT to send
        (``store.inline.run_statement``). ``durable=False``: the delivered mark, as ``_in_one_trip``.
        """
        if self._mid_commit_hook is not None:
            return await super()._changed(sql, params, durable=durable)
        async with self._lock:
            if not durable:
                # No fsync to wait for: written here, without the two hops to the database's
                # thread and back (most of a delivered mark's time), unless the file is busy.
                changed = lone_write_here(self._db._conn, sql, tuple(params))
                if changed is not None:
                    return changed
            return await self._db._execute(run_statement, self._db._conn, sql, tuple(params), durable)

    async def _rollback(self) -> None:
        """Roll back the open transaction, if SQLite has not already ended it."""
        # "No transaction is active" is fine: BEGIN failed, COMMIT went through before a
        # cancel, or SQLite already rolled back by itself (e.g. disk full).
        with suppress(sqlite3.OperationalError):
            await self._db.execute("ROLLBACK")

    def _reading(self) -> AbstractAsyncContextManager[aiosqlite.Connection]:
        """Hold the connection for a consistent read of several statements (one snapshot)."""
        return self._transaction("DEFERRED")

    @asynccontextmanager
    async def _single(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the connection for a read of ONE statement: it is its own snapshot, no BEGIN needed.

        Saves two trips to the database thread per read (reads are most of the traffic).
        """
        async with self._lock:
            yield self._db

    @staticmethod
    async def _one(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        # One trip to the database thread (execute, fetch and close together), not three.
        rows = await db.execute_fetchall(sql, tuple(params))
        return next(iter(rows), None)

    @staticmethod
    async def _all(db: aiosqlite.Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await db.execute_fetchall(sql, tuple(params)))

    async def _table_row(self, db: aiosqlite.Connection, table_id: int) -> sqlite3.Row:
        """Return the table's row inside a write, locked against other writers until it ends."""
        row = await self._one(db, "SELECT * FROM tables WHERE id = ?" + self._dialect.row_lock, (table_id,))
        if row is None:
            raise StoreError(f"There is no table {table_id}.")
        return row

    # ------------------------------------------------------------------ tables

    async def create_table(
        self,
        kind: str,
        name: str,
        options: dict[str, str],
        guild_id: int | None,
        channel_id: int,
        host_id: int,
    ) -> TableRecord:
        """Create a table in the lobby at version 0 and return it."""
        now = self._clock()
        async with self._transaction() as db:
            created = await self._one(
                db,
                "INSERT INTO tables (kind, name, options, guild_id, channel_id, host_id, status,"
                " version, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?) RETURNING id",
                (kind, name, dump(options), guild_id, channel_id, host_id, now, now),
            )
            assert created is not None
            return TableRecord.from_row(await self._table_row(db, created["id"]))

    @changes_table
    async def set_thread(self, table_id: int, thread_id: int) -> None:
        """Record the Discord thread the table plays in."""
        async with self._transaction() as db:
            await self._table_row(db, table_id)
            try:
                await db.execute(
                    "UPDATE tables SET thread_id = ?, updated_at = ? WHERE id = ?",
                    (thread_id, self._clock(), table_id),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"Thread {thread_id} already belongs to another table.") from None

    async def table(self, table_id: int) -> TableRecord | None:
        """Return the table, or None when there is no such table."""
        async with self._single() as db:
            row = await self._one(db, "SELECT * FROM tables WHERE id = ?", (table_id,))
        return None if row is None else TableRecord.from_row(row)

    async def table_for_thread(self, thread_id: int) -> TableRecord | None:
        """Return the table playing in that thread, or None."""
        async with self._single() as db:
            row = await self._one(db, "SELECT * FROM tables WHERE thread_id = ?", (thread_id,))
        return None if row is None else TableRecord.from_row(row)

    @changes_table
    async def set_status(self, table_id: int, status: str) -> None:
        """Change the table's status (e.g. abandoned) and clear who it waits on."""
        if status not in STATUSES:
            raise StoreError(f"Unknown table status {status!r}.")
        async with self._transaction() as db:
            await self._table_row(db, table_id)
            await db.execute(
                "UPDATE tables SET status = ?, updated_at = ? WHERE id = ?",
                (status, self._clock(), table_id),
            )
            await db.execute("DELETE FROM waiting WHERE table_id = ?", (table_id,))

    # ------------------------------------------------------------------ play

    @changes_table
    async def start(
        self,
        table_id: int,
        seed: int,
        seat_order: list[int],
        snapshot: dict,
        waiting: list[int],
        timing: Timing | None = None,
    ) -> TableRecord:
        """Move a lobby table to active: seat numbers, seed, snapshot at version 0, who it waits on.

        Its clocks, their due work and the opening board's delivery are written with it.
        """
        state = dump(snapshot)
        now = self._clock()
        async with self._transaction() as db:
            table = await self._table_row(db, table_id)
            if table["status"] != "lobby":
                raise StaleVersion(f"Table {table_id} has already left the lobby ({table['status']}).")
            seated = {
                row["user_id"]
                for row in await self._all(db, "SELECT user_id FROM seats WHERE table_id = ?", (table_id,))
            }
            if len(seat_order) != len(set(seat_order)) or set(seat_order) != seated:
                raise StoreError(
                    f"The seat order {seat_order} must name each seated user of table {table_id} once."
                )
            for number, user_id in enumerate(seat_order):
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE table_id = ? AND user_id = ?",
                    (number, table_id, user_id),
                )
            await db.execute(
                "UPDATE tables SET status = 'active', seed = ?, version = 0, updated_at = ? WHERE id = ?",
                (seed, now, table_id),
            )
            await db.execute(
                "INSERT INTO snapshots (table_id, version, state) VALUES (?, 0, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, state = excluded.state",
                (table_id, state),
            )
            row = await self._table_row(db, table_id)
            head = None
            if self._chained:
                head = genesis(row, list(enumerate(seat_order)))
                await db.execute(
                    "INSERT INTO chain (table_id, version, link) VALUES (?, 0, ?)"
                    " ON CONFLICT (table_id, version) DO UPDATE SET link = excluded.link",
                    (table_id, head),
                )
                await self._write_sum(db, table_id, seal(head, 0, state))
            await self._replace_waiting(db, table_id, waiting, now)
            await self._implied(db, table_id, 0, 0, timing, now)
        if head is not None:
            # The genesis this Store just wrote is sound: the moves chain on from it unread.
            self._sound.pop(table_id, None)
            self._chained_to(table_id, 0, head)
        return TableRecord.from_row(row)

    @changes_table
    async def commit_move(
        self,
        table_id: int,
        expected_version: int,
        seat: int,
        move: dict,
        events: list[dict],
        snapshot: dict,
        waiting: list[int],
        result: dict | None = None,
        memories: dict[int, dict] | None = None,
        timing: Timing | None = None,
        *,
        sync_later: bool = False,
    ) -> int:
        """Log one move and replace the snapshot in one transaction; return the new version.

        Raises StaleVersion unless the table is active at ``expected_version``. With a
        ``result`` the table finishes: the result is stored and nobody is waited on. ``memories``
        (seat -> JSON) are the bot seats' memories after seeing this move, saved with it.
        Everything the move implies is written in the same transaction: whose clock runs and the
        due work that follows (``timing``), and the move's delivery as open due work (kind
        ``deliver``) until the thread got it.

        ``sync_later``: the commit is written at ``synchronous=NORMAL`` and its fsync runs beside
        the caller (``store.walsync``), who must await ``durable`` before showing anything of the
        move. Otherwise the commit is durable when this returns.
        """
        # Serialise before BEGIN: a value that is not JSON must fail without touching the file.
        move_text, events_text, state_text = dump(move), dump(events), dump(snapshot)
        result_text = None if result is None else dump(result)
        now = self._clock()
        finish = "" if result_text is None else ", status = 'finished', result = ?"
        finished = () if result_text is None else (result_text,)

        async def write(db: aiosqlite.Connection) -> tuple[int, str | None]:
            version = expected_version + 1
            # The compare-and-swap is this UPDATE, the first statement: its WHERE names the status
            # and version, so nothing is read first. On PostgreSQL it takes the row lock, and a
            # second commit at the same version waits, then finds no row to change.
            cur = await db.execute(
                f"UPDATE tables SET version = ?, updated_at = ?{finish}"
                " WHERE id = ? AND status = 'active' AND version = ?",
                (version, now, *finished, table_id, expected_version),
            )
            advanced = cur.rowcount == 1
            await cur.close()
            if not advanced:
                raise await self._refused(db, table_id, expected_version)
            await db.execute(
                "INSERT INTO moves (table_id, version, seat, move, events, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (table_id, version, seat, move_text, events_text, now),
            )
            await db.execute(
                "UPDATE snapshots SET version = ?, state = ? WHERE table_id = ?",
                (version, state_text, table_id),
            )
            if memories:
                await self._write_memories(db, table_id, memories)
            head = None
            if self._chained:
                head = await self._chain_move(db, table_id, version, seat, move_text, events_text, state_text)
            if self._mid_commit_hook is not None:
                await self._mid_commit_hook()
            if result_text is None:
                await self._replace_waiting(db, table_id, waiting, now)
            else:
                await db.execute("DELETE FROM waiting WHERE table_id = ?", (table_id,))
            over = result_text is not None
            await self._implied(db, table_id, expected_version, version, timing, now, over=over)
            return version, head

        version, head = await self._in_one_trip(write, synced_by=self._wal if sync_later else None)
        if head is not None:
            self._chained_to(table_id, version, head)
        return version

    async def _refused(self, db: aiosqlite.Connection, table_id: int, expected: int) -> StaleVersion:
        """Return why a commit at ``expected`` changed no table row (read only after that refusal)."""
        table = await self._table_row(db, table_id)
        if table["status"] != "active":
            return StaleVersion(f"Table {table_id} is not active ({table['status']}).")
        return StaleVersion(f"Table {table_id} is at version {table['version']}, not {expected}.")

    async def _replace_waiting(
        self, db: aiosqlite.Connection, table_id: int, waiting: list[int], now: float
    ) -> None:
        """Make ``waiting`` the users the table waits on, keeping ``since`` for those still waited on.

        Two statements whatever changed, without reading the rows first: those no longer waited on
        go, the others are inserted unless they wait already (their ``since`` stays).
        """
        wanted = sorted(set(waiting))
        marks = ", ".join("?" for _ in wanted)
        keep = f" AND user_id NOT IN ({marks})" if wanted else ""
        await db.execute(f"DELETE FROM waiting WHERE table_id = ?{keep}", (table_id, *wanted))
        if not wanted:
            return
        try:
            await db.execute(
                "INSERT INTO waiting (table_id, user_id, since) VALUES "
                + ", ".join("(?, ?, ?)" for _ in wanted)
                + " ON CONFLICT (table_id, user_id) DO NOTHING",
                [value for user_id in wanted for value in (table_id, user_id, now)],
            )
        except sqlite3.IntegrityError:
            # ON CONFLICT covers the primary key only: a user not seated still breaks the foreign key.
            raise StoreError(f"A user of {wanted} is not seated at table {table_id}.") from None

    async def load(self, table_id: int) -> tuple[TableRecord, dict]:
        """Return the table and its latest snapshot, verified against the move log and checksums.

        Raises ``DamagedSnapshot`` when only the snapshot is damaged or missing (the log can
        rebuild it), ``CorruptTable`` for any other damage (the table row's options included).
        """
        async with self._reading() as db:
            row = await self._one(db, "SELECT * FROM tables WHERE id = ?", (table_id,))
            if row is None:
                raise StoreError(f"There is no table {table_id}.")
            table = TableRecord.from_row(row)
            snap = await self._one(db, "SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,))
            log = await self._one(
                db,
                "SELECT COUNT(*) AS n, COALESCE(MAX(version), 0) AS hi FROM moves WHERE table_id = ?",
                (table_id,),
            )
            if snap is not None and table.seed is not None and self._chained:
                await self._verify(db, row, snap["version"], snap["state"])
            elif snap is None and table.seed is not None and self._chained:
                # A lost snapshot over a sound log is rebuilt from it, as a damaged one is.
                await self._verified_head(db, row, table.version)
                raise DamagedSnapshot(f"Table {table_id}: the snapshot is missing; the log is sound.")
        if snap is None:
            if table.seed is None:  # never started: a lobby, or abandoned from the lobby
                raise StoreError(f"Table {table_id} has not started.")
            raise CorruptTable(f"Table {table_id} is {table.status} but has no snapshot.")
        # Versions are unique and >= 1, so count == max == v means the log is exactly 1..v.
        count, high = log["n"], log["hi"]
        if not snap["version"] == table.version == count == high:
            raise CorruptTable(
                f"Table {table_id}: snapshot at version {snap['version']}, table at {table.version},"
                f" move log holds {count} moves up to version {high}."
            )
        try:
            state = _loads_state(snap["state"])
        except ValueError as exc:
            raise DamagedSnapshot(f"Table {table_id}: the snapshot is not valid JSON ({exc}).") from None
        return table, state

    # ------------------------------------------------------------------ damage

    @changes_table
    async def close_damaged(self, table_id: int, reason: str) -> None:
        """Close an active table whose saved game is damaged, keeping every row for the operator."""
        async with self._transaction() as db:
            await self._table_row(db, table_id)
            await db.execute(
                "UPDATE tables SET status = 'abandoned', updated_at = ? WHERE id = ? AND status = 'active'",
                (self._clock(), table_id),
            )
            await db.execute("DELETE FROM waiting WHERE table_id = ?", (table_id,))
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (f"damaged:{table_id}", reason),
            )

    async def started_table_ids(self) -> list[int]:
        """Return the id of every table whose game has started, damaged rows included (for the check)."""
        async with self._single() as db:
            rows = await self._all(db, "SELECT id FROM tables WHERE seed IS NOT NULL ORDER BY id")
        return [row["id"] for row in rows]

    @classmethod
    async def _has_chain(cls, db: aiosqlite.Connection) -> bool:
        """Whether the schema has the move log's chain (a file at an older version may not)."""
        return await cls._one(db, "SELECT 1 FROM sqlite_master WHERE name = 'chain'") is not None

    async def count_tables(self, status: str) -> int:
        """Return how many tables have this status (for the operator's metrics)."""
        async with self._single() as db:
            row = await self._one(db, "SELECT COUNT(*) AS n FROM tables WHERE status = ?", (status,))
        return 0 if row is None else int(row["n"])

    async def moves(self, table_id: int, since_version: int = 0) -> list[MoveRecord]:
        """Return the moves after ``since_version``, oldest first."""
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT * FROM moves WHERE table_id = ? AND version > ? ORDER BY version",
                (table_id, since_version),
            )
        return [MoveRecord.from_row(row) for row in rows]

    # ------------------------------------------------------------------ waiting and votes

    async def waiting_on(
        self, user_id: int, guild_id: int | None = None
    ) -> list[tuple[TableRecord, float]]:
        """Return the active tables waiting on that user (in one server, if given), oldest wait first."""
        where = "" if guild_id is None else " AND tables.guild_id = ?"
        params = (user_id,) if guild_id is None else (user_id, guild_id)
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT tables.*, waiting.since AS waiting_since FROM waiting"
                " JOIN tables ON tables.id = waiting.table_id"
                " JOIN seats ON seats.table_id = waiting.table_id AND seats.user_id = waiting.user_id"
                " WHERE waiting.user_id = ? AND tables.status = 'active' AND seats.bot IS NULL"
                f"{where} ORDER BY waiting.since, tables.id",
                params,
            )
        # A table whose row is damaged is set aside: the user's other tables still show, and a
        # damaged start of the wait reads as the table's last change.
        found = []
        for row in sound(rows, table_fault, TABLE):
            since = row["waiting_since"]
            found.append((TableRecord.from_row(row), since if is_time(since) else row["updated_at"]))
        return found

    async def tables_waiting_on_bots(self) -> list[int]:
        """Return the ids of the active tables that wait on a seat a bot plays, oldest first."""
        async with self._reading() as db:
            rows = await self._all(
                db,
                "SELECT DISTINCT tables.id FROM waiting"
                " JOIN tables ON tables.id = waiting.table_id"
                " JOIN seats ON seats.table_id = waiting.table_id AND seats.user_id = waiting.user_id"
                " WHERE tables.status = 'active' AND seats.bot IS NOT NULL ORDER BY tables.id",
            )
        return [row["id"] for row in rows]

    async def abandon_voters(self, table_id: int) -> set[int]:
        """Return the players who voted to abandon a table so far."""
        async with self._single() as db:
            rows = await self._all(db, "SELECT user_id FROM abandon_votes WHERE table_id = ?", (table_id,))
        return {row["user_id"] for row in rows}

    async def add_abandon_vote(self, table_id: int, user_id: int) -> set[int]:
        """Record a seated player's vote to abandon; return every voter so far."""
        async with self._transaction() as db:
            await self._table_row(db, table_id)
            try:
                await db.execute(
                    "INSERT INTO abandon_votes (table_id, user_id, voted_at) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (table_id, user_id, self._clock()),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"User {user_id} is not seated at table {table_id}.") from None
            rows = await self._all(db, "SELECT user_id FROM abandon_votes WHERE table_id = ?", (table_id,))
        return {row["user_id"] for row in rows}

    # ------------------------------------------------------------------ meta

    async def get_meta(self, key: str) -> str | None:
        """Return a stored setting, or None."""
        async with self._single() as db:
            row = await self._one(db, "SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row["value"]

    async def meta_once(self, key: str, value: str) -> str:
        """Store a setting unless one is stored; return the stored one (of racing processes, the first)."""
        async with self._transaction() as db:
            await db.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                             (key, value))
            row = await self._one(db, "SELECT value FROM meta WHERE key = ?", (key,))
        assert row is not None
        return str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        """Store a setting (e.g. the hash of the synced command tree)."""
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )


def _settle(future: asyncio.Future[Any], result: Any) -> None:
    """Give a commit's result (or its error) to its waiter, on the event loop, unless it gave up."""
    if future.done():
        return
    if isinstance(result, BaseException):
        future.set_exception(result)
    else:
        future.set_result(result)


async def _switch_to_wal(db: aiosqlite.Connection) -> str:
    """Switch a connection's file to WAL and return the journal mode it reports.

    Two processes opening one fresh file at once can find it locked while the other converts it:
    SQLite answers that switch at once instead of waiting out ``busy_timeout``, so wait here.
    """
    waited = 0.0
    while True:
        try:
            async with db.execute("PRAGMA journal_mode = WAL") as cur:
                return (await cur.fetchone())[0]
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or waited * 1000 >= BUSY_TIMEOUT_MS:
                raise
        await asyncio.sleep(0.05)
        waited += 0.05


def _loads_state(text: str) -> dict:
    """Read a snapshot's JSON text, insisting on an object."""
    state = json.loads(text)
    if not isinstance(state, dict):
        raise ValueError("not a JSON object")
    return state
