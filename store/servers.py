"""The store's part for Discord servers: settings, removal (pause), a server's tables, a user's data.

A table belongs to one server (``tables.guild_id``). A server's row in ``servers`` holds its
moderators' settings (JSON) and, while the bot is not in it, when it was removed. A mixin of
``store.Store``; no other module holds the ``servers`` table's SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from store.changes import changes_all, changes_table
from store.records import StoreError, TableRecord, dump

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from aiosqlite import Connection

    from store.dialect import Dialect

FORMER_PLAYER = "a former player"
"""The name a seat of a finished game takes when its player asks to be forgotten."""


class ServerStore:
    """Methods of the store for servers and for what it keeps about one user."""

    if TYPE_CHECKING:

        def _transaction(self, mode: str = "IMMEDIATE") -> AbstractAsyncContextManager[Connection]: ...
        def _single(self) -> AbstractAsyncContextManager[Connection]: ...
        _dialect: Dialect
        @staticmethod
        async def _one(db: Connection, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None: ...
        @staticmethod
        async def _all(db: Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...
        _sound: dict[int, tuple[int, str]]
        async def _table_row(self, db: Connection, table_id: int) -> sqlite3.Row: ...
        async def _verify(self, db: Connection, row: sqlite3.Row, version: int, state: str) -> None: ...
        async def _seal(self, db: Connection, row: sqlite3.Row) -> None: ...

    # ------------------------------------------------------------------ settings

    async def server_settings(self, guild_id: int) -> dict[str, str]:
        """Return a server's settings (empty when its moderators never set any)."""
        async with self._single() as db:
            row = await self._one(db, "SELECT settings FROM servers WHERE guild_id = ?", (guild_id,))
        return {} if row is None else dict(json.loads(row["settings"]))

    async def set_server_setting(self, guild_id: int, key: str, value: str | None) -> dict[str, str]:
        """Set (or with None, clear) one of a server's settings; return them all."""
        async with self._transaction() as db:
            row = await self._one(db, "SELECT settings FROM servers WHERE guild_id = ?", (guild_id,))
            settings = {} if row is None else dict(json.loads(row["settings"]))
            if value is None:
                settings.pop(key, None)
            else:
                settings[key] = value
            await db.execute(
                "INSERT INTO servers (guild_id, settings) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings",
                (guild_id, dump(settings)),
            )
        return settings

    # ------------------------------------------------------------------ removal

    async def server_left_at(self, guild_id: int | None) -> float | None:
        """Return when the bot was removed from a server it is not back in (None: it is there)."""
        if guild_id is None:
            return None
        async with self._single() as db:
            row = await self._one(db, "SELECT left_at FROM servers WHERE guild_id = ?", (guild_id,))
        return None if row is None else row["left_at"]

    @changes_all
    async def mark_server_left(self, guild_id: int, now: float) -> bool:
        """Record that the bot was removed from a server; False when it was marked already."""
        async with self._transaction() as db:
            row = await self._one(db, "SELECT left_at FROM servers WHERE guild_id = ?", (guild_id,))
            if row is not None and row["left_at"] is not None:
                return False
            await db.execute(
                "INSERT INTO servers (guild_id, left_at) VALUES (?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET left_at = excluded.left_at",
                (guild_id, now),
            )
        return True

    @changes_all
    async def mark_server_back(self, guild_id: int) -> float | None:
        """Record that the bot is in a server again; return when it had left (None: it had not)."""
        async with self._transaction() as db:
            row = await self._one(db, "SELECT left_at FROM servers WHERE guild_id = ?", (guild_id,))
            if row is None or row["left_at"] is None:
                return None
            await db.execute("UPDATE servers SET left_at = NULL WHERE guild_id = ?", (guild_id,))
        return float(row["left_at"])

    # ------------------------------------------------------------------ a server's tables

    async def server_tables(self, guild_id: int, statuses: Iterable[str]) -> list[TableRecord]:
        """Return a server's tables with one of these statuses, newest first."""
        wanted = list(statuses)
        async with self._single() as db:
            rows = await self._all(
                db,
                f"SELECT * FROM tables WHERE guild_id = ? AND status IN ({', '.join('?' for _ in wanted)})"
                " ORDER BY id DESC",
                [guild_id, *wanted],
            )
        return [TableRecord.from_row(row) for row in rows]

    async def waiting_users(self, table_id: int) -> list[tuple[int, float]]:
        """Return (user, since) for each seat a table waits on, oldest wait first."""
        async with self._single() as db:
            rows = await self._all(
                db, "SELECT user_id, since FROM waiting WHERE table_id = ? ORDER BY since, user_id",
                (table_id,),
            )
        return [(row["user_id"], row["since"]) for row in rows]

    @changes_table
    async def substitute_seat(self, table_id: int, old_user: int, new_user: int, new_name: str) -> None:
        """Seat ``new_user`` in ``old_user``'s place at a running game, in one transaction.

        The seat keeps its number, clock, settings and whom the game waits on; the new player
        follows the table no more as a spectator. The move log's chain starts from the seats, so
        it is checked first (a damaged log is never re-sealed as sound) and then sealed again.
        """
        async with self._transaction() as db:
            row = await self._table_row(db, table_id)
            if row["status"] != "active":
                raise StoreError(f"Table {table_id} is not in play.")
            snapshot = await self._one(
                db, "SELECT version, state FROM snapshots WHERE table_id = ?", (table_id,)
            )
            await self._verify(db, row, snapshot["version"], snapshot["state"])
            taken = await self._one(
                db, "SELECT 1 FROM seats WHERE table_id = ? AND user_id = ?", (table_id, new_user)
            )
            if taken is not None:
                raise StoreError(f"User {new_user} is seated at table {table_id} already.")
            # The seat's rows point at (table, user): checked at commit, once all of them moved.
            await db.execute(self._dialect.defer_foreign_keys)
            cur = await db.execute(
                "UPDATE seats SET user_id = ?, name = ?, dm_ok = NULL WHERE table_id = ? AND user_id = ?",
                (new_user, new_name, table_id, old_user),
            )
            moved = cur.rowcount
            await cur.close()
            if moved != 1:
                raise StoreError(f"User {old_user} is not seated at table {table_id}.")
            for name in ("waiting", "seat_clocks", "seat_prefs", "abandon_votes", "due_work"):
                await db.execute(
                    f"UPDATE {name} SET user_id = ? WHERE table_id = ? AND user_id = ?",
                    (new_user, table_id, old_user),
                )
            drop = "DELETE FROM {} WHERE table_id = ? AND user_id = ?"
            await db.execute(drop.format("votes"), (table_id, old_user))
            await db.execute(drop.format("spectators"), (table_id, new_user))
            await db.execute("DELETE FROM chain WHERE table_id = ?", (table_id,))
            self._sound.pop(table_id, None)
            await self._seal(db, row)

    @changes_table
    async def set_host(self, table_id: int, user_id: int) -> None:
        """Make a seated user the host of a table."""
        async with self._transaction() as db:
            await db.execute("UPDATE tables SET host_id = ? WHERE id = ?", (user_id, table_id))

    # ------------------------------------------------------------------ one user's data

    async def user_rows(self, user_id: int) -> dict[str, list[dict[str, Any]]]:
        """Return every row the store keeps about a user, by table name (for ``/me data``)."""
        queries = {
            "seats": "SELECT seats.table_id, tables.kind, tables.status, tables.guild_id, seats.name,"
            " seats.seat, seats.joined_at, seats.bot FROM seats JOIN tables ON tables.id = seats.table_id"
            " WHERE seats.user_id = ? ORDER BY seats.table_id",
            "hosting": "SELECT id AS table_id, kind, status, guild_id FROM tables WHERE host_id = ?"
            " ORDER BY id",
            "preferences": "SELECT pings, quiet_from, quiet_to, utc_offset, tz FROM user_prefs"
            " WHERE user_id = ?",
            "seat_settings": "SELECT table_id, key, value FROM seat_prefs WHERE user_id = ?"
            " ORDER BY table_id, key",
            "seat_clocks": "SELECT table_id, bank, running_since, out_since, absent, played_for"
            " FROM seat_clocks WHERE user_id = ? ORDER BY table_id",
            "spectating": "SELECT table_id, since FROM spectators WHERE user_id = ? ORDER BY table_id",
            "votes": "SELECT table_id, topic, choice, voted_at FROM votes WHERE user_id = ?"
            " ORDER BY table_id",
            "waiting": "SELECT table_id, since FROM waiting WHERE user_id = ? ORDER BY table_id",
        }
        found: dict[str, list[dict[str, Any]]] = {}
        async with self._single() as db:
            for name, sql in queries.items():
                found[name] = [dict(row) for row in await self._all(db, sql, (user_id,))]
        return found

    @changes_all
    async def forget_user(self, user_id: int) -> int:
        """Delete a user's preferences and spectating; rename their seats of closed tables.

        Returns how many seats were renamed. The user id stays on those seats: it is part of
        each table's sealed move log (``store.check``), and no one sees it.
        """
        async with self._transaction() as db:
            await db.execute("DELETE FROM user_prefs WHERE user_id = ?", (user_id,))
            await db.execute("DELETE FROM spectators WHERE user_id = ?", (user_id,))
            cur = await db.execute(
                "UPDATE seats SET name = ? WHERE user_id = ? AND table_id IN"
                " (SELECT id FROM tables WHERE status IN ('finished', 'abandoned'))",
                (FORMER_PLAYER, user_id),
            )
            renamed = cur.rowcount
            await cur.close()
            await db.execute(
                "DELETE FROM seat_prefs WHERE user_id = ? AND table_id IN"
                " (SELECT id FROM tables WHERE status IN ('finished', 'abandoned'))",
                (user_id,),
            )
        return renamed
