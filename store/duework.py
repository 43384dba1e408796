"""The store's due work: what falls due when (reminders, deadlines, deliveries, votes), leased
by one process at a time, and the notices already sent. A mixin of ``store.Store`` (through
``AsyncPlayStore``), so the same methods and SQL serve the PostgreSQL store too (``store.pg``;
``lease_due`` then skips rows another process holds: ``SKIP LOCKED``).

Times are plain numbers (seconds since the epoch) handed in by the caller, never read here.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Coroutine, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from store.records import StoreError, dump

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from aiosqlite import Connection

    from store.dialect import Dialect


@dataclass(frozen=True)
class DueWork:
    """One row of due work: what to do (``kind``), when, for which table and seat."""

    id: int
    due_at: float
    kind: str
    key: str
    table_id: int
    user_id: int | None
    payload: dict[str, Any]
    attempts: int = 0
    damaged: str | None = None
    """Why the row cannot be run (its payload does not read), or None: the scheduler sets it aside."""

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> DueWork:
        """Build a record from a row of ``due_work``; a payload that does not read marks it damaged."""
        damaged = None
        try:
            payload = json.loads(row["payload"])
            if not isinstance(payload, dict):
                raise ValueError("not an object")
        except (TypeError, ValueError):
            payload, damaged = {}, "its payload is not a JSON object"
        keys = row.keys()
        attempts = row["attempts"] if "attempts" in keys else 0
        return cls(
            row["id"], row["due_at"], row["kind"], row["key"], row["table_id"], row["user_id"],
            payload, attempts or 0, damaged,
        )


WorkItem = tuple[str, float, str, int, "int | None", "dict[str, Any] | None"]
"""Due work to add: (kind, due time, key, table id, user id, payload)."""
DELIVER = "deliver"
"""The kind of due work that delivers a move (board, DMs, pings) until it is marked delivered."""
WORK_CHUNK = 200
"""Rows of due work added by one INSERT (six values each: well under SQLite's variable limit)."""
DELIVERY_GRACE = 60.0
"""Seconds the mover's own delivery has before the scheduler delivers the move itself."""


class DueWorkStore:
    """Methods of the store for due work: the scheduler's rows, their leases, and sent notices."""

    if TYPE_CHECKING:

        def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]: ...
        def _single(self) -> AbstractAsyncContextManager[Connection]: ...
        _dialect: Dialect
        def _reading(self) -> AbstractAsyncContextManager[Connection]: ...
        async def _in_one_trip(
            self, body: Callable[[Connection], Coroutine[Any, Any, int]], *, durable: bool = True,
            synced_by: Any = None,
        ) -> int: ...
        @staticmethod
        async def _one(db: Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None: ...
        @staticmethod
        async def _all(db: Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...

    async def _changed(self, sql: str, params: Iterable[Any] = (), *, durable: bool = True) -> int:
        """Run one writing statement in its own transaction; return how many rows it changed."""

        async def write(db: Connection) -> int:
            cur = await db.execute(sql, tuple(params))
            count: int = cur.rowcount
            await cur.close()
            return count

        return await self._in_one_trip(write, durable=durable)

    # ------------------------------------------------------------------ due work

    _shards: tuple[list[int], int] | None = None

    def own_shards(self, shard_ids: Iterable[int], shard_count: int) -> None:
        """Run only the due work of tables whose server these Discord shards serve (several processes).

        A process on shards 0-3 of 8 leases, releases and expedites only its servers' work, so
        the process that talks to Discord for a server is the one that runs its reminders,
        deadlines, votes, bot turns and deliveries (one table's posts stay in one process's order).
        """
        ids = sorted(set(shard_ids))
        if shard_count < 1 or not ids or ids[0] < 0 or ids[-1] >= shard_count:
            raise StoreError(f"Shards {ids} are not among the {shard_count} shards.")
        self._shards = (ids, shard_count)

    def _owned(self, shards: tuple[Iterable[int], int] | None = None) -> tuple[str, list[Any]]:
        """Return the SQL condition (and its parameters) for due work of the owned shards' servers.

        Discord's rule: a server is on shard ``(guild_id >> 22) % count``; a table without a
        server (none today) is shard 0's.
        """
        shards = self._shards if shards is None else shards
        if shards is None:
            return "", []
        ids, count = list(shards[0]), shards[1]
        sql = (
            " AND due_work.table_id IN (SELECT id FROM tables WHERE"
            f" (COALESCE(guild_id, 0) / 4194304) % ? IN ({', '.join('?' for _ in ids)}))"
        )
        return sql, [count, *ids]

    async def schedule(
        self,
        kind: str,
        due_at: float,
        key: str,
        table_id: int,
        user_id: int | None = None,
        payload: dict[str, Any] | None = None,
    ) -> bool:
        """Add due work unless work with the same key exists already; return whether added."""
        changed = await self._changed(
            "INSERT INTO due_work (due_at, kind, key, table_id, user_id, payload)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
            (due_at, kind, key, table_id, user_id, dump(payload or {})),
        )
        return changed == 1

    async def schedule_many(
        self, items: list[tuple[str, float, str, int, int | None, dict[str, Any] | None]]
    ) -> int:
        """Add several pieces of due work (kind, due, key, table, user, payload) in one transaction.

        Work whose key exists already is left alone; returns how many were added.
        """
        async with self._transaction() as db:
            return await self._add_work(db, items)

    @staticmethod
    async def _add_work(db: Connection, items: Iterable[WorkItem]) -> int:
        """Add due work inside an open transaction (a key already stored is left alone)."""
        rows = [(due, kind, key, table_id, user_id, dump(payload or {}))
                for kind, due, key, table_id, user_id, payload in items]
        added = 0
        # One statement per chunk, not per row: on PostgreSQL each statement is a round trip.
        for start in range(0, len(rows), WORK_CHUNK):
            chunk = rows[start:start + WORK_CHUNK]
            cur = await db.execute(
                "INSERT INTO due_work (due_at, kind, key, table_id, user_id, payload) VALUES "
                + ", ".join("(?, ?, ?, ?, ?, ?)" for _ in chunk) + " ON CONFLICT DO NOTHING",
                [value for row in chunk for value in row],
            )
            added += cur.rowcount
            await cur.close()
        return added

    async def next_due(self) -> float | None:
        """Return when the earliest open work can run (its due time, or its lease's end), or None."""
        owned, params = self._owned()
        async with self._single() as db:
            row = await self._one(
                db,
                f"SELECT MIN({self._dialect.greatest}(due_at, COALESCE(claimed_until, 0))) AS t FROM due_work"
                f" WHERE claimed_at IS NULL AND failed IS NULL{owned}",
                params,
            )
        return None if row is None else row["t"]

    async def due(self, now: float, limit: int = 100) -> list[DueWork]:
        """Return open work due by ``now`` that no live lease holds, earliest first.

        Work set aside (``failed``) never comes back; a row whose payload does not read comes
        back marked ``damaged`` (never raising), so one bad row cannot stop the others.
        """
        owned, params = self._owned()
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT * FROM due_work WHERE claimed_at IS NULL AND failed IS NULL AND due_at <= ?"
                f" AND (claimed_until IS NULL OR claimed_until <= ?){owned} ORDER BY due_at, id LIMIT ?",
                (now, now, *params, limit),
            )
        return [DueWork.from_row(r) for r in rows]

    async def lease_due(
        self, now: float, until: float, limit: int = 100, shards: tuple[Iterable[int], int] | None = None
    ) -> list[DueWork]:
        """Lease up to ``limit`` pieces of open work due by ``now`` in one statement; return them, due first.

        ``shards`` (shard ids, shard count; default: ``own_shards``): only work of those shards'
        servers. On PostgreSQL a row another process is leasing is skipped, not waited for
        (``SKIP LOCKED``); on SQLite the statement runs in an immediate transaction, which holds
        the file's one writer. Either way each row goes to one process.
        """
        owned, owned_params = self._owned(shards)
        params = [until, now, now, *owned_params]
        async with self._transaction() as db:
            rows = await self._all(
                db,
                "UPDATE due_work SET claimed_until = ? WHERE id IN (SELECT id FROM due_work"
                " WHERE claimed_at IS NULL AND failed IS NULL AND due_at <= ?"
                f" AND (claimed_until IS NULL OR claimed_until <= ?){owned}"
                f" ORDER BY due_at, id LIMIT ?{self._dialect.skip_locked}) RETURNING *",
                (*params, limit),
            )
        return sorted((DueWork.from_row(row) for row in rows), key=lambda work: (work.due_at, work.id))

    async def holds(self, work_id: int, until: float) -> bool:
        """Whether open work is still under the lease that ends at ``until`` (not done, moved or dropped)."""
        async with self._single() as db:
            row = await self._one(
                db,
                "SELECT 1 AS held FROM due_work WHERE id = ? AND claimed_at IS NULL AND failed IS NULL"
                " AND claimed_until = ?",
                (work_id, until),
            )
        return row is not None

    async def unlease(self, work_ids: Iterable[int], until: float) -> int:
        """Give back leased work not run yet (the lease ending at ``until``); return how many."""
        ids = list(work_ids)
        if not ids:
            return 0
        return await self._changed(
            f"UPDATE due_work SET claimed_until = NULL WHERE id IN ({', '.join('?' for _ in ids)})"
            " AND claimed_at IS NULL AND claimed_until = ?",
            (*ids, until),
        )

    async def finish(self, work_id: int, now: float, lease: float) -> bool:
        """Mark leased work done, unless it was moved (postponed, retried) or done meanwhile."""
        changed = await self._changed(
            "UPDATE due_work SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL"
            " AND claimed_until = ?",
            (now, work_id, lease),
        )
        return changed == 1

    async def retry(self, work_id: int, due_at: float) -> None:
        """Give leased work back to run again at ``due_at`` (its handler failed), counting the attempt."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE due_work SET due_at = ?, claimed_until = NULL, attempts = attempts + 1"
                " WHERE id = ? AND claimed_at IS NULL",
                (due_at, work_id),
            )

    async def set_aside(self, work_id: int, reason: str) -> None:
        """Set work aside for good (a payload that does not read, a handler that keeps failing)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE due_work SET failed = ?, claimed_until = NULL WHERE id = ? AND claimed_at IS NULL",
                (reason[:200], work_id),
            )

    async def set_aside_work(self) -> list[tuple[int, str, int, str]]:
        """Return the work set aside: (id, kind, table id, reason), for ``store check``."""
        async with self._single() as db:
            rows = await self._all(
                db, "SELECT id, kind, table_id, failed FROM due_work WHERE failed IS NOT NULL ORDER BY id"
            )
        return [(r["id"], r["kind"], r["table_id"], r["failed"]) for r in rows]

    async def release_leases(self) -> int:
        """Drop every lease (a process starting: nothing of a dead runner is in flight); return how many.

        With ``own_shards``, only the leases of this process's shards: one process owns a shard
        range, so a process starting on it inherits only what its dead predecessor held.
        """
        owned, params = self._owned()
        changed = await self._changed(
            "UPDATE due_work SET claimed_until = NULL"
            f" WHERE claimed_at IS NULL AND claimed_until IS NOT NULL{owned}",
            params,
        )
        return changed

    async def expedite(self, kind: str, now: float) -> int:
        """Make open work of one kind due now (deliveries left by a process that stopped)."""
        owned, params = self._owned()
        changed = await self._changed(
            "UPDATE due_work SET due_at = ? WHERE kind = ? AND claimed_at IS NULL AND failed IS NULL"
            f" AND due_at > ?{owned}",
            (now, kind, now, *params),
        )
        return changed

    async def delivered(self, table_id: int, version: int, now: float) -> int:
        """Mark a table's deliveries up to ``version`` done (its board and DMs went out)."""
        # Without an fsync of its own: a power cut may forget the mark, and the board is then
        # posted once more; the move itself was committed at FULL (docs/service.md, "Delivery").
        changed = await self._changed(
            "UPDATE due_work SET claimed_at = ? WHERE table_id = ? AND kind = ? AND claimed_at IS NULL"
            f" AND {self._dialect.json_int('payload', 'version')} <= ?",
            (now, table_id, DELIVER, version),
            durable=False,
        )
        return changed

    async def undelivered(self, table_id: int) -> tuple[int, int] | None:
        """Return (oldest, newest) version of a table's open deliveries, or None when all went out."""
        async with self._single() as db:
            row = await self._one(
                db,
                f"SELECT MIN({self._dialect.json_int('payload', 'since')}) AS since,"
                f" MAX({self._dialect.json_int('payload', 'version')}) AS version"
                " FROM due_work WHERE table_id = ? AND kind = ? AND claimed_at IS NULL AND failed IS NULL",
                (table_id, DELIVER),
            )
        if row is None or row["version"] is None:
            return None
        return row["since"], row["version"]

    async def claim(self, work_id: int, now: float, notice: tuple[str, str] | None = None) -> bool:
        """Mark due work done; with ``notice`` (key, kind) record the send in the same transaction.

        Called after the work's effect (a lease kept anyone else off it meanwhile). Returns
        False when it was done already. A recorded notice also sets the seat's
        ``last_reminder``, so the spacing between reminders survives a restart.
        """
        async with self._transaction() as db:
            # One statement marks and reads the row: two processes claiming at once see one winner
            # (PostgreSQL re-checks ``claimed_at`` after waiting for the other's row lock).
            row = await self._one(
                db,
                "UPDATE due_work SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL"
                " RETURNING table_id, user_id",
                (now, work_id),
            )
            if row is None:
                return False
            if notice is not None:
                key, kind = notice
                try:
                    await db.execute(
                        "INSERT INTO notices (key, table_id, user_id, kind, sent_at) VALUES (?, ?, ?, ?, ?)",
                        (key, row["table_id"], row["user_id"], kind, now),
                    )
                except sqlite3.IntegrityError:
                    raise StoreError(f"Notice {key} was sent already.") from None
                await db.execute(
                    "UPDATE seat_clocks SET last_reminder = ? WHERE table_id = ? AND user_id = ?",
                    (now, row["table_id"], row["user_id"]),
                )
        return True

    async def postpone(self, work_id: int, due_at: float) -> None:
        """Move unclaimed work to a later time (quiet hours, reminder spacing)."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE due_work SET due_at = ?, claimed_until = NULL WHERE id = ? AND claimed_at IS NULL",
                (due_at, work_id),
            )

    async def cancel_work(self, table_id: int, user_id: int | None = None, kinds: Iterable[str] = ()) -> None:
        """Drop open work of a table (or of one seat), optionally only of some kinds.

        Deliveries stay unless named: a move made is still owed to its thread.
        """
        sql = "DELETE FROM due_work WHERE table_id = ? AND claimed_at IS NULL"
        params: list[Any] = [table_id]
        if not kinds:
            sql += " AND kind != ?"
            params.append(DELIVER)
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        kinds = list(kinds)
        if kinds:
            sql += f" AND kind IN ({', '.join('?' for _ in kinds)})"
            params.extend(kinds)
        async with self._transaction() as db:
            await db.execute(sql, params)

    async def declare_out(
        self, table_id: int, user_id: int, now: float, topic: str, expire: WorkItem, notice_key: str
    ) -> None:
        """Mark a seat out of time in one transaction: its clock, a new vote, its expiry, the notice."""
        async with self._transaction() as db:
            await db.execute(
                "UPDATE seat_clocks SET out_since = ? WHERE table_id = ? AND user_id = ?",
                (now, table_id, user_id),
            )
            await db.execute("DELETE FROM votes WHERE table_id = ? AND topic = ?", (table_id, topic))
            await self._add_work(db, [expire])
            await db.execute(
                "INSERT INTO notices (key, table_id, user_id, kind, sent_at)"
                " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (notice_key, table_id, user_id, "out_of_time", now),
            )

    async def notices(self, table_id: int, user_id: int | None = None) -> list[tuple[str, str, float]]:
        """Return the notices sent for a table (key, kind, sent_at), oldest first."""
        sql = "SELECT key, kind, sent_at FROM notices WHERE table_id = ?"
        params: list[Any] = [table_id]
        if user_id is not None:
            sql += " AND user_id = ?"
            params.append(user_id)
        async with self._single() as db:
            rows = await self._all(db, sql + " ORDER BY sent_at, key", params)
        return [(r["key"], r["kind"], r["sent_at"]) for r in rows]
