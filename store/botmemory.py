"""The store's part for bots' private memories: one JSON document per bot seat of a started table.

A memory is written in the same transaction as the move whose view it has seen (``commit_move``'s
``memories``), so a crash or a restart never separates the two, and a move refused as stale writes
no memory either. Handing a seat over (``set_seat_bot``) forgets the seat's memory. A mixin of
``store.Store``; no other module holds this table's SQL.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from store.records import dump
from store.rows import MEMORY, memory_fault, sound

if TYPE_CHECKING:
    from contextlib import AbstractAsyncContextManager

    from aiosqlite import Connection


class BotMemoryStore:
    """Methods of the store for the memories of bot seats (private: never shown to anyone)."""

    if TYPE_CHECKING:

        def _single(self) -> AbstractAsyncContextManager[Connection]: ...
        @staticmethod
        async def _all(db: Connection, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]: ...

    async def bot_memories(self, table_id: int) -> dict[int, dict[str, Any]]:
        """Return seat number -> memory for every bot seat of the table that remembers something."""
        async with self._single() as db:
            rows = await self._all(
                db, "SELECT table_id, seat, memory FROM bot_memory WHERE table_id = ?", (table_id,)
            )
        # A damaged memory is set aside: that bot starts afresh, as after a hand-over.
        return {row["seat"]: json.loads(row["memory"]) for row in sound(rows, memory_fault, MEMORY)}

    @staticmethod
    async def _write_memories(db: Connection, table_id: int, memories: dict[int, dict[str, Any]]) -> None:
        """Replace the given seats' memories (inside the caller's transaction)."""
        for seat, memory in sorted(memories.items()):
            await db.execute(
                "INSERT INTO bot_memory (table_id, seat, memory) VALUES (?, ?, ?)"
                " ON CONFLICT (table_id, seat) DO UPDATE SET memory = excluded.memory",
                (table_id, seat, dump(memory)),
            )

    @staticmethod
    async def _forget_memory(db: Connection, table_id: int, seat: int) -> None:
        """Drop a seat's memory (inside the caller's transaction): its next bot starts afresh."""
        await db.execute("DELETE FROM bot_memory WHERE table_id = ? AND seat = ?", (table_id, seat))
