"""Persistence: tables, seats, the move log and snapshots in SQLite (see store.sqlite)."""

from store.asyncplay import DELIVER, DueWork, SeatClock, Spectator, Timing, UserPrefs, WorkItem
from store.records import (
    STATUSES,
    CorruptTable,
    DamagedSnapshot,
    MoveRecord,
    SeatRecord,
    StaleVersion,
    StoreError,
    TableRecord,
)
from store.sqlite import Store

__all__ = [
    "DELIVER",
    "STATUSES",
    "CorruptTable",
    "DamagedSnapshot",
    "DueWork",
    "MoveRecord",
    "SeatClock",
    "SeatRecord",
    "Spectator",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableRecord",
    "Timing",
    "UserPrefs",
    "WorkItem",
]
