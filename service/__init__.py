"""The table service: lobby, seats, turn flow, locking and notifications (no Discord here)."""

from service.replies import (
    Board,
    Choice,
    PrivateNote,
    PublicView,
    Reply,
    SeatView,
    StaleOffer,
    TableError,
    WaitingTable,
)
from service.tables import (
    Offer,
    TableService,
    move_value,
    offered_token,
    offered_value,
    parse_options,
    seat_order,
)
from store import TableRecord

__all__ = [
    "Board",
    "Choice",
    "Offer",
    "PrivateNote",
    "PublicView",
    "Reply",
    "SeatView",
    "StaleOffer",
    "TableError",
    "TableRecord",
    "TableService",
    "WaitingTable",
    "move_value",
    "offered_token",
    "offered_value",
    "parse_options",
    "seat_order",
]
