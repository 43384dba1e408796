"""What the store hands back: frozen records of tables, seats and moves, and its errors."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from typing import Any

from store.rows import SEAT, STAND_IN, seat_fault, set_aside, table_fault

STATUSES = ("lobby", "active", "finished", "abandoned")
"""Every status a table can have, in life-cycle order."""


class StoreError(Exception):
    """Base of every error the store raises; the message says what was wrong."""


class StaleVersion(StoreError):
    """The table moved on: expected_version is not the current version."""


class NotDurable(StoreError):
    """The disk refused the fsync of committed moves: they may not survive a power cut."""


class CorruptTable(StoreError):
    """The table's saved game is damaged: its snapshot, move log, seed or seats fail their checks."""

    def __init__(self, message: str, table_id: int | None = None) -> None:
        super().__init__(message)
        self.table_id = table_id
        """The damaged table, when the error is raised where the caller may not know it."""


class DamagedSnapshot(CorruptTable):
    """The snapshot fails its checksum but the move log is sound: replaying the log rebuilds it."""


@dataclass(frozen=True)
class TableRecord:
    """One game at one Discord thread, as stored."""

    id: int
    kind: str
    name: str
    options: dict[str, str]
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    host_id: int
    status: str
    seed: int | None
    version: int
    created_at: float
    updated_at: float
    result: dict | None

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> TableRecord:
        """Build a record from a row of the ``tables`` table; CorruptTable when its JSON is damaged."""
        fault = table_fault(row)
        if fault is not None:
            # The options are in the chain's genesis: the table cannot be trusted to replay.
            raise CorruptTable(f"Table {row['id']}: {fault}.", row["id"])
        return cls(
            id=row["id"],
            kind=row["kind"],
            name=row["name"],
            options=json.loads(row["options"]),
            guild_id=row["guild_id"],
            channel_id=row["channel_id"],
            thread_id=row["thread_id"],
            host_id=row["host_id"],
            status=row["status"],
            seed=row["seed"],
            version=row["version"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            result=None if row["result"] is None else json.loads(row["result"]),
        )


@dataclass(frozen=True)
class SeatRecord:
    """One player at a table; ``seat`` is fixed at start and None while in the lobby."""

    table_id: int
    user_id: int
    name: str
    seat: int | None
    joined_at: float
    dm_ok: bool | None
    bot: str | None = None
    """The level of the bot playing this seat now (None: its person plays it)."""

    @property
    def filled_by_bot(self) -> bool:
        """Whether a bot took this seat in the lobby (no person behind it: a negative user id)."""
        return self.user_id < 0

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> SeatRecord:
        """Build a record from a row of the ``seats`` table."""
        dm_ok = row["dm_ok"]
        bot = row["bot"] if "bot" in row.keys() else None  # noqa: SIM118 (sqlite3.Row has no `in`)
        if bot is not None and (fault := seat_fault(row)) is not None:
            set_aside(SEAT, row, fault, f"a {STAND_IN} bot plays it")
            bot = STAND_IN
        return cls(
            table_id=row["table_id"],
            user_id=row["user_id"],
            name=row["name"],
            seat=row["seat"],
            joined_at=row["joined_at"],
            dm_ok=None if dm_ok is None else bool(dm_ok),
            bot=bot,
        )


@dataclass(frozen=True)
class MoveRecord:
    """One accepted move; ``version`` is the table's version after it (the first move is 1)."""

    table_id: int
    version: int
    seat: int
    move: dict
    events: list[dict]
    created_at: float

    @classmethod
    def from_row(cls, row: sqlite3.Row) -> MoveRecord:
        """Build a record from a row of the ``moves`` table; CorruptTable when its JSON is damaged."""
        try:
            move, events = json.loads(row["move"]), json.loads(row["events"])
        except (TypeError, ValueError):
            table_id = row["table_id"]
            raise CorruptTable(f"Table {table_id}: move {row['version']} is not JSON.", table_id) from None
        return cls(
            table_id=row["table_id"],
            version=row["version"],
            seat=row["seat"],
            move=move,
            events=events,
            created_at=row["created_at"],
        )


def dump(value: Any) -> str:
    """Return compact JSON text for a JSON column (raises TypeError for non-JSON values)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
