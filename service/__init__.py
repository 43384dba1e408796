"""The table service: lobby, seats, turn flow, locking and notifications (no Discord here)."""

from service.bots import BOT_LEVELS
from service.notify import MILESTONE
from service.replies import (
    Board,
    Choice,
    PrivateNote,
    PublicView,
    Reply,
    SeatLine,
    SeatView,
    StaleOffer,
    TableError,
    WaitingTable,
)
from service.tables import (
    ASK_PREF,
    AUTO_PREF,
    LOBBY_HINT,
    REACTIONS_PREF,
    Offer,
    TableService,
    move_value,
    offered_token,
    offered_value,
    parse_options,
    seat_order,
)
from store import DELIVER, TableRecord

__all__ = [
    "ASK_PREF",
    "AUTO_PREF",
    "BOT_LEVELS",
    "DELIVER",
    "LOBBY_HINT",
    "MILESTONE",
    "REACTIONS_PREF",
    "Board",
    "Choice",
    "Offer",
    "PrivateNote",
    "PublicView",
    "Reply",
    "SeatLine",
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
