"""The store's part for seats: who sits at a table, a seat handed to a bot, whether DMs reach a
seat, and the small per-seat settings (``seat_prefs``). A mixin of ``store.Store``; no other
module holds this SQL.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from store.changes import changes_table
from store.records import SeatRecord, StoreError
from store.rows import seat_pref_fault

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from aiosqlite import Connection


class SeatStore:
    """Methods of the store for a table's seats and their settings."""

    if TYPE_CHECKING:
        _clock: Callable[[], float]

        def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]: ...
        def _single(self) -> AbstractAsyncContextManager[Connection]: ...
        async def _table_row(self, db: Connection, table_id: int) -> sqlite3.Row: ...
        @staticmethod
        async def _forget_memory(db: Connection, table_id: int, seat: int) -> None: ...
        @staticmethod
        async def _one(db: Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None: ...
        @staticmethod
        async def _all(db: Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...

    @changes_table
    async def add_seat(
        self, table_id: int, user_id: int, name: str, dm_ok: bool | None, bot: str | None = None
    ) -> None:
        """Seat a user (or, with ``bot``, a bot) at a table in the lobby; StoreError if taken or started."""
        async with self._transaction() as db:
            table = await self._table_row(db, table_id)
            if table["status"] != "lobby":
                raise StoreError(f"Table {table_id} is not in the lobby.")
            values = (table_id, user_id, name, self._clock(), None if dm_ok is None else int(dm_ok))
            try:
                if bot is None:
                    await db.execute(
                        "INSERT INTO seats (table_id, user_id, name, seat, joined_at, dm_ok)"
                        " VALUES (?, ?, ?, NULL, ?, ?)",
                        values,
                    )
                else:
                    await db.execute(
                        "INSERT INTO seats (table_id, user_id, name, seat, joined_at, dm_ok, bot)"
                        " VALUES (?, ?, ?, NULL, ?, ?, ?)",
                        (*values, bot),
                    )
            except sqlite3.IntegrityError:
                raise StoreError(f"User {user_id} is already seated at table {table_id}.") from None

    @changes_table
    async def remove_seat(self, table_id: int, user_id: int) -> None:
        """Unseat a user from a table in the lobby; StoreError if not seated or not in the lobby."""
        async with self._transaction() as db:
            table = await self._table_row(db, table_id)
            if table["status"] != "lobby":
                raise StoreError(f"Table {table_id} is not in the lobby.")
            cur = await db.execute(
                "DELETE FROM seats WHERE table_id = ? AND user_id = ?", (table_id, user_id)
            )
            gone = cur.rowcount
            await cur.close()
            if gone != 1:
                raise StoreError(f"User {user_id} is not seated at table {table_id}.")

    async def seats(self, table_id: int) -> list[SeatRecord]:
        """Return the table's seats: by seat number once started, else in join order."""
        async with self._single() as db:
            rows = await self._all(
                db,
                "SELECT * FROM seats WHERE table_id = ? ORDER BY seat IS NULL, seat, joined_at, rowid",
                (table_id,),
            )
        return [SeatRecord.from_row(row) for row in rows]

    @changes_table
    async def set_seat_bot(self, table_id: int, seat: int, bot: str | None) -> None:
        """Hand a started table's seat to a bot of that level, or (None) back to its person."""
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE seats SET bot = ? WHERE table_id = ? AND seat = ?", (bot, table_id, seat)
            )
            changed = cur.rowcount
            await cur.close()
            if changed != 1:
                raise StoreError(f"Table {table_id} has no seat {seat}.")
            await self._forget_memory(db, table_id, seat)  # whoever plays it now, a bot starts afresh

    @changes_table
    async def set_dm_ok(self, table_id: int, user_id: int, ok: bool) -> None:
        """Record whether a DM to that seated user last got through."""
        async with self._transaction() as db:
            cur = await db.execute(
                "UPDATE seats SET dm_ok = ? WHERE table_id = ? AND user_id = ?",
                (int(ok), table_id, user_id),
            )
            changed = cur.rowcount
            await cur.close()
            if changed != 1:
                raise StoreError(f"User {user_id} is not seated at table {table_id}.")

    # ------------------------------------------------------------------ seat preferences

    async def seat_pref(self, table_id: int, user_id: int, key: str) -> str | None:
        """Return one seated user's preference at a table, or None when unset."""
        async with self._single() as db:
            row = await self._one(
                db,
                "SELECT value FROM seat_prefs WHERE table_id = ? AND user_id = ? AND key = ?",
                (table_id, user_id, key),
            )
        if row is None or seat_pref_fault(row) is not None:
            return None  # a damaged value reads as unset (store check lists it)
        return row["value"]

    async def seat_prefs(self, table_id: int, key: str) -> dict[int, str]:
        """Return every seated user's value of one preference at a table (unset users are absent)."""
        async with self._single() as db:
            rows = await self._all(
                db, "SELECT user_id, value FROM seat_prefs WHERE table_id = ? AND key = ?", (table_id, key)
            )
        return {row["user_id"]: row["value"] for row in rows if seat_pref_fault(row) is None}

    @changes_table
    async def set_seat_pref(self, table_id: int, user_id: int, key: str, value: str | None) -> None:
        """Set (or, with None, clear) a seated user's preference; StoreError if not seated there."""
        async with self._transaction() as db:
            if value is None:
                await db.execute(
                    "DELETE FROM seat_prefs WHERE table_id = ? AND user_id = ? AND key = ?",
                    (table_id, user_id, key),
                )
                return
            try:
                await db.execute(
                    "INSERT INTO seat_prefs (table_id, user_id, key, value) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (table_id, user_id, key) DO UPDATE SET value = excluded.value",
                    (table_id, user_id, key, value),
                )
            except sqlite3.IntegrityError:
                raise StoreError(f"User {user_id} is not seated at table {table_id}.") from None
