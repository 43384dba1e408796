"""Persistence: tables, seats, the move log and snapshots, in SQLite (store.sqlite) or PostgreSQL."""

from store import sqlite
from store.asyncplay import SeatClock, Spectator, TableWait, Timing, UserPrefs
from store.duework import DELIVER, DueWork, WorkItem
from store.records import (
    STATUSES,
    CorruptTable,
    DamagedSnapshot,
    MoveRecord,
    NotDurable,
    SeatRecord,
    StaleVersion,
    StoreError,
    TableRecord,
)
from store.sqlite import Store


async def _open_postgres(url: str, **kwargs: object) -> Store:
    """Open the PostgreSQL store (asyncpg is imported only when one is asked for)."""
    from store.pg import PostgresStore

    return await PostgresStore.open(url, **kwargs)  # type: ignore[arg-type]


sqlite.OPEN_POSTGRES = _open_postgres

__all__ = [
    "DELIVER",
    "STATUSES",
    "CorruptTable",
    "DamagedSnapshot",
    "DueWork",
    "MoveRecord",
    "NotDurable",
    "SeatClock",
    "SeatRecord",
    "Spectator",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableRecord",
    "TableWait",
    "Timing",
    "UserPrefs",
    "WorkItem",
]
