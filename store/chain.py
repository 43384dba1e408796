"""The store's part for the move log's integrity: a hash chain over the log, a seal on the snapshot.

Version 0 of ``chain`` is the genesis over the table's id, kind, options, seed and seat order;
each move links its seat, move and events to the previous link; ``snapshot_sums`` holds each
snapshot's checksum over the chain's head, its version and its text. ``commit_move`` chains each
move inside its transaction, ``load`` verifies (from where this Store last verified) and
``repair_snapshot`` writes back a snapshot rebuilt from a sound log. A mixin of
``store.Store``; no other module holds this SQL.
"""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from store.changes import changes_table
from store.records import CorruptTable, DamagedSnapshot, StaleVersion, dump

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from aiosqlite import Connection

SEAT_ORDER = "SELECT seat, user_id FROM seats WHERE table_id = ? AND seat IS NOT NULL ORDER BY seat"


class ChainStore:
    """Methods of the store that chain, verify and seal the move log and the snapshot."""

    if TYPE_CHECKING:
        _sound: dict[int, tuple[int, str]]
        _chained: bool

        def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]: ...
        async def _table_row(self, db: Connection, table_id: int) -> sqlite3.Row: ...
        @classmethod
        async def _has_chain(cls, db: Connection) -> bool: ...
        @staticmethod
        async def _one(db: Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None: ...
        @staticmethod
        async def _all(db: Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...

    async def _chain_move(
        self,
        db: Connection,
        table_id: int,
        version: int,
        seat: int,
        move: str,
        events: str,
        state: str,
    ) -> str | None:
        """Add a move's link to the chain and seal the new snapshot (inside commit_move's transaction).

        Return the new link when it extends the chain this Store verified (the caller records it
        as verified once the transaction committed), else None.
        """
        done, verified = self._sound.get(table_id, (-1, ""))
        if done == version - 1:
            head = link(verified, version, seat, move, events)
            # One statement, not a read and a write: the link goes in only when the previous link
            # is still the one verified (another Store may have sealed the chain again since).
            cur = await db.execute(
                "INSERT INTO chain (table_id, version, link) SELECT ?, ?, ? WHERE EXISTS"
                " (SELECT 1 FROM chain WHERE table_id = ? AND version = ? AND link = ?)",
                (table_id, version, head, table_id, version - 1, verified),
            )
            added = cur.rowcount == 1
            await cur.close()
            if added:
                await self._write_sum(db, table_id, seal(head, version, state))
                return head
        previous = await self._link(db, table_id, version - 1)
        if previous is None:
            raise CorruptTable(f"Table {table_id} has no chain link at version {version - 1}.")
        head = link(previous, version, seat, move, events)
        await db.execute(
            "INSERT INTO chain (table_id, version, link) VALUES (?, ?, ?)", (table_id, version, head)
        )
        await self._write_sum(db, table_id, seal(head, version, state))
        return None

    def _chained_to(self, table_id: int, version: int, head: str) -> None:
        """Record a link this Store wrote over the chain it verified: sound up to ``version``.

        Called only after the link's transaction committed, so a rolled-back move is never
        taken as verified.
        """
        done, _ = self._sound.get(table_id, (-1, ""))
        if done == version - 1:
            self._sound[table_id] = (version, head)

    async def _verify(self, db: Connection, row: sqlite3.Row, version: int, state: str) -> None:
        """Check the chain up to ``version`` (from where this Store last verified it), then the snapshot."""
        table_id = row["id"]
        head = await self._verified_head(db, row, version)
        stored = await self._one(db, "SELECT checksum FROM snapshot_sums WHERE table_id = ?", (table_id,))
        if stored is None or stored["checksum"] != seal(head, version, state):
            raise DamagedSnapshot(f"Table {table_id}: the snapshot at version {version} fails its checksum.")

    async def _verified_head(self, db: Connection, row: sqlite3.Row, version: int) -> str:
        """Return the chain's link at ``version`` after recomputing every link not yet verified."""
        table_id = row["id"]
        done, head = self._sound.get(table_id, (-1, ""))
        if done > version or (done >= 0 and await self._link(db, table_id, done) != head):
            # Another Store sealed the chain again (a substitute changed the seats): start over.
            done, head = -1, ""
        if done < 0:
            seats = await self._all(db, SEAT_ORDER, (table_id,))
            head, done = genesis(row, [(s["seat"], s["user_id"]) for s in seats]), 0
            self._check_link(table_id, 0, head, await self._link(db, table_id, 0))
        moves = await self._all(
            db,
            "SELECT moves.version, seat, move, events, link FROM moves LEFT JOIN chain"
            " ON chain.table_id = moves.table_id AND chain.version = moves.version"
            " WHERE moves.table_id = ? AND moves.version > ? AND moves.version <= ? ORDER BY moves.version",
            (table_id, done, version),
        )
        for m in moves:
            if m["version"] != done + 1:
                raise CorruptTable(f"Table {table_id}: the move log skips from {done} to {m['version']}.")
            head = link(head, m["version"], m["seat"], m["move"], m["events"])
            self._check_link(table_id, m["version"], head, m["link"])
            done = m["version"]
        if done != version:
            raise CorruptTable(f"Table {table_id}: the move log ends at {done}, the snapshot at {version}.")
        self._sound[table_id] = (done, head)
        return head

    def _check_link(self, table_id: int, version: int, computed: str, stored: str | None) -> None:
        if stored != computed:
            self._sound.pop(table_id, None)
            what = "seed or seats" if version == 0 else f"move {version}"
            raise CorruptTable(f"Table {table_id}: the {what} fail the move log's chain.")

    @classmethod
    async def _link(cls, db: Connection, table_id: int, version: int) -> str | None:
        row = await cls._one(
            db, "SELECT link FROM chain WHERE table_id = ? AND version = ?", (table_id, version)
        )
        return None if row is None else row["link"]

    @staticmethod
    async def _write_sum(db: Connection, table_id: int, checksum: str) -> None:
        await db.execute(
            "INSERT INTO snapshot_sums (table_id, checksum) VALUES (?, ?)"
            " ON CONFLICT (table_id) DO UPDATE SET checksum = excluded.checksum",
            (table_id, checksum),
        )

    @changes_table
    async def repair_snapshot(self, table_id: int, version: int, state: dict) -> None:
        """Write a snapshot rebuilt from the move log, after checking the log is still sound."""
        text = dump(state)
        async with self._transaction() as db:
            row = await self._table_row(db, table_id)
            if row["version"] != version:
                raise StaleVersion(f"Table {table_id} is at version {row['version']}, not {version}.")
            head = await self._verified_head(db, row, version)
            await db.execute(
                "INSERT INTO snapshots (table_id, version, state) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id) DO UPDATE SET version = excluded.version, state = excluded.state",
                (table_id, version, text),
            )
            await self._write_sum(db, table_id, seal(head, version, text))

    async def _seal_unsealed(self) -> None:
        """Seal the tables started before the chain existed, trusting them as they are."""
        async with self._transaction() as db:
            if not await self._has_chain(db):
                self._chained = False
                return
            rows = await self._all(
                db,
                "SELECT tables.* FROM tables JOIN snapshots ON snapshots.table_id = tables.id"
                " WHERE seed IS NOT NULL AND NOT EXISTS"
                " (SELECT 1 FROM chain WHERE chain.table_id = tables.id AND chain.version = 0)",
            )
            for row in rows:
                await self._seal(db, row)

    async def _seal(self, db: Connection, row: sqlite3.Row) -> None:
        table_id = row["id"]
        seats = await self._all(db, SEAT_ORDER, (table_id,))
        head = genesis(row, [(s["seat"], s["user_id"]) for s in seats])
        await db.execute("INSERT INTO chain (table_id, version, link) VALUES (?, 0, ?)", (table_id, head))
        moves = await self._all(
            db,
            "SELECT version, seat, move, events FROM moves WHERE table_id = ? ORDER BY version",
            (table_id,),
        )
        for m in moves:
            head = link(head, m["version"], m["seat"], m["move"], m["events"])
            await db.execute(
                "INSERT INTO chain (table_id, version, link) VALUES (?, ?, ?)", (table_id, m["version"], head)
            )
        snap = await self._one(db, "SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,))
        await self._write_sum(db, table_id, seal(head, snap["version"], snap["state"]))


def _digest(*parts: Any) -> str:
    """Hash the parts, each length-prefixed (unambiguous, and no copy of a long snapshot's text)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else repr(part).encode()
        digest.update(len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


def genesis(row: sqlite3.Row, seats: list[tuple[int, int]]) -> str:
    """Return the chain's first link: the table's id, kind, options, seed and (seat, user) pairs."""
    return _digest("genesis", row["id"], row["kind"], row["options"], row["seed"], seats)


def link(previous: str, version: int, seat: int, move: str, events: str) -> str:
    """Return a move's link: the previous link with the move's version, seat, text and events."""
    return _digest(previous, version, seat, move, events)


def seal(head: str, version: int, state: str) -> str:
    """Return a snapshot's checksum: the chain's head with the snapshot's version and text."""
    return _digest("snapshot", head, version, state)
