"""The table service: lobby, seats, turn flow, locking and notifications (no Discord here)."""

from service.notify import MILESTONE
from service.replies import (
    Board,
    Choice,
    PrivateNote,
    PublicView,
    Reply,
    SeatLine,
    SeatView,
    TableError,
    WaitingTable,
)
from service.tables import AUTO_PREF, REACTIONS_PREF, TableService, move_value, parse_options, seat_order
from store import TableRecord

__all__ = [
    "AUTO_PREF",
    "MILESTONE",
    "REACTIONS_PREF",
    "Board",
    "Choice",
    "PrivateNote",
    "PublicView",
    "Reply",
    "SeatLine",
    "SeatView",
    "TableError",
    "TableRecord",
    "TableService",
    "WaitingTable",
    "move_value",
    "parse_options",
    "seat_order",
]
