"""Persistence: tables, seats, the move log and snapshots in SQLite (see store.sqlite)."""

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
    "STATUSES",
    "CorruptTable",
    "DamagedSnapshot",
    "MoveRecord",
    "SeatRecord",
    "StaleVersion",
    "Store",
    "StoreError",
    "TableRecord",
]
